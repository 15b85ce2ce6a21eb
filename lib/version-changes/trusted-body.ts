import type { FastifyRequest } from 'fastify'
import { routeContextOf } from '../util/route-context.js'
import { standingFor, type Validate } from '../util/validator.js'

// By route context, once asked: whether its body validators let a trusted body pass. Not a property of the context:
// one added to a context Fastify made changes its hidden class, and every request of the route paid ~350
// instructions more in Fastify's reads of it.
const trustingContexts = new WeakMap<object, boolean>()

// The body the request now being validated was converted to: set by the route's last preValidation hook, from which
// Fastify's validation follows in the same synchronous run, and let go of by the first validator called after.
let trusted: object | null = null

/**
 * Lets Fastify's validation of the request's body, as the newest version's (the route's own schema), pass the body
 * as it is: an older version's, which the plugin validated with that version's schemas and converted up to a body
 * the newest's validation would leave as it is (see Conversion.bodyAsNewest). Validating it again cost as much as
 * the first validation. Called by the route's last preValidation hook, right before it is done. The validators are
 * Fastify's own, kept on the route's context under a symbol of Fastify's, found by its description: where they
 * are not found (another Fastify), the body is validated again, as before. Only an object body is trusted, by
 * identity, so that no other request's body can pass for it.
 */
export function trustBody (request: FastifyRequest, hook: string): void {
  const body = request.body
  if (typeof body !== 'object' || body === null) return
  const context = routeContextOf(request)
  if (context === undefined) return
  let trusts = trustingContexts.get(context)
  if (trusts === undefined) trustingContexts.set(context, trusts = trusting(context, hook))
  if (trusts) trustNext(body)
}

// Makes the route's body validators let a trusted body pass, where the plugin's hook (named `hook`) is the route's
// last preValidation hook: a hook after it might change the body, or let another request run before the validation.
function trusting (context: Record<string | symbol, unknown>, hook: string): boolean {
  const hooks = context.preValidation
  // Fastify binds a route's hooks: `bound <name>`.
  if (!Array.isArray(hooks) || (hooks.at(-1) as { name?: unknown }).name !== `bound ${hook}`) return false
  // The context may be a copy of the route's (see older-context.ts): it holds Fastify's validators as its own, and
  // the wrapper goes on it.
  const key = Object.getOwnPropertySymbols(context).find(own => own.description === 'body-schema')
  const given = key === undefined ? undefined : passingTrusted(context[key])
  if (given === undefined) return false
  context[key as symbol] = given
  return true
}

/**
 * Fastify's body validation of a route context (`given`: its validator, or one by media type for a body schema by
 * media type) made one that lets a trusted body pass (see trustNext); undefined for none.
 */
export function passingTrusted (given: unknown): unknown {
  if (typeof given === 'function') return passing(given as Validate)
  // A body schema by media type (`content`): a validator for each.
  if (typeof given === 'object' && given !== null) return Object.fromEntries(Object.entries(given).map(([type, validate]) => [type, passing(validate as Validate)]))
  return undefined
}

/**
 * Lets the next body validator made by passingTrusted pass `body` (an object: the request's, converted up to one
 * that the newest version's validation leaves as it is) as it is; called right before Fastify's validation of the
 * body, in the same synchronous run.
 */
export function trustNext (body: unknown): void {
  if (typeof body === 'object' && body !== null) trusted = body
}

// A validator that lets the trusted body pass, and is the given one otherwise: its errors read through, and Ajv's
// schemaEnv (by which Fastify tells Ajv the parent of a root value, for coercion), which Ajv sets once, copied.
function passing (validate: Validate): Validate {
  // With what Fastify gives: the data, and Ajv's context where Fastify passes one (not every Fastify 5 does;
  // undefined where none, as a validator's parameter takes it).
  const wrapped = function validateUnlessTrusted (data: unknown, context?: object): unknown {
    // Fastify gives null for no body, which is never trusted.
    const pass = data === trusted && data !== null
    trusted = null
    if (pass) return true
    return validate(data, context)
  }
  return standingFor(wrapped, validate)
}
