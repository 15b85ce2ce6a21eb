import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify'
import { isThenable } from '../util/is-thenable.js'
import type { SentBody } from './route-changes.js'

/**
 * An onSend hook of a route made by the versionChanges option: its response made its version's (`sent`, see
 * route-changes.ts, kSent), then the work of another hook of the plugin's (`next`, the version headers; null for
 * none). One hook: each more is a step of Fastify's onSend runner on every request of the route. What `sent` throws
 * or rejects with answers the request.
 */
export function sentHook (sent: SentBody, next: onSendHookHandler | null): onSendHookHandler {
  return function apiVersionSent (request, reply, payload, done) {
    let body: unknown
    try {
      body = sent(request, reply, payload)
    } catch (error) {
      return failed(reply, error, done)
    }
    if (isThenable(body)) Promise.resolve(body).then(value => afterSent(this, next, request, reply, value, done), error => failed(reply, error, done))
    else afterSent(this, next, request, reply, body, done)
  }
}

// The reply is answered with the error instead (Fastify's error handler): an encoding an app's onSend hook gave the
// body (@fastify/compress, before this hook) is no longer the answer's, which Fastify writes as it is.
function failed (reply: FastifyReply, error: unknown, done: Parameters<onSendHookHandler>[3]): void {
  reply.removeHeader('content-encoding')
  done(error as Error)
}

function afterSent (app: FastifyInstance, next: onSendHookHandler | null, request: FastifyRequest, reply: FastifyReply, payload: unknown, done: Parameters<onSendHookHandler>[3]): void {
  if (next === null) done(null, payload)
  else next.call(app, request, reply, payload, done)
}
