import { STATUS_CODES } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { FASTIFY_RANGE } from '../fastify-range.js'
import { trustWriter, type ProblemWriter } from './writers.js'
import { coded } from '../errors.js'
import { warnAtStartUp } from '../util/start-up-warning.js'

export interface ErrorObjectsOptions {
  /** Also write every other error response of the app (thrown errors, 404s) as an error object. Default false. */
  allErrors?: boolean
}

/** The earlier error format (Microsoft REST API guidelines). */
export interface ErrorObject {
  error: {
    code?: string
    message?: string
    target?: string
    innerError?: { message: string }
  }
}

/** Set on the instance by `errorObjects`, read by `apiVersioning`: why the registration order matters. */
export const kErrorObjects = Symbol.for('fastify-api-versioning.errorObjects')
/** Set on the instance by `apiVersioning`. */
export const kApiVersioning = Symbol.for('fastify-api-versioning.apiVersioning')

const JSON_TYPE = 'application/json; charset=utf-8'

export interface ErrorObjectsConfig {
  readonly allErrors: boolean
}

function errorObjectsPlugin (fastify: FastifyInstance, options: ErrorObjectsOptions, done: (err?: Error) => void): void {
  const allErrors = options.allErrors ?? false
  if (typeof allErrors !== 'boolean') {
    return done(coded(new TypeError('fastify-api-versioning errorObjects: allErrors must be a boolean'), 'FST_API_VERSIONING_INVALID_OPTION'))
  }
  if (kApiVersioning in fastify) {
    warnAtStartUp(fastify.log, 'fastify-api-versioning: errorObjects was registered after apiVersioning, so it is not selected; register it before apiVersioning')
    return done()
  }
  const config: ErrorObjectsConfig = Object.freeze({ allErrors })
  fastify.decorate(kErrorObjects, config)
  if (allErrors) fastify.addHook('onSend', rewriteFastifyError)
  done()
}

/**
 * The `errorObjects` plugin: register it before `apiVersioning` to answer version errors in the earlier
 * error-object format; `{ allErrors: true }` extends that to every error response of the app.
 */
export const errorObjects = fp(errorObjectsPlugin, { fastify: FASTIFY_RANGE, name: 'fastify-api-versioning-error-objects' })

/**
 * The error-object writer. It takes version problems (by their `type`), or every problem with `allErrors`.
 * `targetOf` names where the version was read.
 */
export function createErrorObjectWriter (
  config: ErrorObjectsConfig,
  versionTypes: ReadonlySet<string>,
  targetOf: (request: FastifyRequest) => string | null
): ProblemWriter {
  return trustWriter({
    name: 'errorObjects',
    canWrite: ({ problem }) => config.allErrors || versionTypes.has(problem.type as string),
    write ({ problem, request, reply }) {
      const error: ErrorObject['error'] = {}
      error.code = typeof problem.code === 'string' ? problem.code : identifier(STATUS_CODES[problem.status] ?? 'Error')
      if (typeof problem.title === 'string') error.message = problem.title
      const target = versionTypes.has(problem.type as string) ? targetOf(request) : null
      if (target !== null) error.target = target
      if (typeof problem.detail === 'string' && problem.detail !== '') error.innerError = { message: problem.detail }
      reply.code(problem.status).type(JSON_TYPE).send(JSON.stringify({ error }))
    }
  })
}

// Fastify's own error body: {statusCode, code?, error, message}. Anything else (a user's format) is left alone.
function rewriteFastifyError (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if (reply.statusCode < 400 || typeof payload !== 'string' || !String(reply.getHeader('content-type')).startsWith('application/json')) {
    return done(null, payload)
  }
  let body: Record<string, unknown>
  try {
    body = JSON.parse(payload)
  } catch {
    return done(null, payload)
  }
  if (!isFastifyErrorBody(body)) return done(null, payload)
  const error: ErrorObject['error'] = {
    code: typeof body.code === 'string' ? body.code : identifier(body.error as string),
    message: body.message as string
  }
  done(null, JSON.stringify({ error }))
}

// A reason phrase as an identifier: "I'm a Teapot" is ImATeapot, "URI Too Long" URITooLong.
function identifier (phrase: string): string {
  let code = ''
  for (const word of phrase.replace(/['\u2019]/g, '').split(/[^A-Za-z0-9]+/)) code += word.charAt(0).toUpperCase() + word.slice(1)
  return code
}

function isFastifyErrorBody (body: Record<string, unknown>): boolean {
  if (typeof body !== 'object' || body === null || typeof body.statusCode !== 'number' ||
    typeof body.error !== 'string' || typeof body.message !== 'string') return false
  for (const key in body) {
    if (key !== 'statusCode' && key !== 'error' && key !== 'message' && key !== 'code') return false
  }
  return true
}
