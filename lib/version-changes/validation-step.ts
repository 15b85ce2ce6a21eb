import type { FastifyRequest } from 'fastify'
import { isObject } from '../util/is-object.js'
import { isThenable } from '../util/is-thenable.js'
import { requestPart } from '../util/request-part.js'
import { routeContextOf } from '../util/route-context.js'
import { standingFor, type Validate } from '../util/validator.js'
import type { Conversion } from './conversion.js'
import { passingTrusted, trustNext } from './trusted-body.js'
import type { VersionValidation } from './version-validation.js'

type Part = 'params' | 'body' | 'query' | 'headers'

/** What the step needs of an older version's shape: its validation, and its conversion up. */
export interface ValidatedShape {
  readonly validation: VersionValidation | null
  readonly conversion: Pick<Conversion, 'up' | 'renamesOnly' | 'bodyAsNewest'>
}

// Fastify's validators on a route context, in the order it runs them: the description of each one's symbol, and
// the part of the request it validates.
const PARTS = [['params-schema', 'params'], ['body-schema', 'body'], ['querystring-schema', 'query'], ['headers-schema', 'headers']] as const

/**
 * The step of an older version's request on a route that serves every version (its shape's validation, then its
 * conversion up, see older-route.ts) run first of Fastify's validation of the route, by the route's first
 * validator, which a context is given at its first such request and which is the route's own for every other
 * request (`shapeOf`: a request's shape, null for the newest's). It costs no hook step (~700 instructions a
 * request) and no copy of the context (see older-context.ts), whose second kind of context made Fastify's reads of
 * every context dearer once older requests had been served. Only for a shape whose conversion renames and drops
 * fields alone (a migration is the app's code, whose errors Fastify's validation would answer as 400s or 500s where
 * the app answers them as thrown; a check of what it left may wait for an async validator), on a route that does
 * not attach validation errors (a failed conversion would reach the handler as one), and where the route's first
 * validator is one function (one by media type passes a request of another media type by), on a Fastify that gives
 * a validator the request it validates (see passesRequest). Returns whether the request takes its step so; where
 * not, it takes the steps of a copy of the context.
 */
export function validationStep (shapeOf: (request: FastifyRequest) => ValidatedShape | null): (request: FastifyRequest, shape: ValidatedShape) => boolean {
  const contexts = new WeakMap<object, boolean>()
  // The last context given the step: a route has one (and its HEAD route one), which a comparison finds for less than a lookup.
  let last: object | null = null
  // Whether its Fastify gives a validator the request, found at its first older request.
  let passes: boolean | null = null
  return function inValidation (request, shape) {
    if (!shape.conversion.renamesOnly || !(passes ??= passesRequest(request.server.version))) return false
    const context = routeContextOf(request)
    if (context === undefined) return false
    if (context === last) return true
    let given = contexts.get(context)
    if (given === undefined) contexts.set(context, given = install(context, shapeOf))
    if (given) last = context
    return given
  }
}

// Gives a context's first validator the step; a body validated after it lets a body converted to one the newest's
// validation leaves as it is pass (see trusted-body.ts). False where the first is none, or one by media type.
function install (context: Record<symbol, unknown>, shapeOf: (request: FastifyRequest) => ValidatedShape | null): boolean {
  const symbols = Object.getOwnPropertySymbols(context)
  const present = PARTS.flatMap(([description, part]) => {
    const key = symbols.find(symbol => symbol.description === description)
    return key === undefined || context[key] === undefined ? [] : [[key, part] as const]
  })
  if (present.length === 0 || typeof context[present[0][0]] !== 'function') return false
  const [key, part] = present[0]
  context[key] = first(context[key] as Validate, part, shapeOf)
  const body = present.find(([, other]) => other === 'body' && part !== 'body')
  if (body !== undefined) context[body[0]] = passingTrusted(context[body[0]])
  return true
}

// The route's first validator (`newest`, of `part`), run after an older request's own validation and conversion.
function first (newest: Validate, part: Part, shapeOf: (request: FastifyRequest) => ValidatedShape | null): Validate {
  const validateOlderFirst = function validateOlderFirst (data: unknown, context?: { parentData?: unknown }): unknown {
    // Fastify gives the request as the parent of the part; an app's call (request.validateInput) gives none.
    const request = context?.parentData as FastifyRequest | undefined
    const shape = request === undefined ? null : shapeOf(request)
    if (shape === null || !shape.conversion.renamesOnly) return validateWith(newest, data, context)
    const given = request as FastifyRequest
    // A shape of its older versions has request schemas: the route's, whose first validator this is, changed.
    const invalid = (shape.validation as VersionValidation)(given)
    if (invalid === false) return converted(given, shape, newest, part, context)
    // Taken as Fastify takes a validator's `{ error }`, or a promise's rejection: the error, as it is.
    if (!isThenable(invalid)) return { error: invalid }
    return Promise.resolve(invalid).then(error => {
      if (error !== false) throw error
      let result: unknown
      try {
        result = converted(given, shape, newest, part, context)
      } catch (thrown) {
        // As Fastify answers a validator that throws: a server error (a rejection it would answer as a 400).
        throw Object.assign(thrown as Error, { statusCode: 500 })
      }
      return settled(result, newest, given, part)
    })
  }
  // Fastify gives the request (the parent of the part) only to a validator with a schemaEnv: one it always has.
  return standingFor(validateOlderFirst, newest, newest.schemaEnv ?? true)
}

// The request converted up (renames and drops, synchronous), then its part validated by the route's own validator,
// as Fastify would have.
function converted (request: FastifyRequest, shape: ValidatedShape, newest: Validate, part: Part, context: object | undefined): unknown {
  const { up, bodyAsNewest } = shape.conversion
  // Synchronous: it renames and drops alone.
  if (up !== null) up(request) as undefined
  return asNewest(request, bodyAsNewest, newest, part, context)
}

function asNewest (request: FastifyRequest, bodyAsNewest: boolean, newest: Validate, part: Part, context: object | undefined): unknown {
  // A body the newest's validation would leave as it is: passed, here or by the body's validator after this one.
  if (bodyAsNewest) {
    if (part === 'body') return true
    trustNext(request.body)
  }
  const value = requestPart(request, part)
  return validateWith(newest, value === undefined ? null : value, context)
}

// As Fastify calls a validator: with Ajv's context where it has a schemaEnv.
function validateWith (validate: Validate, data: unknown, context: object | undefined): unknown {
  return validate.schemaEnv === undefined ? validate(data) : validate(data, context)
}

// A validator's result, inside a promise, which Fastify reads as pass or fail only: false with its errors thrown (read
// now: a later read may find another request's), or true with its `{ value }` taken, or its `{ error }` thrown.
function settled (result: unknown, newest: Validate, request: FastifyRequest, part: Part): unknown {
  if (isThenable(result)) return result
  if (result === false) throw newest.errors
  if (isObject(result) && result.error != null) throw result.error
  if (isObject(result) && 'value' in result) (request as unknown as Record<string, unknown>)[part] = result.value
  return true
}

/**
 * Whether a Fastify of this version gives a validator with a schemaEnv the request it validates (as Ajv's parent of
 * the part: from 5.12.1 on). An earlier one gives the part alone, by which an older request is not told from another.
 */
export function passesRequest (version: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number)
  return major > 5 || (major === 5 && (minor > 12 || (minor === 12 && patch >= 1)))
}
