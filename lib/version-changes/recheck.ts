import type { FastifyRequest } from 'fastify'
import { messageOf, serverError } from '../util/server-error.js'
import { isObject } from '../util/is-object.js'
import { isThenable } from '../util/is-thenable.js'
import type { Validate } from '../util/validator.js'
import type { VersionSchemas } from './version-parts.js'
import { essenceOf } from './version-validation.js'

/** What the check of a converted request needs: whose request it was, and what may have left it unlike the newest. */
export interface Rechecked {
  /** The client's version, and the newest, as listed. */
  readonly client: string
  readonly newest: string
  /** The instructions that may (`'the change of 2.0, requests[0]'`). */
  readonly unsure: readonly string[]
  readonly schemas: VersionSchemas
  /** The query parameters that carry the version (lower case), which the plugin lets through the route's own check. */
  readonly queryNames: readonly string[]
}

// The parts checked, by the name Fastify's validators give them, and where the request keeps them.
const PARTS = [['body', 'body'], ['querystring', 'query'], ['params', 'params']] as const

/**
 * Checks a request converted up against the newest version's schemas of its body, query string and path parameters, as Fastify
 * checked the client's against its own (the route's compilers: coercion, defaults and dropped properties as
 * configured; a compiler's `{ value }` and `{ error }` results, and async ones, taken as Fastify takes them), so
 * that the handler gets what the newest version says or nothing: what a migration or a changed field left unlike it
 * is the server's bug, a 500 that names the instructions that may have caused it.
 */
export function recheck (request: FastifyRequest, check: Rechecked): void | Promise<void> {
  const pending: Array<Promise<void>> = []
  for (const [part, key] of PARTS) {
    const schema = ofMediaType(check.schemas[part], request.headers['content-type'])
    if (schema === undefined) continue
    const validate = request.compileValidationSchema(schema as Record<string, unknown>, part) as unknown as Validate
    // The version's own query parameters are the plugin's, let through the route's check: set aside for this one.
    const aside = key === 'query' ? setAside(request.query as Record<string, unknown>, check.queryNames) : []
    // Ajv changes a root value (coercion) only when told its parent.
    const result = validate.schemaEnv === undefined ? validate(request[key]) : validate(request[key], { parentData: request, parentDataProperty: key })
    for (const [name, value] of aside) (request.query as Record<string, unknown>)[name] = value
    if (isThenable(result)) {
      pending.push(Promise.resolve(result).then(value => { if (value === false) fail(request, check, part, validate.errors) }, error => fail(request, check, part, [error])))
    } else if (result === false) {
      fail(request, check, part, validate.errors)
    } else if (isObject(result) && result.error != null) {
      // One error, or a list of them (TypeBoxValidatorCompiler's).
      fail(request, check, part, Array.isArray(result.error) ? result.error : [result.error])
    } else if (isObject(result) && 'value' in result) {
      request[key] = result.value
    }
  }
  if (pending.length > 0) return Promise.all(pending).then(() => {})
}

// A body's schema by media type (`content`) is the request's media type's, as Fastify picks it; none where it has none.
function ofMediaType (schema: unknown, contentType: string | undefined): unknown {
  if (!isObject(schema) || !isObject(schema.content)) return schema
  // Fastify takes no media type without its schema.
  return (schema.content[essenceOf(contentType)] as { schema: unknown } | undefined)?.schema
}

function setAside (query: Record<string, unknown>, names: readonly string[]): Array<[string, unknown]> {
  const aside: Array<[string, unknown]> = []
  for (const name of Object.keys(query)) {
    if (!names.includes(name.toLowerCase())) continue
    aside.push([name, query[name]])
    delete query[name]
  }
  return aside
}

function fail (request: FastifyRequest, check: Rechecked, part: string, errors: unknown): never {
  const problems = (Array.isArray(errors) ? errors : []).map(error => {
    const path = isObject(error) && typeof error.instancePath === 'string' ? error.instancePath : ''
    return `${part}${path} ${isObject(error) ? String(error.message) : messageOf(error)}`
  })
  throw serverError('FST_API_VERSIONING_CONVERSION_FAILED', `fastify-api-versioning: the request of ${request.method} ${request.routeOptions.url} for version ${check.client}, converted up to ${check.newest}, does not fit the ${part} schema of ${check.newest} (${problems.join('; ') || 'no reason given'}); one of these leaves it so: ${check.unsure.join(', ')}`)
}
