import { Type, type Static } from '@sinclair/typebox'
import fastJson from 'fast-json-stringify'
import type { ProblemDocument } from './problems.js'

/**
 * The RFC 9457 problem document, with the `code` extension this plugin adds. Mirrors RFC 9457 Appendix A;
 * other extension members are allowed. Use it in route `response` schemas and OpenAPI documents.
 */
export const ProblemDetailsSchema = Type.Object({
  type: Type.Optional(Type.String({ format: 'uri-reference', default: 'about:blank', description: 'Identifies the problem type' })),
  title: Type.Optional(Type.String({ description: 'A short summary of the problem type' })),
  status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: 'The HTTP status code of this response' })),
  detail: Type.Optional(Type.String({ description: 'An explanation specific to this occurrence' })),
  instance: Type.Optional(Type.String({ format: 'uri-reference', description: 'Identifies this occurrence' })),
  code: Type.Optional(Type.String({ description: 'The error code of the earlier error-object format' }))
}, { $id: 'ProblemDetails', title: 'ProblemDetails', additionalProperties: true })

export type ProblemDetails = Static<typeof ProblemDetailsSchema>

const stringify: (problem: ProblemDocument) => string = fastJson(ProblemDetailsSchema)
// Frozen problems (the plugin's own) never change, so each is serialized once.
const serialized = new WeakMap<object, string>()

export function serializeProblem (problem: ProblemDocument): string {
  let body = serialized.get(problem)
  if (body === undefined) {
    body = stringify(problem)
    if (Object.isFrozen(problem)) serialized.set(problem, body)
  }
  return body
}
