import type { VersionOutcome } from '../request/outcome.js'
import { kOutcome, type RawRequest } from '../request/request-reader.js'

/** The hooks of a route that a version problem it answers itself must not run (the hidden route has none of them). */
export const AFTER_ANSWER = ['preSerialization', 'onSend', 'onError', 'onResponse', 'onTimeout', 'onRequestAbort'] as const

export type AfterAnswer = typeof AFTER_ANSWER[number]

type Hook = (this: unknown, ...args: unknown[]) => unknown

/**
 * A route's hooks of one kind (as route options give them), each run for one kind of request alone: a
 * `versionChanges` route that answers its own version problems (see constraint.ts, kAnswers) answers them as its
 * hidden route would, so its own hooks after its onRequest ones run for the requests it serves (`served`), and a
 * hook of the hidden route's for the problems (not `served`). A hook that does not run ends with `done`, after the
 * payload where it passes one on.
 */
export function onlyFor (served: boolean, kind: AfterAnswer, hooks: unknown): unknown {
  const payload = kind === 'preSerialization' || kind === 'onSend'
  // By `arguments`, whatever the kind's parameters: a rest parameter would make an array on every request.
  const wrap = (hook: Hook): Hook => function apiVersionOnlyFor (this: unknown) {
    const args = arguments as unknown as unknown[]
    if (((args[0] as { raw: RawRequest }).raw[kOutcome] as VersionOutcome).fallback === served) {
      const done = args[args.length - 1] as (error: null, payload?: unknown) => void
      return payload ? done(null, args[2]) : done(null)
    }
    return hook.apply(this, args)
  }
  // What Fastify refuses at start-up stays as given, so that it does: no function, or an async function that also
  // takes `done`.
  const doneAt = kind === 'onResponse' || kind === 'onTimeout' ? 3 : 4
  const refused = (hook: unknown): boolean => typeof hook !== 'function' ||
    (hook.constructor.name === 'AsyncFunction' && (kind === 'onRequestAbort' ? hook.length !== 1 : hook.length === doneAt))
  const wrapped = (hook: unknown): unknown => refused(hook) ? hook : wrap(hook as Hook)
  return Array.isArray(hooks) ? hooks.map(wrapped) : wrapped(hooks)
}
