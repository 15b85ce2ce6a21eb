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

/** True for one of the plugin's own writers. */
export function isTrusted (writer: ProblemWriter): boolean {
  return trusted.has(writer)
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
