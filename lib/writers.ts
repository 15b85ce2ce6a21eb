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

/** The default writer: `application/problem+json`, serialized through ProblemDetailsSchema. */
export const problemDetailsWriter: ProblemWriter = {
  name: 'problemDetails',
  canWrite: () => true,
  write ({ problem, reply }) {
    // Serialized first, so that a member that cannot be serialized leaves the status alone: it is a 500.
    const body = serializeProblem(problem)
    reply.code(problem.status).type(PROBLEM_JSON).send(body)
  }
}

/**
 * Hands the problem to the first writer whose `canWrite` accepts it. A writer that throws, rejects, or ends
 * without sending is a server bug: logged with its name, answered 500 through the app's error handler.
 */
export function writeProblem (writers: readonly ProblemWriter[], names: readonly string[], context: ProblemWriterContext): void {
  const reply = context.reply
  // `reply.sent` stays false while async onSend hooks run, so whether `send` was called is watched here.
  let sending = false
  const send = reply.send
  reply.send = function (this: FastifyReply, payload?: unknown) {
    sending = true
    return send.call(this, payload)
  }
  let name = 'problem writer'
  const fail = (thrown: unknown): void => {
    restore()
    const error = thrown instanceof Error ? thrown : new Error(String(thrown))
    reply.log.error({ err: error }, `fastify-api-versioning: ${name} failed to write a problem`)
    if (!sending && !reply.sent) reply.code(500).send(error)
  }
  const restore = (): void => { if (reply.send !== send) delete (reply as Partial<FastifyReply>).send }
  const check = (): void => {
    restore()
    if (!sending && !reply.sent) fail(new Error(`fastify-api-versioning: ${name} neither sent the reply nor returned a promise that does`))
  }
  try {
    const index = writers.findIndex(writer => writer.canWrite(context))
    name = names[index]
    const written = writers[index].write(context)
    // The reply is thenable (it resolves once the response ends): never wait on it.
    if (written !== reply && typeof (written as PromiseLike<unknown> | null)?.then === 'function') {
      Promise.resolve(written).then(check, fail)
    } else {
      check()
    }
  } catch (error) {
    fail(error)
  }
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
