import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import apiVersioning, { type ApiVersioningOptions } from '../../lib/index.js'

/** A Fastify app with the plugin registered; `routes` adds routes after it. */
export async function build (
  options: ApiVersioningOptions = { problemDetails: true },
  routes: (app: FastifyInstance) => void | Promise<void> = () => {},
  server: FastifyServerOptions = {}
): Promise<FastifyInstance> {
  const app = Fastify(server)
  await app.register(apiVersioning, options)
  await routes(app)
  return app
}

/** A handler that says which route answered and which version it saw. */
export function says (name: string) {
  return async (request: { apiVersion: unknown }) => ({ route: name, version: request.apiVersion === null ? null : String(request.apiVersion) })
}

export const BASE = 'https://docs.api-versioning.org/problems'

export function problem (kind: 'unspecified' | 'unsupported' | 'invalid' | 'ambiguous', status = 400) {
  const texts = {
    unspecified: ['Unspecified API version', 'An API version is required, but was not specified', 'ApiVersionUnspecified'],
    unsupported: ['Unsupported API version', 'The specified API version is not supported', 'UnsupportedApiVersion'],
    invalid: ['Invalid API version', 'An API version was specified, but it is invalid', 'InvalidApiVersion'],
    ambiguous: ['Ambiguous API version', 'An API version was specified multiple times with different values', 'AmbiguousApiVersion']
  }[kind]
  return { type: `${BASE}#${kind}`, title: texts[0], status, detail: texts[1], code: texts[2] }
}

export type LogLine = { level: number, msg: string, err?: { message: string }, [binding: string]: unknown }

/** A logger stream that keeps each line, parsed. */
export function logged (): { lines: LogLine[], stream: { write: (line: string) => void } } {
  const lines: LogLine[] = []
  return { lines, stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } }
}
