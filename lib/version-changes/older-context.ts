import type { FastifyInstance, FastifyRequest, preHandlerHookHandler, preValidationHookHandler } from 'fastify'
import { serverError } from '../util/server-error.js'
import { routeContextKey } from '../util/route-context.js'

/** The steps of an older version's request on the route that serves every version: null for none. */
export interface OlderSteps {
  readonly preValidation: preValidationHookHandler | null
  readonly preHandler: preHandlerHookHandler | null
}

/**
 * Moves a request onto a copy of its route's context (Fastify's, which it reads at every step of the request) whose
 * preValidation and preHandler hooks end with `steps`: a copy a context, made at its first older request (a GET
 * route's HEAD route has a context of its own). Everything else the copy reads from the route's context. Where
 * Fastify keeps no context on the request (another Fastify than the plugin knows), the error says so: the request
 * is answered with it rather than served unconverted.
 */
export function olderContexts (steps: OlderSteps): (request: FastifyRequest) => Error | undefined {
  // Made at the first older request: a route that never gets one keeps no map.
  let copies: WeakMap<object, object> | null = null
  return function enterOlder (request) {
    const key = routeContextKey(request)
    if (key === undefined) return serverError('FST_API_VERSIONING_CONVERSION_FAILED', 'fastify-api-versioning: Fastify keeps no route context on this request, where the plugin moves a request of an older version onto its steps; this Fastify is not one the plugin supports')
    const holder = request as unknown as Record<symbol, object>
    const context = holder[key]
    copies ??= new WeakMap()
    let copy = copies.get(context)
    if (copy === undefined) copies.set(context, copy = copyOf(context as Record<string, unknown>, steps, request.server))
    holder[key] = copy
    return undefined
  }
}

// Fastify binds a route's hooks to its instance (a hook's `this`, and its name `bound <name>`, which trusted-body.ts
// looks for): the steps are bound alike.
function copyOf (context: Record<string, unknown>, steps: OlderSteps, server: FastifyInstance): object {
  const own: PropertyDescriptorMap = {}
  for (const kind of ['preValidation', 'preHandler'] as const) {
    const step = steps[kind]
    if (step === null) continue
    own[kind] = { value: [...(context[kind] as unknown[] | null) ?? [], step.bind(server)], writable: true, enumerable: true, configurable: true }
  }
  return Object.create(context, own) as object
}
