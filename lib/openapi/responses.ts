import type { ResolvedOptions } from '../options.js'
import type { DeclarationState } from '../state.js'
import type { OperationObject } from './parameters.js'

export const PROBLEM_DETAILS = 'ProblemDetails'
export const ERROR_OBJECT = 'ErrorObject'

/** The shape `errorObjects` writes (see ErrorObject in error-objects.ts). */
export const ErrorObjectSchema = Object.freeze({
  title: ERROR_OBJECT,
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', description: 'The error code, such as UnsupportedApiVersion' },
        message: { type: 'string' },
        target: { type: 'string', description: 'Where the API version was read, such as api-version' },
        innerError: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } }
      }
    }
  }
})

export interface ResponseContext {
  readonly options: ResolvedOptions
  readonly errorObjects: boolean
  /** The values of the version headers on this path (all its methods), or null when there is none. */
  readonly supportedHeader: string | null
  readonly deprecatedHeader: string | null
}

type Kind = 'unspecified' | 'invalid' | 'ambiguous' | 'unsupported'

/**
 * Adds the version errors an operation can answer with, keeping any response the route declares for that
 * status, and the `api-supported-versions` and `api-deprecated-versions` headers of `reportApiVersions`.
 */
export function describeVersionResponses (operation: OperationObject, declaration: DeclarationState, context: ResponseContext): void {
  if (declaration.kind === 'plain') return
  const { options } = context
  // @fastify/swagger gives every operation its responses (a default one at least).
  const responses = operation.responses as Record<string, Record<string, unknown>>
  for (const [status, kinds] of errorsOf(declaration, options)) {
    if (responses[status] !== undefined) continue
    responses[status] = options.problemDetails
      ? { description: describe(kinds), content: errorContent(context.errorObjects) }
      : { description: describe(kinds) }
  }
  if (declaration.kind !== 'versioned' || !options.reportApiVersions) return
  for (const response of Object.values(responses)) {
    const headers = { ...(response.headers as Record<string, unknown> | undefined) }
    addHeader(headers, 'api-supported-versions', 'The API versions this path supports', context.supportedHeader)
    addHeader(headers, 'api-deprecated-versions', 'The deprecated API versions this path still serves', context.deprecatedHeader)
    if (Object.keys(headers).length > 0) response.headers = headers
  }
}

function errorsOf (declaration: DeclarationState, options: ResolvedOptions): Map<string, Kind[]> {
  const errors = new Map<string, Kind[]>()
  const add = (status: number, kind: Kind): void => {
    const kinds = errors.get(String(status))
    if (kinds === undefined) errors.set(String(status), [kind])
    else kinds.push(kind)
  }
  // A neutral route needs no version, and a path that matched carries one.
  if (declaration.kind === 'versioned' && !declaration.inPath && !options.assumeDefaultVersionWhenUnspecified) add(400, 'unspecified')
  add(400, 'invalid')
  add(400, 'ambiguous')
  add(declaration.inPath ? 404 : options.unsupportedApiVersionStatusCode, 'unsupported')
  return errors
}

function describe (kinds: Kind[]): string {
  const words = kinds.length === 1 ? kinds[0] : kinds.slice(0, -1).join(', ') + ' or ' + kinds[kinds.length - 1]
  return words[0].toUpperCase() + words.slice(1) + ' API version'
}

function errorContent (errorObjects: boolean): Record<string, unknown> {
  return errorObjects
    ? { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_OBJECT}` } } }
    : { 'application/problem+json': { schema: { $ref: `#/components/schemas/${PROBLEM_DETAILS}` } } }
}

function addHeader (headers: Record<string, unknown>, name: string, description: string, value: string | null): void {
  if (value === null || Object.keys(headers).some(key => key.toLowerCase() === name)) return
  headers[name] = { description, schema: { type: 'string' }, example: value }
}
