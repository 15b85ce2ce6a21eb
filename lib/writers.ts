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

/** Writes problems it accepts; `write` must send the reply. */
export interface ProblemWriter {
  canWrite (context: ProblemWriterContext): boolean
  write (context: ProblemWriterContext): void | Promise<void>
}

/** The default writer: `application/problem+json`, serialized through ProblemDetailsSchema. */
export const problemDetailsWriter: ProblemWriter = {
  canWrite: () => true,
  write ({ problem, reply }) {
    reply.code(problem.status).type(PROBLEM_JSON).send(serializeProblem(problem))
  }
}

/** Hands the problem to the first writer whose `canWrite` accepts it. */
export function writeProblem (writers: readonly ProblemWriter[], context: ProblemWriterContext): FastifyReply {
  const reply = context.reply
  for (const writer of writers) {
    if (writer.canWrite(context)) {
      const written = writer.write(context)
      if (written != null && typeof written.then === 'function') {
        written.then(undefined, (error: unknown) => { if (!reply.sent) reply.send(error) })
      }
      break
    }
  }
  return reply
}

export function assertProblem (problem: unknown): asserts problem is ProblemDocument {
  const status = (problem as ProblemDocument | null)?.status as number
  if (typeof problem !== 'object' || problem === null || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new TypeError('reply.problem() needs a problem object whose status is an integer from 100 to 599')
  }
}
