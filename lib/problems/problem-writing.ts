import type { FastifyReply, FastifyRequest } from 'fastify'
import { kOutcome, type RawRequest, type ReaderOptions } from '../request/request-reader.js'
import { createErrorObjectWriter, type ErrorObjectsConfig } from './error-objects.js'
import type { ProblemDocument, ProblemSet } from './problems.js'
import { messageOf, serverError } from '../util/server-error.js'
import { isTrusted, problemDetailsWriter, type ProblemWriter, type ProblemWriterContext } from './writers.js'
import { coded } from '../errors.js'
import { logSafely } from '../util/failure-log.js'
import { droppedPromise, isThenable } from '../util/is-thenable.js'

const TEXT_MEMBERS = ['type', 'title', 'detail', 'instance', 'code']

/** How one plugin instance writes problems: the app's writers first, then the plugin's own. */
export interface ProblemWriting {
  /** Writes a version problem (valid by construction); with `problemDetails: false`, its status alone. */
  write (problem: ProblemDocument, request: FastifyRequest, reply: FastifyReply): void
  /** `reply.problem()`: checks what it is given, then writes it. Never throws. */
  problem (reply: FastifyReply, problem: unknown): void
}

/** The options problems are written by (see options.ts), and the readers' names, for an error object's target. */
export interface WritingOptions extends Pick<ReaderOptions, 'queryNames' | 'headerNames' | 'segmentName'> {
  readonly problemDetails: boolean
  readonly problemWriters: readonly ProblemWriter[]
  /** Each writer's name in logs: its `name`, or its place (`problemWriters[0]`). */
  readonly problemWriterNames: readonly string[]
}

interface Writers {
  readonly list: readonly ProblemWriter[]
  readonly names: readonly string[]
}

/**
 * The writers of one plugin instance: the app's `problemWriters`, then the plugin's own (trusted: the error-object
 * writer when `errorObjects` was registered first, then the problem-details writer, which takes every problem). A
 * `reply.problem()` made inside an app's writer goes to the plugin's own alone: re-mapping a problem is a
 * supported pattern, and it can neither come back to the writer that made it nor wrap the stand-in reply in another.
 */
export function createProblemWriting (options: WritingOptions, errorObjects: ErrorObjectsConfig | null, problems: ProblemSet, warn: (message: string) => void): ProblemWriting {
  const own: ProblemWriter[] = [problemDetailsWriter]
  if (errorObjects !== null) {
    // The error object's target: where the version was read, or the first place one may be given.
    const firstName = options.queryNames[0] ?? options.headerNames[0] ?? options.segmentName
    own.unshift(createErrorObjectWriter(errorObjects, problems.types, request => (request.raw as RawRequest)[kOutcome]?.source ?? firstName))
  }
  if (!options.problemDetails && (options.problemWriters.length > 0 || errorObjects !== null)) {
    warn('fastify-api-versioning: problemDetails is false, so version errors have no body and problem writers and errorObjects are not used for them')
  }
  const ownWriters: Writers = { list: own, names: own.map(writer => `the built-in ${writer.name as string} writer`) }
  const allWriters: Writers = { list: [...options.problemWriters, ...own], names: [...options.problemWriterNames, ...ownWriters.names] }

  function write (writers: Writers, context: ProblemWriterContext): void {
    let index = 0
    try {
      while (!canWrite(writers.list[index], context)) index++
      if (isTrusted(writers.list[index])) {
        writers.list[index].write(context)
        return
      }
    } catch (error) {
      return failed(context.reply, writers.names[index], error)
    }
    watched(writers.list[index], writers.names[index], context)
  }

  // The app's canWrite, as a plain-JS app may write it: a promise is never a yes (nor a rejection left unhandled).
  function canWrite (writer: ProblemWriter, context: ProblemWriterContext): boolean {
    const answer: unknown = writer.canWrite(context)
    if (droppedPromise(answer)) throw new TypeError('canWrite returned a promise; it must answer synchronously')
    return answer as boolean
  }

  function checked (writers: Writers, reply: FastifyReply, problem: unknown): void {
    const error = problemError(problem)
    if (error === null) write(writers, { problem: problem as ProblemDocument, request: reply.request, reply })
    else reply.code(500).send(coded(new TypeError(`fastify-api-versioning: ${error}`), 'FST_API_VERSIONING_INVALID_PROBLEM'))
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
      if (written !== standIn && written !== reply && isThenable(written)) {
        Promise.resolve(written).then(check, fail)
      } else {
        check()
      }
    } catch (error) {
      fail(error)
    }
  }

  return {
    write: options.problemDetails
      ? (problem, request, reply) => write(allWriters, { problem, request, reply })
      : (problem, request, reply) => { reply.code(problem.status).send() },
    problem: (reply, problem) => checked(allWriters, reply, problem)
  }
}

/**
 * A writer's failure is a bug of the server. Answered 500 through the app's error handler, which logs it (as
 * Fastify's own does) with the writer's name in its message; logged here only when a response is already on its
 * way, so that one failure is one log line.
 */
function failed (reply: FastifyReply, name: string, thrown: unknown, answer = true): void {
  const error = serverError('FST_API_VERSIONING_WRITER_FAILED', `fastify-api-versioning: ${name} failed to write a problem`, thrown)
  if (answer && !reply.sent) reply.send(error)
  else logSafely(() => reply.log.error({ err: error }, error.message))
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
