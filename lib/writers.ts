import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ProblemDocument } from './problems.js'
import { serializeProblem } from './problem-schema.js'

const PROBLEM_JSON = 'application/problem+json; charset=utf-8'

export interface ProblemWriterContext {
  /** The problem to write. Version problems carry `type`, `title`, `status`, `detail` and `code`. */
  readonly problem: ProblemDocument
  readonly request: FastifyRequest
  readonly reply: FastifyReply
}

/**
 * Writes problems it accepts. `write` must send the reply, now or before the promise it returns settles; what
 * it returns is otherwise ignored (nothing, a promise or the reply are all fine).
 */
export interface ProblemWriter {
  /** Names the writer in logs; default: its place, e.g. `problemWriters[0]`. */
  readonly name?: string
  canWrite (context: ProblemWriterContext): boolean
  write (context: ProblemWriterContext): unknown
}

// The plugin's own writers always send at once, so they are called without the safety net below.
const trusted = new WeakSet<ProblemWriter>()

/** Marks one of the plugin's own writers: it sends synchronously and never throws. */
export function trustWriter<T extends ProblemWriter> (writer: T): T {
  trusted.add(writer)
  return writer
}

/** The default writer: `application/problem+json`, serialized through ProblemDetailsSchema. */
export const problemDetailsWriter: ProblemWriter = trustWriter({
  name: 'problemDetails',
  canWrite: () => true,
  write ({ problem, reply }) {
    // Serialized first, so that a member that cannot be serialized leaves the status alone: it is a 500.
    const body = serializeProblem(problem)
    reply.code(problem.status).type(PROBLEM_JSON).send(body)
  }
})

/**
 * Hands the problem to the first writer whose `canWrite` accepts it. A writer of the app that throws, rejects, or
 * ends without sending is a server bug: logged with its name, answered 500 through the app's error handler.
 */
export function writeProblem (writers: readonly ProblemWriter[], names: readonly string[], context: ProblemWriterContext): void {
  let index = 0
  try {
    while (!writers[index].canWrite(context)) index++
    if (trusted.has(writers[index])) {
      writers[index].write(context)
      return
    }
  } catch (error) {
    return failed(context.reply, names[index], error)
  }
  watched(writers[index], names[index], context)
}

/**
 * Runs a writer of the app on a stand-in of the reply that notes whether `send` was called: `reply.sent` stays
 * false while async onSend hooks run, and the reply itself is not touched (a property set on it would slow every
 * later request down).
 */
function watched (writer: ProblemWriter, name: string, context: ProblemWriterContext): void {
  const reply = context.reply
  let sending = false
  const send = (payload?: unknown): FastifyReply => {
    sending = true
    return reply.send(payload)
  }
  const standIn = new Proxy(reply, { get: (target, key) => key === 'send' ? send : Reflect.get(target, key, target) })
  const fail = (error: unknown): void => failed(reply, name, error, !sending)
  const check = (): void => {
    if (!sending && !reply.sent) failed(reply, name, new Error(`fastify-api-versioning: ${name} neither sent the reply nor returned a promise that does`))
  }
  try {
    const written = writer.write({ ...context, reply: standIn })
    // The reply is thenable (it resolves once the response ends): never wait on it.
    if (written !== standIn && written !== reply && typeof (written as PromiseLike<unknown> | null)?.then === 'function') {
      Promise.resolve(written).then(check, fail)
    } else {
      check()
    }
  } catch (error) {
    fail(error)
  }
}

// Logged always; answered 500 unless a response is already on its way.
function failed (reply: FastifyReply, name: string, thrown: unknown, answer = true): void {
  const error = thrown instanceof Error ? thrown : new Error(String(thrown))
  reply.log.error({ err: error }, `fastify-api-versioning: ${name} failed to write a problem`)
  if (answer && !reply.sent) reply.code(500).send(error)
}

/** Checks what `reply.problem()` was given; the message says what is wrong, or null. */
export function problemError (problem: unknown): string | null {
  if (typeof problem !== 'object' || problem === null || Array.isArray(problem)) return 'reply.problem() needs a problem object'
  const status = (problem as ProblemDocument).status
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    return `reply.problem() needs a problem whose status is an integer from 400 to 599 (got ${typeof status === 'bigint' ? String(status) + 'n' : JSON.stringify(status) ?? String(status)})`
  }
  return null
}
