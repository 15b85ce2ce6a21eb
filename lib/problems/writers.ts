import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ProblemDocument } from './problems.js'
import { messageOf, serverError } from './server-error.js'
import { serializeProblem } from './problem-schema.js'

const PROBLEM_JSON = 'application/problem+json; charset=utf-8'
const TEXT_MEMBERS = ['type', 'title', 'detail', 'instance', 'code']

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

/** How one plugin instance writes problems: the app's writers first, then the plugin's own. */
export interface ProblemWriting {
  /** Writes a problem of the plugin's own (valid by construction). */
  write (problem: ProblemDocument, request: FastifyRequest, reply: FastifyReply): void
  /** `reply.problem()`: checks what it is given, then writes it. Never throws. */
  problem (reply: FastifyReply, problem: unknown): void
}

interface Writers {
  readonly list: readonly ProblemWriter[]
  readonly names: readonly string[]
}

/**
 * `names` are the app's writers' names, as `resolveOptions` read them; `own` are the plugin's writers (trusted,
 * the last of which takes every problem). A `reply.problem()` made inside an app's writer goes to `own` alone:
 * re-mapping a problem is a supported pattern, and it can neither come back to the writer that made it nor wrap
 * the stand-in reply in another.
 */
export function createProblemWriting (app: readonly ProblemWriter[], names: readonly string[], own: readonly ProblemWriter[]): ProblemWriting {
  const ownWriters: Writers = { list: own, names: own.map(writer => `the built-in ${writer.name as string} writer`) }
  const allWriters: Writers = { list: [...app, ...own], names: [...names, ...ownWriters.names] }

  function write (writers: Writers, context: ProblemWriterContext): void {
    let index = 0
    try {
      while (!writers.list[index].canWrite(context)) index++
      if (trusted.has(writers.list[index])) {
        writers.list[index].write(context)
        return
      }
    } catch (error) {
      return failed(context.reply, writers.names[index], error)
    }
    watched(writers.list[index], writers.names[index], context)
  }

  function checked (writers: Writers, reply: FastifyReply, problem: unknown): void {
    const error = problemError(problem)
    if (error === null) write(writers, { problem: problem as ProblemDocument, request: reply.request, reply })
    else reply.code(500).send(new TypeError(`fastify-api-versioning: ${error}`))
  }

  /**
   * Runs a writer of the app on a stand-in of the reply that notes whether `send` (or `problem`) was called:
   * `reply.sent` stays false while async onSend hooks run, and the reply itself is not touched (a property set on
   * it would slow every later request down).
   */
  function watched (writer: ProblemWriter, name: string, context: ProblemWriterContext): void {
    const reply = context.reply
    let sending = false
    const send = (payload?: unknown): FastifyReply => {
      sending = true
      return reply.send(payload)
    }
    const problem = (given: unknown): FastifyReply => {
      sending = true
      checked(ownWriters, reply, given)
      return standIn
    }
    const standIn: FastifyReply = new Proxy(reply, {
      get: (target, key) => key === 'send' ? send : key === 'problem' ? problem : Reflect.get(target, key, target)
    })
    const fail = (error: unknown): void => failed(reply, name, error, !sending)
    const check = (): void => {
      if (!sending && !reply.sent) failed(reply, name, `${name} neither sent the reply nor returned a promise that does`)
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

  return {
    write: (problem, request, reply) => write(allWriters, { problem, request, reply }),
    problem: (reply, problem) => checked(allWriters, reply, problem)
  }
}

/**
 * A writer's failure is a bug of the server. Answered 500 through the app's error handler, which logs it (as
 * Fastify's own does) with the writer's name in its message; logged here only when a response is already on its
 * way, so that one failure is one log line.
 */
function failed (reply: FastifyReply, name: string, thrown: unknown, answer = true): void {
  const error = serverError(`fastify-api-versioning: ${name} failed to write a problem`, thrown)
  if (answer && !reply.sent) reply.send(error)
  else reply.log.error({ err: error }, error.message)
}

/** Checks what `reply.problem()` was given, without throwing whatever it is; the message says what is wrong, or null. */
export function problemError (problem: unknown): string | null {
  try {
    if (typeof problem !== 'object' || problem === null || Array.isArray(problem)) return 'reply.problem() needs a problem object'
    const status = (problem as ProblemDocument).status
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      return `reply.problem() needs a problem whose status is an integer from 400 to 599 (got ${typeof status === 'bigint' ? String(status) + 'n' : JSON.stringify(status) ?? String(status)})`
    }
    // The schema's text members would otherwise be coerced silently: `detail: {}` sent as "[object Object]".
    for (const member of TEXT_MEMBERS) {
      const value = (problem as Record<string, unknown>)[member]
      if (value !== undefined && typeof value !== 'string') return `reply.problem() needs ${member} to be a string when given (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value})`
    }
    return null
  } catch (error) {
    return `reply.problem() could not read the problem: ${messageOf(error)}`
  }
}
