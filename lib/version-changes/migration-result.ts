import { serverError } from '../util/server-error.js'

/** Which kind of value a body is, as a migration's result is checked against it. */
function kindOf (value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  if (value === null) return 'null'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * The body after a migration: what it left in `given.body` where it returned nothing (or `given` itself), else what
 * it returned, which replaces the body. A result of another kind than an object or array body it was given is a
 * mistake, such as `response => response.body.total = 1` (an arrow that returns what it assigns): refused, naming
 * the change and the instruction, never used nor silently ignored.
 */
export function bodyAfter (result: unknown, given: { body: unknown }, before: unknown, where: string, side: 'request' | 'response'): unknown {
  if (result === undefined || result === given) return given.body
  if (typeof before === 'object' && before !== null && kindOf(result) !== kindOf(before)) {
    throw serverError('FST_API_VERSIONING_CONVERSION_FAILED', `fastify-api-versioning: ${where}: its migrate returned ${kindOf(result)}, where the ${side} body it converts is ${kindOf(before)}; return nothing to keep ${side}.body as the migration changed it, or return the new body`)
  }
  return result
}
