// @sinclair/typebox is an optional peer, for these types only: an app on 0.33 or 0.34 gets them from its own copy,
// so the schema fits its Type.Array(...) and type provider. An app on TypeBox 1.x (the 'typebox' package) has no
// @sinclair/typebox: the comment below keeps the import from failing its build, the types are then `any`, and
// ProblemDetailsSchema is typed by its JSON Schema keywords instead, from which TypeBox 1.x infers.
// @ts-ignore: an optional peer (see above)
import type { TInteger, TObject, TOptional, TSchema, TString } from '@sinclair/typebox'
import { problemJson } from './problem-json.js'
import type { ProblemDocument } from './problems.js'

// The schema is written out as the object TypeBox's `Type.Object(...)` builds (a test pins them equal), so that
// TypeBox is a type-only import: its ESM build is 266 modules, and loading them at start-up tipped V8's sizing
// of the young generation so that every request of the app cost ~3.5 µs more (benchmarks/results.md, notes).
const Kind = Symbol.for('TypeBox.Kind')
const OptionalKind = Symbol.for('TypeBox.Optional')

function optional<T extends TSchema> (schema: T): TOptional<T> {
  return { ...schema, [OptionalKind]: 'Optional' } as TOptional<T>
}
function string (options: Record<string, unknown>): TString {
  return { ...options, type: 'string', [Kind]: 'String' } as unknown as TString
}
function integer (options: Record<string, unknown>): TInteger {
  return { ...options, type: 'integer', [Kind]: 'Integer' } as unknown as TInteger
}

// A type alias, not an interface: TProperties needs an implicit index signature.
type ProblemDetailsProperties = {
  type: TOptional<TString>
  title: TOptional<TString>
  status: TOptional<TInteger>
  detail: TOptional<TString>
  instance: TOptional<TString>
  code: TOptional<TString>
}

/** The schema as JSON Schema keywords, for apps without @sinclair/typebox (TypeBox 1.x infers from them). */
interface ProblemDetailsKeywords {
  $id: 'ProblemDetails'
  title: 'ProblemDetails'
  type: 'object'
  additionalProperties: true
  properties: {
    type: { type: 'string', format: 'uri-reference' }
    title: { type: 'string' }
    status: { type: 'integer', minimum: 100, maximum: 599 }
    detail: { type: 'string' }
    instance: { type: 'string', format: 'uri-reference' }
    code: { type: 'string' }
  }
}

// True where T is `any`, what an import that did not resolve gives (a tuple, or `any` would spread to the result).
type Unresolved<T, Then, Else> = [1 & T] extends [0] ? Then : Else

/**
 * The RFC 9457 problem document, with the `code` extension this plugin adds: a TypeBox schema. Mirrors RFC 9457
 * Appendix A; other extension members are allowed. Use it in route `response` schemas and OpenAPI documents.
 */
export const ProblemDetailsSchema: Unresolved<TObject, ProblemDetailsKeywords, TObject<ProblemDetailsProperties>> = {
  $id: 'ProblemDetails',
  title: 'ProblemDetails',
  additionalProperties: true,
  type: 'object',
  // The examples are one Unsupported problem: what docs pages show, instead of samples made from the keywords
  // (Swagger UI shows `minimum`, a status of 100, and `path/index.html` for a URI reference).
  properties: {
    type: optional(string({ format: 'uri-reference', default: 'about:blank', description: 'Identifies the problem type', examples: ['https://docs.api-versioning.org/problems#unsupported'] })),
    title: optional(string({ description: 'A short summary of the problem type', examples: ['Unsupported API version'] })),
    status: optional(integer({ minimum: 100, maximum: 599, description: 'The HTTP status code of this response', examples: [400] })),
    detail: optional(string({ description: 'An explanation specific to this occurrence', examples: ['The specified API version is not supported'] })),
    instance: optional(string({ format: 'uri-reference', description: 'Identifies this occurrence', examples: ['/orders/42'] })),
    code: optional(string({ description: 'The error code of the earlier error-object format', examples: ['UnsupportedApiVersion'] }))
  },
  [Kind]: 'Object'
} as unknown as TObject<ProblemDetailsProperties>

/**
 * A problem document as the schema reads it: the standard members, `code`, and any extension member (written
 * out, so that apps without @sinclair/typebox have it too; a type test holds it to the schema's Static type).
 */
export type ProblemDetails = {
  type?: string
  title?: string
  status?: number
  detail?: string
  instance?: string
  code?: string
} & { [extension: string]: unknown }

// Frozen problems (the plugin's own) never change, so each is serialized once.
const serialized = new WeakMap<object, string>()

export function serializeProblem (problem: ProblemDocument): string {
  let body = serialized.get(problem)
  if (body === undefined) {
    body = problemJson(problem)
    if (Object.isFrozen(problem)) serialized.set(problem, body)
  }
  return body
}
