import type { FastifyRequest } from 'fastify'
import { isObject } from '../util/is-object.js'
import { requestPart } from '../util/request-part.js'
import { routeContextOf } from '../util/route-context.js'
import { isThenable } from '../util/is-thenable.js'
import type { Validate } from '../util/validator.js'

type Formatter = (errors: unknown, dataVar: string) => Error

/** The request parts Fastify validates, in its order: what the request keeps it as, and what its errors call it. */
const PARTS = [['params', 'params', 'params'], ['body', 'body', 'body'], ['querystring', 'query', 'querystring'], ['headers', 'headers', 'headers']] as const

/**
 * A version's validation of a request on the route that serves every older version of a `versionChanges` route
 * (Fastify validates one schema a route, so this route has none of its own): its schemas compiled at the first
 * request of the version, by the route's compiler as Fastify compiles a route's (`request.compileValidationSchema`:
 * the app's, or the route's own), and run as Fastify runs them: params, body (by media type where the schema has
 * `content`), query string, headers (their names in lower case, as Node gives them), the first that fails giving
 * the error Fastify gives (`FST_ERR_VALIDATION`, status 400, the route's `schemaErrorFormatter`), a validator's
 * `{ value }`, `{ error }` and promise results taken as Fastify takes them.
 */
export interface VersionValidation {
  /** False when the request fits; else the validation error, or a promise of either. */
  (request: FastifyRequest): Error | false | Promise<Error | false>
  /** Compiles the validators now, with a compiler as Fastify calls one, rather than at the first request. */
  compile: (compiler: ValidatorCompiler) => void
}

/** A validator compiler, as Fastify calls one. */
export type ValidatorCompiler = (route: { schema: unknown, httpPart: string, method?: string, url?: string }) => unknown

type Compile = (schema: Record<string, unknown>, httpPart: typeof PARTS[number][0]) => Validate

export function versionValidation (schema: Record<string, unknown> | undefined): VersionValidation | null {
  const parts = PARTS.filter(([part]) => schema?.[part] !== undefined)
  if (schema === undefined || parts.length === 0) return null
  // Per part, once: the validator, or the validators of the body's media types.
  let compiled: Array<Validate | Map<string, Validate>> | null = null

  function compile (compileOne: Compile): Array<Validate | Map<string, Validate>> {
    return parts.map(([part]) => {
      const given = (schema as Record<string, unknown>)[part]
      if (part === 'body' && isObject(given) && isObject(given.content)) {
        return new Map(Object.entries(given.content).map(([type, media]) => [type, compileOne((media as { schema: Record<string, unknown> }).schema, part)]))
      }
      const own = part === 'headers' && isPlainObject(given) ? lowerCaseNames(given) : given
      return compileOne(own as Record<string, unknown>, part)
    })
  }

  return Object.assign(function validateVersion (request: FastifyRequest) {
    compiled ??= compile((own, part) => request.compileValidationSchema(own, part) as unknown as Validate)
    return validateFrom(request, compiled, 0)
  }, {
    compile (compiler: ValidatorCompiler) {
      compiled ??= compile((own, httpPart) => compiler({ schema: own, httpPart }) as Validate)
    }
  })

  function validateFrom (request: FastifyRequest, validators: Array<Validate | Map<string, Validate>>, from: number): Error | false | Promise<Error | false> {
    for (let i = from; i < parts.length; i++) {
      const [, key, dataVar] = parts[i]
      const given = validators[i]
      const validate = given instanceof Map ? given.get(essenceOf(request.headers['content-type'])) : given
      if (validate === undefined) continue
      // As Fastify: what is no error (no errors given with a false, too) lets the part pass.
      const result = run(validate, request, key)
      if (result === false) continue
      if (isThenable(result)) {
        return Promise.resolve(result).then(errors => errors ? wrap(errors, dataVar, request) : validateFrom(request, validators, i + 1))
      }
      if (result) return wrap(result, dataVar, request)
    }
    return false
  }
}

// As Fastify's validateParam: false where the part fits, else its errors (or the error thrown, as a 500).
function run (validate: Validate, request: FastifyRequest, key: 'params' | 'body' | 'query' | 'headers'): unknown {
  const holder = request as unknown as Record<string, unknown>
  const value = requestPart(request, key)
  let result: unknown
  try {
    const data = value === undefined ? null : value
    // Ajv changes a root value (coercion) only when told its parent.
    result = validate.schemaEnv === undefined ? validate(data) : validate(data, { parentData: request, parentDataProperty: key })
  } catch (error) {
    return Object.assign(error as Error, { statusCode: 500 })
  }
  // Ajv's answer for a part that fits, first: the one on nearly every request.
  if (result === true) return false
  if (isThenable(result)) {
    // An async validator resolves with the data itself: pass or fail only.
    return Promise.resolve(result).then(settled => settled === false ? validate.errors : false, error => error)
  }
  if (result === false) return validate.errors
  if (isObject(result) && result.error != null) return result.error
  if (isObject(result) && 'value' in result) holder[key] = result.value
  return false
}

// As Fastify's wrapValidationError, with the route's schemaErrorFormatter.
function wrap (result: unknown, dataVar: string, request: FastifyRequest): Error {
  if (result instanceof Error) {
    const error = result as Error & { statusCode?: number, code?: string, validationContext?: string }
    error.statusCode ||= 400
    error.code ||= 'FST_ERR_VALIDATION'
    error.validationContext ||= dataVar
    return error
  }
  const error = formatterOf(request)(result, dataVar) as Error & { statusCode?: number, code?: string, validation?: unknown, validationContext?: string }
  error.statusCode ||= 400
  error.code ||= 'FST_ERR_VALIDATION'
  error.validation = result
  error.validationContext = dataVar
  return error
}

// The route's schemaErrorFormatter, as Fastify keeps it on the route's context (the route's own, the server's, or
// Fastify's), when an error needs it.
function formatterOf (request: FastifyRequest): Formatter {
  const formatter = routeContextOf(request)?.schemaErrorFormatter
  return typeof formatter === 'function' ? formatter as Formatter : defaultFormatter
}

function defaultFormatter (errors: unknown, dataVar: string): Error {
  const list = Array.isArray(errors) ? errors as Array<{ instancePath?: string, message?: string }> : []
  return new Error(list.map(error => `${dataVar}${error.instancePath ?? ''} ${String(error.message)}`).join(', '))
}

/** The media type of a Content-Type, as Fastify picks a body's schema by it ('' for none). */
export function essenceOf (header: string | undefined): string {
  return header === undefined ? '' : header.split(/[ ;]/, 1)[0].trim().toLowerCase()
}

function isPlainObject (value: unknown): value is Record<string, unknown> {
  return isObject(value) && Object.getPrototypeOf(value) === Object.prototype
}

// Header names are lower case in a request: so are they in its schema, where its properties and required list name
// them, through the members of compositions (as Fastify does for a plain schema; a compiler's own types it leaves).
function lowerCaseNames (schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowerCaseNames)
  if (!isObject(schema)) return schema
  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) result[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name.toLowerCase(), lowerCaseNames(child)]))
    else if (key === 'required' && Array.isArray(value)) result[key] = value.map(name => typeof name === 'string' ? name.toLowerCase() : name)
    else if (['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'].includes(key)) result[key] = lowerCaseNames(value)
    else result[key] = value
  }
  return result
}
