import type { FastifyReply } from 'fastify'
import { serverError } from '../util/server-error.js'
import { isObject } from '../util/is-object.js'
import { isThenable } from '../util/is-thenable.js'
import { isOpaqueBody } from '../util/opaque-body.js'
import type { Serialize } from './version-serialization.js'

/**
 * A body on its way out (what onSend hooks get), converted: a text or Buffer is read as JSON where the conversion
 * needs its data (renames, schema migrations) or its type says JSON (route migrations then get the object); else,
 * and for a stream or an empty body, the body as it is goes to the route's migrations. What was read as JSON is
 * written again with the version's schema for the status the conversion ends with. A body whose data the
 * conversion needs but that has none to give (a stream, a text that is no JSON) is refused, never sent unconverted.
 */
export function convertedBody (reply: FastifyReply, payload: unknown, data: boolean, convert: ((reply: FastifyReply, body: unknown) => unknown) | null, serializerOf: (reply: FastifyReply) => Serialize | null): unknown {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null
  const json = text !== null && (data || /json/i.test(String(reply.getHeader('content-type'))))
  let body = payload
  if (json) {
    try {
      body = JSON.parse(text)
    } catch {
      throw refused(reply, 'a text that is no JSON')
    }
  } else if (data) {
    throw refused(reply, isObject(payload) ? 'a stream' : 'no body')
  }
  const converted = convert === null ? body : convert(reply, body)
  return isThenable(converted) ? Promise.resolve(converted).then(value => written(reply, value, json, serializerOf)) : written(reply, converted, json, serializerOf)
}

function refused (reply: FastifyReply, what: string): Error {
  return serverError('FST_API_VERSIONING_CONVERSION_FAILED', `fastify-api-versioning: the response (status ${reply.statusCode}) of ${reply.request.method} ${reply.request.routeOptions.url} for version ${String(reply.request.apiVersion)} is ${what}, but its schema changes in that version, so its data must be converted: send the value (an object), not ${what === 'no body' ? 'an empty body' : what}`)
}

// What a conversion gave, as a payload: a body that is no JSON value (a text, Buffer or stream a migration gave) as
// it is; else JSON, written with the version's schema for the status.
function written (reply: FastifyReply, body: unknown, json: boolean, serializerOf: (reply: FastifyReply) => Serialize | null): unknown {
  // None left (a migration's `response.body = undefined`): an empty body, as Fastify keeps the payload it had for
  // an onSend hook's undefined.
  if (body === undefined) return ''
  if (typeof body === 'string' || isOpaqueBody(body) || (!json && body === null)) return body
  let text: string
  try {
    const serialize = serializerOf(reply)
    text = serialize === null ? JSON.stringify(body) : serialize(body)
  } catch (error) {
    throw serverError('FST_API_VERSIONING_CONVERSION_FAILED', `fastify-api-versioning: the response (status ${reply.statusCode}) of ${reply.request.method} ${reply.request.routeOptions.url}, converted for version ${String(reply.request.apiVersion)}, cannot be written with that version's schema for it`, error)
  }
  if (reply.getHeader('content-type') === undefined) reply.header('content-type', 'application/json; charset=utf-8')
  return text
}
