import type { ResolvedOptions } from '../options.js'
import { ProblemDetailsSchema } from '../problems/problem-schema.js'
import { createProblem } from '../problems/problems.js'
import { isMediaTypeOnly } from '../request/request-reader.js'
import type { CollectedRoute } from './collect.js'
import type { OperationObject } from './parameters.js'
import { SCHEMA_REF } from './component-ref.js'

export const PROBLEM_DETAILS = 'ProblemDetails'
export const ERROR_OBJECT = 'ErrorObject'
export const FASTIFY_ERROR = 'FastifyError'
const PROBLEM_JSON = 'application/problem+json'
const JSON_TYPE = 'application/json'
// What @fastify/swagger writes when a response declares no description.
const NO_DESCRIPTION = 'Default Response'

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

/** The body of Fastify's default error handler: what a request that fails validation gets. */
const FastifyErrorSchema = Object.freeze({
  title: FASTIFY_ERROR,
  description: "Fastify's error response, as its default error handler writes it",
  type: 'object',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer', description: 'The HTTP status code' },
    code: { type: 'string', description: "The error's code, such as FST_ERR_VALIDATION" },
    error: { type: 'string', description: 'The reason phrase, such as Bad Request' },
    message: { type: 'string' }
  }
})

// As ProblemDetailsSchema, without its `$id`: the component's name is its identity in a document, and an
// OpenAPI 3.0 schema may not have one.
const { $id: _id, ...problemDetails } = JSON.parse(JSON.stringify(ProblemDetailsSchema))

/** The error schemas a document may refer to, as its OpenAPI version writes examples. */
export function errorSchemas (openapi: string): Record<string, unknown> {
  return {
    [PROBLEM_DETAILS]: openapi.startsWith('3.0') ? singleExamples(problemDetails) : structuredClone(problemDetails),
    [ERROR_OBJECT]: structuredClone(ErrorObjectSchema),
    [FASTIFY_ERROR]: structuredClone(FastifyErrorSchema)
  }
}

// OpenAPI 3.0 schemas have one `example`, not JSON Schema's `examples` list.
function singleExamples (schema: Record<string, any>): Record<string, unknown> {
  const properties = Object.fromEntries(Object.entries(schema.properties as Record<string, Record<string, unknown>>)
    .map(([name, { examples, ...property }]) => [name, { ...property, example: (examples as unknown[])[0] }]))
  return { ...schema, properties }
}

/** How the app writes errors: `errorObjects` registered before apiVersioning (with `allErrors`, for every error). */
export type ErrorObjectsMode = null | { readonly allErrors: boolean }

export interface ResponseContext {
  readonly options: ResolvedOptions
  readonly errorObjects: ErrorObjectsMode
  /** The values of the version headers on this path (all its methods), or null when there is none. */
  readonly supportedHeader: string | null
  readonly deprecatedHeader: string | null
}

type Kind = 'unspecified' | 'invalid' | 'ambiguous' | 'unsupported'
type Content = Record<string, { schema?: unknown, [keyword: string]: unknown }>
type Examples = Record<string, { summary: string, value: unknown }>
type Response = { description?: string, content?: Content, headers?: Record<string, unknown>, [keyword: string]: unknown }

const ref = (name: string): { $ref: string } => ({ $ref: SCHEMA_REF + name })

/**
 * Documents the errors an operation can answer with, as the server writes them: a response whose schema is
 * ProblemDetails under the problem's media type; the version errors, merged with any response the route declares
 * for that status; Fastify's validation error on every route that validates, versioned or not; and the
 * version headers of `reportApiVersions` (`api-supported-versions` and `api-deprecated-versions`, or as named).
 */
export function describeResponses (operation: OperationObject, route: CollectedRoute, context: ResponseContext): void {
  // @fastify/swagger gives every operation its responses (a default one at least).
  const responses = operation.responses as Record<string, Response>
  for (const response of Object.values(responses)) problemMediaType(response, context.errorObjects)
  const { declaration } = route
  const { options, errorObjects } = context
  const errors = declaration.kind === 'plain' ? new Map<string, Kind[]>() : errorsOf(declaration, options)
  // Any route that validates can answer Fastify's 400, versioned or not.
  if (route.validates && !errors.has('400')) errors.set('400', [])
  for (const [status, kinds] of errors) {
    const declared = responses[status] ?? responses[status[0] + 'XX']
    const content: Content = structuredClone(declared?.content) ?? {}
    const causes: string[] = []
    if (kinds.length > 0) {
      if (options.problemDetails) {
        for (const [type, media] of Object.entries(errorContent(errorObjects !== null))) addBody(content, type, media.schema, versionExamples(kinds, Number(status), options, errorObjects !== null, declaration.inPath))
      }
      causes.push(describe(kinds))
    }
    // Fastify's own validation error, unless the route says what its 400 is under application/json.
    if (status === '400' && route.validates && declared?.content?.[JSON_TYPE] === undefined) {
      addBody(content, JSON_TYPE, ref(errorObjects?.allErrors === true ? ERROR_OBJECT : FASTIFY_ERROR))
      causes.push('a request that fails validation')
    }
    // An unversioned route whose own 400 stands: nothing to add.
    if (causes.length === 0) continue
    let description = causes.join(', or ')
    description = description[0].toUpperCase() + description.slice(1)
    if (declared !== undefined) {
      description = declared.description === undefined || declared.description === NO_DESCRIPTION
        ? `${description}, or the route's own response`
        : `${declared.description}; or ${description[0].toLowerCase()}${description.slice(1)}`
    }
    responses[status] = { ...structuredClone(declared), description, ...(Object.keys(content).length > 0 ? { content } : {}) }
  }
  if (declaration.kind !== 'versioned' || !options.reportApiVersions) return
  for (const response of Object.values(responses)) {
    const headers = { ...response.headers }
    addHeader(headers, options.supportedHeader, 'The API versions this path supports', context.supportedHeader)
    addHeader(headers, options.deprecatedHeader, 'The deprecated API versions this path still serves', context.deprecatedHeader)
    if (Object.keys(headers).length > 0) response.headers = headers
  }
}

function errorsOf (declaration: CollectedRoute['declaration'], options: ResolvedOptions): Map<string, Kind[]> {
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
  if (declaration.inPath) {
    add(404, 'unsupported')
  } else if (isMediaTypeOnly(options)) {
    // As the server answers when only media types carry versions: a type it cannot take (415) for any request
    // that has a Content-Type, whatever its method and with or without a body schema; else one it cannot give.
    add(406, 'unsupported')
    add(415, 'unsupported')
  } else {
    add(options.unsupportedApiVersionStatusCode, 'unsupported')
  }
  return errors
}

function describe (kinds: Kind[]): string {
  const words = kinds.length === 1 ? kinds[0] : kinds.slice(0, -1).join(', ') + ' or ' + kinds[kinds.length - 1]
  return words[0].toUpperCase() + words.slice(1) + ' API version'
}

function errorContent (errorObjects: boolean): Content {
  return errorObjects ? { [JSON_TYPE]: { schema: ref(ERROR_OBJECT) } } : { [PROBLEM_JSON]: { schema: ref(PROBLEM_DETAILS) } }
}

/**
 * The version problems an operation answers with at `status`, each as the server writes it (a problem document,
 * or an error object): what a docs page shows for that status, rather than one problem of another status.
 */
function versionExamples (kinds: Kind[], status: number, options: ResolvedOptions, errorObjects: boolean, inPath: boolean): Examples {
  // The error object's target, as the writer names it: where the version was read (the first place it may be
  // given; where no other reader is, the app's own, whose source is 'custom'), or, for none, the first place one
  // may be given outside media types.
  const { queryNames, headerNames, segmentName, mediaType } = options
  const given = inPath ? segmentName : queryNames[0] ?? headerNames[0] ?? mediaType?.parameters[0] ?? mediaType?.template ?? 'custom'
  const none = queryNames[0] ?? headerNames[0] ?? segmentName
  return Object.fromEntries(kinds.map(kind => {
    const problem = createProblem(kind, status, options.problemTypeBase)
    const target = kind === 'unspecified' ? none : given
    const value = errorObjects
      ? { error: { code: problem.code, message: problem.title, ...(target === null ? {} : { target }), innerError: { message: problem.detail } } }
      : problem
    return [kind, { summary: problem.title, value }]
  }))
}

// A second body under one media type: the response is either. Examples are added where the media type has none.
function addBody (content: Content, type: string, schema: unknown, examples: Examples | null = null): void {
  const media = content[type]
  const own = media !== undefined && (media.example !== undefined || media.examples !== undefined)
  const shown = examples === null || own ? {} : { examples }
  if (media === undefined) content[type] = { schema, ...shown }
  else if (!sameSchema(media.schema, schema)) content[type] = { ...media, schema: { anyOf: [media.schema, schema] }, ...shown }
  else content[type] = { ...media, ...shown }
}

/**
 * A declared response whose schema is ProblemDetails (by `$ref`, or the exported object, which @fastify/swagger
 * writes out) is what `reply.problem()` sends: `application/problem+json`, or an error object with `allErrors`.
 * Declared without a media type (under `application/json`), it is also how Fastify writes its own errors of that
 * status (a validation error, a thrown one): through that schema, as `application/json`, so both are documented.
 */
function problemMediaType (response: Response, errorObjects: ErrorObjectsMode): void {
  const content = response.content
  if (content === undefined) return
  const isProblem = (type: string): boolean => content[type] !== undefined && sameSchema(content[type].schema, ref(PROBLEM_DETAILS))
  // As the component, however the route gave it (the exported object is written out, with JSON Schema's examples).
  for (const type of Object.keys(content)) if (isProblem(type)) content[type] = { ...content[type], schema: ref(PROBLEM_DETAILS) }
  const allErrors = errorObjects?.allErrors === true
  if (allErrors && isProblem(PROBLEM_JSON)) {
    delete content[PROBLEM_JSON]
    addBody(content, JSON_TYPE, ref(ERROR_OBJECT))
  }
  if (!isProblem(JSON_TYPE)) return
  for (const [type, { schema }] of Object.entries(errorContent(allErrors))) addBody(content, type, schema)
}

function sameSchema (a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b)
}

// A schema as text, with ProblemDetails written out in any key order or OpenAPI version standing for its $ref.
function canonical (schema: unknown): string {
  const text = JSON.stringify(sorted(schema))
  return text === PROBLEM_TEXT ? JSON.stringify(ref(PROBLEM_DETAILS)) : text
}

function sorted (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.keys(value).sort().filter(key => key !== 'example' && key !== 'examples')
    .map(key => [key, sorted((value as Record<string, unknown>)[key])]))
}

const PROBLEM_TEXT = JSON.stringify(sorted(problemDetails))

function addHeader (headers: Record<string, unknown>, name: string, description: string, value: string | null): void {
  if (value === null || Object.keys(headers).some(key => key.toLowerCase() === name)) return
  headers[name] = { description, schema: { type: 'string' }, example: value }
}
