import type { FastifyRequest } from 'fastify'
import type { VersionOutcome } from '../request/outcome.js'
import { kOutcome, type RawRequest } from '../request/request-reader.js'

/** The hooks of a route that a version problem it answers itself must not run (the hidden route has none of them). */
export const AFTER_ANSWER = ['preSerialization', 'onSend', 'onError', 'onResponse', 'onTimeout', 'onRequestAbort'] as const

type Hook = (this: unknown, request: FastifyRequest, ...rest: unknown[]) => unknown

/**
 * A route's own hooks of one kind (as route options give them), each run for the requests the route serves only:
 * a `versionChanges` route that answers its own version problems (see routing/constraint.ts, kAnswers) answers
 * them as its hidden route would, with none of the route's hooks after its onRequest ones. The hooks after the
 * answer end with `done`, after the payload where they pass one on.
 */
export function servedOnly (kind: typeof AFTER_ANSWER[number], hooks: unknown): unknown {
  const payload = kind === 'preSerialization' || kind === 'onSend'
  const wrap = (hook: Hook): Hook => function apiVersionServedOnly (this: unknown, request, ...rest) {
    if (((request.raw as RawRequest)[kOutcome] as VersionOutcome).fallback) {
      const done = rest[rest.length - 1] as (error: null, payload?: unknown) => void
      return payload ? done(null, rest[1]) : done(null)
    }
    return hook.call(this, request, ...rest)
  }
  // What Fastify refuses at start-up stays as given, so that it does: no function, or an async function that also
  // takes `done`.
  const doneAt = kind === 'onResponse' || kind === 'onTimeout' ? 3 : 4
  const refused = (hook: unknown): boolean => typeof hook !== 'function' ||
    (hook.constructor.name === 'AsyncFunction' && (kind === 'onRequestAbort' ? hook.length !== 1 : hook.length === doneAt))
  const wrapped = (hook: unknown): unknown => refused(hook) ? hook : wrap(hook as Hook)
  return Array.isArray(hooks) ? hooks.map(wrapped) : wrapped(hooks)
}
