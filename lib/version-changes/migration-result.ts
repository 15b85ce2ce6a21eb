import { serverError } from '../util/server-error.js'

// Objects JSON writes as no object of their properties (a Map as `{}`, a Date as a text): never an object body.
const NOT_OBJECT_BODIES = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Date', 'RegExp'])

/** Which kind of value a body is, as a migration's result is checked against it. */
function kindOf (value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  if (value === null) return 'null'
  if (typeof value !== 'object') return `a ${typeof value}`
  return isNoObjectBody(value) ? `a ${tagOf(value)}` : 'an object'
}

// Whether a body is one of NOT_OBJECT_BODIES (a Map, a Date).
function isNoObjectBody (value: unknown): value is object {
  return typeof value === 'object' && value !== null && NOT_OBJECT_BODIES.has(tagOf(value))
}

// An object's built-in kind (`Map`; `Object` for a plain or class object).
function tagOf (value: object): string {
  return Object.prototype.toString.call(value).slice(8, -1)
}

/**
 * The body after a migration: what it left in `given.body` where it returned nothing, `given` itself or that very
 * body (`response => response.body = response.body.items`, an arrow that returns what it assigns), else what it
 * returned, which replaces the body. A returned value of another kind than an object or array body it was given is
 * a mistake, such as `response => response.body.total = 1`: refused, naming the change and the instruction, never
 * used nor silently ignored; so is a body, left or returned, that JSON cannot write (a symbol, a function, a bigint),
 * and a Map, Set or Date left where an object body was.
 */
export function bodyAfter (result: unknown, given: { body: unknown }, before: unknown, where: string, side: 'request' | 'response'): unknown {
  const kept = result === undefined || result === given || result === given.body
  const body = kept ? given.body : result
  const type = typeof body
  if (type === 'symbol' || type === 'function' || type === 'bigint') {
    throw serverError('FST_API_VERSIONING_CONVERSION_FAILED', `fastify-api-versioning: ${where}: its migrate ${kept ? 'left' : 'returned'} a ${type} as ${side}.body, which JSON cannot write`)
  }
  // An object body replaced by another kind is a mistake where it is returned; left in the body, only where it is
  // no JSON at all (a Map, a Set: written as {}), as a body may change from an object to an array or a text.
  const changed = typeof before === 'object' && before !== null && kindOf(body) !== kindOf(before)
  if (changed && (!kept || isNoObjectBody(body))) {
    if (kept) throw serverError('FST_API_VERSIONING_CONVERSION_FAILED', `fastify-api-versioning: ${where}: its migrate left ${kindOf(body)} as ${side}.body, where the body it converts is ${kindOf(before)}: JSON writes no object of its entries; leave a plain object, an array or a text there`)
    throw serverError('FST_API_VERSIONING_CONVERSION_FAILED', `fastify-api-versioning: ${where}: its migrate returned ${kindOf(body)}, where the ${side} body it converts is ${kindOf(before)}; return nothing to keep ${side}.body as the migration changed it, or return the new body`)
  }
  return body
}
