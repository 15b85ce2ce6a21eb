import type { FastifyReply, FastifyRequest, onErrorHookHandler, onSendHookHandler, preHandlerHookHandler, preSerializationHookHandler, preValidationHookHandler } from 'fastify'
import type { ApiVersion } from '../api-version.js'
import type { VersionOutcome } from '../request/outcome.js'
import { kOutcome, type RawRequest } from '../request/request-reader.js'
import { isThenable } from '../util/is-thenable.js'
import type { Conversion } from './conversion.js'
import { convertedBody } from './sent-body.js'
import type { Serialize, VersionSerializers } from './version-serialization.js'
import type { VersionValidation } from './version-validation.js'

/** One shape of a route's older versions: how a request of it is validated and converted, and its response written. */
export interface OlderShape {
  readonly validation: VersionValidation | null
  readonly conversion: Conversion
  readonly serializerOf: VersionSerializers
}

/** The hooks of the route that serves every older version of a `versionChanges` route. */
export interface OlderRouteHooks {
  readonly preValidation: preValidationHookHandler
  readonly preHandler: preHandlerHookHandler | null
  readonly preSerialization: preSerializationHookHandler<unknown>
  readonly onError: onErrorHookHandler
  readonly onSend: onSendHookHandler<unknown>
}

/**
 * The hooks of the one route that serves all the older versions of a `versionChanges` route (by version key, the
 * shape of each; `converts`: a request of some version is converted up): each picks the shape of the version the router served the request as. Validation comes after the route's
 * own preValidation hooks, as Fastify's does; the request's conversion up before its own preHandler hooks, its
 * response's down after its own preSerialization hooks (both were written for the newest version). An object the
 * route sends (an error handler's too) is converted, then written with the version's schema for its status; what
 * reaches onSend unconverted (an error Fastify's error handler wrote, a text, a Buffer, a stream, no body) is read
 * as JSON where the conversion needs its data or it is such an error, converted, and written with that schema.
 */
export function olderRouteHooks (shapes: (key: string) => OlderShape, newest: (reply: FastifyReply) => Serialize | null, attachValidation: boolean, converts: boolean): OlderRouteHooks {
  // The version the router served the request as: one of this route's (a hook may give request.apiVersion another).
  const outcomeOf = (request: FastifyRequest): VersionOutcome => (request.raw as RawRequest)[kOutcome] as VersionOutcome
  const shapeOf = (outcome: VersionOutcome): OlderShape => shapes((outcome.served as ApiVersion).key)
  // As Fastify: answered by the error handler, or given to the handler to answer.
  const invalid = (request: FastifyRequest, reply: FastifyReply, error: Error, done: () => void): void => {
    if (!attachValidation) {
      reply.send(error)
      return
    }
    request.validationError = error as typeof request.validationError
    done()
  }
  // A body converted down (or not), written with the version's schema for the reply's status.
  const written = (shape: OlderShape, reply: FastifyReply, body: unknown, done: (error: Error | null, body: unknown) => void): void => {
    const serialize = shape.serializerOf(reply)
    if (serialize !== null) reply.serializer(serialize)
    done(null, body)
  }

  // The hooks make no closure on a request whose work is synchronous (nearly all): a closure a request cost ~500
  // instructions, where an older version's whole conversion costs a few thousand.
  const preValidation: preValidationHookHandler = function apiVersionValidation (request, reply, done) {
    const validate = shapeOf(outcomeOf(request)).validation
    const result = validate === null ? false : validate(request)
    if (result === false) return done()
    if (!isThenable(result)) return invalid(request, reply, result, done)
    Promise.resolve(result).then(error => error === false ? done() : invalid(request, reply, error, done), done)
  }

  const preHandler: preHandlerHookHandler = function apiVersionRequestChanges (request, reply, done) {
    const up = shapeOf(outcomeOf(request)).conversion.up
    const result = up === null ? undefined : up(request)
    if (isThenable(result)) Promise.resolve(result).then(() => done(), done)
    else done()
  }

  const preSerialization: preSerializationHookHandler<unknown> = function apiVersionResponseChanges (request, reply, payload, done) {
    const outcome = outcomeOf(request)
    outcome.converted = true
    const shape = shapeOf(outcome)
    const body = shape.conversion.down === null ? payload : shape.conversion.down(reply, payload)
    if (!isThenable(body)) return written(shape, reply, body, done)
    Promise.resolve(body).then(value => written(shape, reply, value, done), done)
  }

  const onError: onErrorHookHandler = function apiVersionError (request, reply, error, done) {
    outcomeOf(request).thrown = error
    done()
  }

  const onSend: onSendHookHandler<unknown> = function apiVersionSentChanges (request, reply, payload, done) {
    const outcome = outcomeOf(request)
    if (outcome.converted) return done(null, payload)
    const shape = shapeOf(outcome)
    let need = shape.conversion.needs(reply.statusCode)
    let body = payload
    let sent: unknown
    try {
      const error = outcome.thrown
      if (error !== null && writtenByFastify(reply, payload)) {
        // As the newest version's route writes the error (its schema for it, or Fastify's format), then converted and
        // written as this version's schema writes it, converted or not.
        const serialize = newest(reply)
        // Fastify's own format names the status: { statusCode, code, error, message }.
        if (serialize !== null) body = serialize(Object.create(error, { error: { value: (JSON.parse(payload as string) as { error?: unknown }).error }, message: { value: error.message }, statusCode: { value: reply.statusCode } }))
        if (need === 'none' && shape.serializerOf(reply) !== null) need = 'body'
      }
      if (need === 'none') return done(null, body)
      sent = convertedBody(reply, body, need === 'data', shape.conversion.down, shape.serializerOf)
    } catch (error) {
      return done(error as Error)
    }
    if (isThenable(sent)) Promise.resolve(sent).then(value => done(null, value), done)
    else done(null, sent)
  }

  return { preValidation, preHandler: converts ? preHandler : null, preSerialization, onError, onSend }
}

// Fastify's error handler writes an error it is given itself (no hook sees the object), with its length: a body a
// handler of the app's sent has none yet.
function writtenByFastify (reply: FastifyReply, payload: unknown): boolean {
  return typeof payload === 'string' && reply.getHeader('content-length') === String(Buffer.byteLength(payload))
}
