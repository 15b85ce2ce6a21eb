import type { FastifyReply, FastifyRequest, onErrorHookHandler, onRequestHookHandler, preHandlerHookHandler, preSerializationHookHandler, preValidationHookHandler } from 'fastify'
import type { ApiVersion } from '../api-version.js'
import type { VersionOutcome } from '../request/outcome.js'
import { kOutcome, type RawRequest } from '../request/request-reader.js'
import type { EnterOlder, SentBody } from '../routing/route-changes.js'
import { leaveOlder, olderContexts } from './older-context.js'
import { sentHook } from '../routing/sent-hook.js'
import { isThenable } from '../util/is-thenable.js'
import type { Conversion } from './conversion.js'
import { convertedBody } from './sent-body.js'
import { trustBody } from './trusted-body.js'
import { validationStep } from './validation-step.js'
import { isVersionSerializer, noBody, type Serialize, type VersionSerializers } from './version-serialization.js'
import { replySerializer } from '../util/reply-serializer.js'
import type { VersionValidation } from './version-validation.js'

/** One shape of a route's older versions: how a request of it is validated and converted, and its response written. */
export interface OlderShape {
  readonly validation: VersionValidation | null
  readonly conversion: Conversion
  readonly serializerOf: VersionSerializers
}

/** The hooks of the route that serves the older versions of a `versionChanges` route (the newest too, in one mode). */
export interface OlderRouteHooks {
  /** The last onRequest hook of a route that serves older versions alone: each of its requests moved (see `enter`). */
  readonly onRequest: onRequestHookHandler | null
  readonly preValidation: preValidationHookHandler | null
  readonly preHandler: preHandlerHookHandler | null
  readonly preSerialization: preSerializationHookHandler<unknown> | null
  readonly onError: onErrorHookHandler | null
  /**
   * What the plugin's onSend hook of the route does first (see routing/route-changes.ts, kSent), for a request
   * answered before it was moved (an app's onRequest hook that answers: @fastify/rate-limit's 429); null for nothing.
   */
  readonly sent: SentBody | null
  /**
   * Moves a request of an older version onto a copy of its route's context whose first onSend hook converts what
   * reaches it unconverted (`sent`), so that every onSend hook, the app's (@fastify/compress, @fastify/etag) and the
   * route's, sees what the client gets; on a route that serves every version (`mode.moves`), with the steps of its
   * requests too, instead of the preValidation and preHandler hooks (see routing/route-changes.ts, kEnterOlder).
   * Null where there is nothing to move a request onto.
   */
  readonly enter: EnterOlder | null
}

/** The shapes of a route's versions, made when first asked (see expandRoute). */
export interface RouteShapesOf {
  /** The shape of the version of `key`; null for a version of the newest shape. */
  shapeOf: (key: string) => OlderShape | null
  /** The newest version's serializer of a reply's status and type, where one writes it. */
  newest: (reply: FastifyReply) => Serialize | null
  /** The newest version's schema of a reply's media type, where its status's schema is by media type; else undefined. */
  newestByMediaType: (reply: FastifyReply) => unknown
}

/** How the route takes requests (see expandRoute). */
export interface OlderRouteMode {
  /** The route's own `attachValidation`: a validation error goes to the handler. */
  readonly attachValidation: boolean
  /** A request of some older version is converted up. */
  readonly converts: boolean
  /**
   * How Fastify validates its requests, by the route's own request schemas (the newest's), on the route that
   * serves the newest version too (`shapes` gives null for it) or the older versions beside it: `'same'` where every
   * older version's requests have the newest's schemas, so Fastify's validation is theirs as well (their conversion
   * up comes after it); `'differ'` where not: an older version's request is validated by its own schemas and
   * converted up before Fastify validates it as the newest's (which it then is: a conversion whose result is not
   * sure is checked against the newest schemas, see recheck.ts). Null: the route serves older versions only, of an
   * endpoint the newest lacks, and Fastify validates none of its requests.
   */
  readonly newest: 'same' | 'differ' | null
  /** The route serves every version, and its onRequest hook moves an older request onto its steps (see `enter`). */
  readonly moves: boolean
  /**
   * Whether its older versions' responses are converted or written otherwise than the newest's. False only where it
   * serves the newest too and every older version responds with the newest's very schemas, unconverted: Fastify's
   * serialization is then theirs, and no response hook is needed.
   */
  readonly responds: boolean
}

/**
 * The hooks of the route that serves the older versions of a `versionChanges` route (by version key, the shape of
 * each; null for a version of the newest shape): each picks the shape of the version the router served the request
 * as. Validation comes after the route's own preValidation hooks, as Fastify's does, and the request's conversion up
 * right after it, before Fastify's validation (of the newest's schema, where it runs) and the route's own preHandler
 * hooks, which were written for the newest version (in mode 'same', Fastify's validation is the older versions' own,
 * and the conversion comes after it, first of the preHandler hooks); a request that fails validation where the route
 * attaches the error is not converted. Its response's conversion down comes after its own preSerialization hooks. An object the route sends (an error handler's too) is converted, then written with the version's schema for
 * its status; what reaches onSend unconverted (an error Fastify's error handler wrote, a text, a Buffer, a stream, no
 * body) is read as JSON where the conversion needs its data or it is such an error, converted, and written with that
 * schema. A version problem the route answers itself (see routing/constraint.ts, kAnswers) passes them all.
 */
export function olderRouteHooks (shapes: RouteShapesOf, mode: OlderRouteMode): OlderRouteHooks {
  const { attachValidation } = mode
  const shapeOf = (outcome: VersionOutcome): OlderShape | null => shapes.shapeOf((outcome.served as ApiVersion).key)

  // The hooks make no closure on a request whose work is synchronous (nearly all): a closure a request cost ~500
  // instructions, where an older version's whole conversion costs a few thousand.
  const preValidation: preValidationHookHandler = function apiVersionValidation (request, reply, done) {
    const outcome = outcomeOf(request)
    // Only a request of an older shape runs it: on the route of the older versions, or moved onto it (see enter).
    const shape = shapeOf(outcome) as OlderShape
    const validate = shape.validation
    const result = validate === null ? false : validate(request)
    if (result === false) return up(shape, request, done, trust)
    if (!isThenable(result)) return invalid(attachValidation, outcome, request, reply, result, done)
    Promise.resolve(result).then(error => error === false ? up(shape, request, done, trust) : invalid(attachValidation, outcome, request, reply, error, done), done)
  }

  // Where Fastify validates the newest's schemas after it: a body it validated and converted to one that validation
  // leaves as it is passes that validation (see trusted-body.ts), which knows the hook by its name.
  const trust = mode.newest === 'differ' ? preValidation.name : null

  // Where Fastify validates the newest schema only, the older versions' requests are converted after it.
  const preHandler: preHandlerHookHandler = function apiVersionRequestChanges (request, reply, done) {
    const shape = shapeOf(outcomeOf(request))
    // A request that failed validation (the route attaches the error) goes to the handler as the client sent it.
    if (shape === null || request.validationError !== undefined) return done()
    up(shape, request, done, null)
  }

  // Where the route attaches validation errors and Fastify validates an older version's request as the newest's
  // too: the handler gets the error of the client's version (or none).
  const validated: preHandlerHookHandler = function apiVersionValidated (request, reply, done) {
    const outcome = outcomeOf(request)
    if (shapeOf(outcome) !== null) request.validationError = (outcome.invalid ?? undefined) as typeof request.validationError
    done()
  }

  const preSerialization: preSerializationHookHandler<unknown> = function apiVersionResponseChanges (request, reply, payload, done) {
    const outcome = outcomeOf(request)
    if (outcome.fallback) return done(null, payload)
    outcome.converted = true
    const shape = shapeOf(outcome)
    if (shape === null) return done(null, payload)
    // Its steps are behind it, and its response reaches onSend converted: none of its own there.
    if (steps !== null) leaveOlder(request)
    const body = shape.conversion.down === null ? payload : shape.conversion.down(reply, payload)
    if (!isThenable(body)) return written(shape, reply, body, done)
    Promise.resolve(body).then(value => written(shape, reply, value, done), done)
  }

  const onError: onErrorHookHandler = function apiVersionError (request, reply, error, done) {
    outcomeOf(request).thrown = error
    // The version's serializer of the reply's status (one its body failed) is no writer of the error handler's
    // answer, which Fastify writes as it writes a new reply (its type, its status's schema); a handler's own stays.
    if (isVersionSerializer(replySerializer(reply))) reply.serializer(null as never)
    done()
  }

  // A response's payload made its version's: as it is, or a promise of it. A body that throws here is refused: the
  // onSend hook that runs this answers with the error.
  function sent (request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const outcome = outcomeOf(request)
    if (outcome.converted || outcome.fallback) return payload
    const shape = shapeOf(outcome)
    if (shape === null) return payload
    let need = shape.conversion.needs(reply.statusCode)
    // A text of another media type than JSON that the status declares a schema of its own for (`content`), one no
    // version changes, is no data to convert (a CSV beside the JSON whose fields changed).
    if (need === 'data' && unchangedMediaType(shape, shapes, reply)) need = 'body'
    let body = payload
    const error = outcome.thrown
    if (error !== null && writtenByFastify(reply, payload)) {
      // As the newest version's route writes the error (its schema for it, or Fastify's format), then converted and
      // written as this version's schema writes it, converted or not.
      const serialize = shapes.newest(reply)
      // Fastify's own format names the status: { statusCode, code, error, message }.
      if (serialize !== null) body = serialize(Object.create(error, { error: { value: (JSON.parse(payload as string) as { error?: unknown }).error }, message: { value: error.message }, statusCode: { value: reply.statusCode } }))
      if (need === 'none' && shape.serializerOf(reply) !== null) need = 'body'
    }
    // A problem document (reply.problem()'s) is converted, then written whole, as the newest version writes it
    // whatever the route's schema for its status: its RFC 9457 members are no field of that schema.
    if (need === 'none') return body
    return convertedBody(reply, body, need === 'data', shape.conversion.down, isProblem(reply) ? problemWriter(body) : shape.serializerOf)
  }

  // Every onSend hook sees the client's version's body (what onSend hooks do, compress or hash it, is for that body):
  // the one a handler or error handler sent as text or a Buffer, Fastify's own error's, is converted first of them.
  const sentFirst = sentHook(function convertedFirst (request, reply, payload) {
    const body = sent(request, reply, payload)
    outcomeOf(request).converted = true
    return body
  }, null)

  // On the route that serves every version, an older request's validation before Fastify's (and, where the route
  // attaches errors, the step that gives the handler the client's) on a context of the route's that only older
  // requests run on (see older-context.ts): the newest's requests pass neither step. Its first onSend step too.
  const responds = mode.responds
  const moved = mode.moves && mode.newest === 'differ'
  const steps = moved || responds ? olderContexts({ preValidation: moved ? preValidation : null, preHandler: moved && attachValidation ? validated : null, onSend: responds ? sentFirst : null }) : null
  // Where it has no step of onSend nor gives the handler validation errors, an older request's validation and
  // conversion are its first validator's, where they can be (see validation-step.ts): no step, no copy.
  const inValidation = moved && !responds && !attachValidation ? validationStep(request => shapeOf(outcomeOf(request))) : null
  const enter: EnterOlder | null = steps === null
    ? null
    : (request, outcome) => {
        const shape = shapeOf(outcome)
        if (shape === null) return null
        return inValidation !== null && inValidation(request, shape) ? undefined : steps(request)
      }

  const onRequest: onRequestHookHandler | null = mode.moves || enter === null
    ? null
    : function apiVersionOlder (request, reply, done) { done(enter(request, outcomeOf(request)) as Error | undefined) }

  return {
    enter,
    onRequest,
    preValidation: mode.newest === 'same' || moved ? null : preValidation,
    preHandler: moved ? null : mode.newest === 'differ' ? attachValidation ? validated : null : mode.newest === 'same' && mode.converts ? preHandler : null,
    preSerialization: responds ? preSerialization : null,
    onError: responds ? onError : null,
    sent: responds ? sent : null
  }
}

function unchangedMediaType (shape: OlderShape, shapes: RouteShapesOf, reply: FastifyReply): boolean {
  const schema = shape.serializerOf.byMediaType(reply)
  return schema !== undefined && schema === shapes.newestByMediaType(reply) && !/json/i.test(String(reply.getHeader('content-type')))
}

// RFC 9457's members of a problem document, which a conversion by the route's schema for its status would drop.
const PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'instance']

/**
 * How a problem document (reply.problem()'s text) is written once converted: whole, as the newest version writes
 * it whatever the route's schema for its status, with its own members as it had them and its status the
 * response's (a migration may have changed it), the schema's fields converted beside them.
 */
function problemWriter (payload: unknown): (reply: FastifyReply) => Serialize {
  const given = JSON.parse(String(payload)) as Record<string, unknown>
  const members = Object.fromEntries(PROBLEM_MEMBERS.filter(key => Object.hasOwn(given, key)).map(key => [key, given[key]]))
  return reply => value => JSON.stringify({ ...members, ...value as object, status: reply.statusCode })
}

function isProblem (reply: FastifyReply): boolean {
  return /^application\/problem\+json/i.test(String(reply.getHeader('content-type')))
}

// The version the router served the request as: one of this route's (a hook may give request.apiVersion another).
function outcomeOf (request: FastifyRequest): VersionOutcome {
  return (request.raw as RawRequest)[kOutcome] as VersionOutcome
}

// The request converted up, if its version's are; its body trusted where Fastify's validation as the newest's
// follows (`trust`: the name of the hook that converts it) and would leave it as it is.
function up (shape: OlderShape, request: FastifyRequest, done: (error?: Error) => void, trust: string | null): void {
  const { up: convert, bodyAsNewest } = shape.conversion
  const result = convert === null ? undefined : convert(request)
  const trusted = bodyAsNewest ? trust : null
  if (isThenable(result)) Promise.resolve(result).then(() => converted(request, done, trusted), done)
  else converted(request, done, trusted)
}

function converted (request: FastifyRequest, done: (error?: Error) => void, trust: string | null): void {
  if (trust !== null) trustBody(request, trust)
  done()
}

// As Fastify: answered by the error handler, or given to the handler to answer, the request as the client sent it
// (converting what does not fit its version may fail as a server error).
function invalid (attachValidation: boolean, outcome: VersionOutcome, request: FastifyRequest, reply: FastifyReply, error: Error, done: () => void): void {
  if (!attachValidation) {
    reply.send(error)
    return
  }
  request.validationError = error as typeof request.validationError
  outcome.invalid = error
  done()
}

// A body converted down (or not), written with the version's schema for the reply's status, unless the handler or a
// hook gave the reply a serializer of its own (an envelope), which writes it as it writes the newest's.
function written (shape: OlderShape, reply: FastifyReply, body: unknown, done: (error: Error | null, body: unknown) => void): void {
  // A migration that left no body (`response.body = undefined`) answers with none: Fastify would keep the
  // handler's for a hook's undefined.
  if (body === undefined) {
    reply.serializer(noBody)
    return done(null, null)
  }
  const serialize = replySerializer(reply) !== null ? null : shape.serializerOf(reply)
  if (serialize !== null) reply.serializer(serialize)
  done(null, body)
}

// Fastify's error handler writes an error it is given itself (no hook sees the object), with its length: a body a
// handler of the app's sent has none yet.
function writtenByFastify (reply: FastifyReply, payload: unknown): boolean {
  return typeof payload === 'string' && reply.getHeader('content-length') === String(Buffer.byteLength(payload))
}
