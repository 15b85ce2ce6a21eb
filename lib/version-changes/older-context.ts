import type { FastifyInstance, FastifyRequest, onSendHookHandler, preHandlerHookHandler, preValidationHookHandler } from 'fastify'
import { serverError } from '../util/server-error.js'
import { routeContextKey } from '../util/route-context.js'

/** The steps of an older version's request: its preValidation and preHandler steps last, its onSend step first; null for none. */
export interface OlderSteps {
  readonly preValidation: preValidationHookHandler | null
  readonly preHandler: preHandlerHookHandler | null
  readonly onSend: onSendHookHandler | null
}

/**
 * Moves a request onto a copy of its route's context (Fastify's, which it reads at every step of the request) whose
 * preValidation and preHandler hooks end with `steps`, and whose onSend hooks start with its own: a copy a context,
 * made at its first older request (a GET route's HEAD route has a context of its own). Every other property the copy has as the route's context has it
 * when the copy is made: after ready, where Fastify changes none of a context's but its caches, whose objects the copy
 * shares. Where Fastify keeps no context on the request (another Fastify than the plugin knows), the error says so:
 * the request is answered with it rather than served unconverted.
 */
export function olderContexts (steps: OlderSteps): (request: FastifyRequest) => Error | undefined {
  // Made at the first older request: a route that never gets one keeps no map.
  let copies: WeakMap<object, object> | null = null
  // The last context and its copy: a route has one (and its HEAD route one), which a comparison finds for less than a lookup.
  let lastContext: object | null = null
  let lastCopy: object | null = null
  return function enterOlder (request) {
    const key = routeContextKey(request)
    if (key === undefined) return serverError('FST_API_VERSIONING_CONVERSION_FAILED', 'fastify-api-versioning: Fastify keeps no route context on this request, where the plugin moves a request of an older version onto its steps; this Fastify is not one the plugin supports')
    const holder = request as unknown as Record<symbol, object>
    const context = holder[key]
    if (context !== lastContext) {
      copies ??= new WeakMap()
      let copy = copies.get(context)
      if (copy === undefined) copies.set(context, copy = copyOf(context as Record<string, unknown>, steps, request.server))
      lastContext = context
      lastCopy = copy
    }
    holder[key] = lastCopy as object
    return undefined
  }
}

// A copy's context, on the copy.
const kOriginal = Symbol('fastify-api-versioning.originalContext')

/**
 * Moves a request back onto its route's own context, once its steps are behind it: a response the plugin converted
 * from an object reaches onSend as the client's version's, and passes no step of its own there (a hook step of
 * Fastify's costs a few hundred instructions a request).
 */
export function leaveOlder (request: FastifyRequest): void {
  const holder = request as unknown as Record<symbol, Record<symbol, object | undefined>>
  const key = routeContextKey(request) as symbol
  const original = holder[key][kOriginal]
  if (original !== undefined) holder[key] = original as Record<symbol, object | undefined>
}

// Fastify binds a route's hooks to its instance (a hook's `this`, and its name `bound <name>`, which trusted-body.ts
// looks for): the steps are bound alike. The copy holds the context's properties itself, defined at once, and never
// has the context as its prototype: V8 gives an object that becomes a prototype a map (its kind) of its own, so
// each route that had served an older request made one more kind of context, and Fastify's reads of a context's
// properties, on every request of every route, went megamorphic (20 such routes: the newest POST +4,100
// instructions, counted in process; now +800, the copies being one more kind). Copies of contexts with the same
// keys are objects of one kind.
function copyOf (context: Record<string, unknown>, steps: OlderSteps, server: FastifyInstance): object {
  const own = Object.getOwnPropertyDescriptors(context)
  for (const kind of ['preValidation', 'preHandler'] as const) {
    const step = steps[kind]
    if (step === null) continue
    own[kind] = { value: [...(context[kind] as unknown[] | null) ?? [], step.bind(server)], writable: true, enumerable: true, configurable: true }
  }
  // A route whose responses it converts has the plugin's onSend hook (routing/route-changes.ts, kSent): never none.
  if (steps.onSend !== null) own.onSend = { value: [steps.onSend.bind(server), ...context.onSend as unknown[]], writable: true, enumerable: true, configurable: true }
  own[kOriginal as unknown as string] = { value: context, writable: false, enumerable: false, configurable: false }
  return Object.create(Object.getPrototypeOf(context) as object | null, own) as object
}
