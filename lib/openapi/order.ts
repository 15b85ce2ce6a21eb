import type { FastifyInstance } from 'fastify'
import { routesSoFar } from '../routing/routes-so-far.js'
import { coded } from '../errors.js'
import type { ApiVersioningState } from '../state.js'
import { warnAtStartUp } from '../util/start-up-warning.js'

// apiVersioning's hidden routes, one per versioned method and path.
const HIDDEN = '"apiVersion":"(version problems)"'

/**
 * Checks that no route was declared before this plugin: @fastify/swagger only sees routes declared after it, so
 * such a route is in no document. A versioned one is an error (its versions would be lost); a version-neutral one
 * is a warning that says how to document it. A route that declares nothing is left alone: another plugin's
 * (@fastify/under-pressure's /status, another docs page) comes first as a rule, and no versioning is lost.
 */
export function checkOrder (fastify: FastifyInstance, state: ApiVersioningState): void {
  const missed = undocumented(fastify)
  if (missed.length === 0) return
  // One name per method and path, whatever other constraints (a host) split it.
  const names = (routes: Array<{ name: string }>): string => [...new Set(routes.map(route => route.name))].join(', ')
  if (missed.some(route => route.versioned)) {
    throw coded(new Error(`fastify-api-versioning/openapi: routes were declared before it was registered, so no document has them: ${names(missed)}; register it right after apiVersioning and before the routes: await app.register(apiVersioning, ...); await app.register(apiVersioningOpenApi, ...); then declare the routes`), 'FST_API_VERSIONING_OPENAPI_ORDER')
  }
  const neutral = new Set(state.routes.filter(route => route.declaration.kind === 'neutral').flatMap(route => route.names))
  const missedNeutral = missed.filter(route => neutral.has(route.name))
  if (missedNeutral.length === 0) return
  warnAtStartUp(fastify.log, `fastify-api-versioning/openapi: version-neutral routes were declared before it was registered, so no document has them: ${names(missedNeutral)}; to document them, declare them after it (await app.register(apiVersioningOpenApi, ...) before the routes); routes that declare no versions are never warned of`)
}

// Each route so far as `METHOD /path`, but apiVersioning's hidden routes and the HEAD routes Fastify adds for GET.
function undocumented (fastify: FastifyInstance): Array<{ name: string, versioned: boolean }> {
  const routes: Array<{ name: string, versioned: boolean }> = []
  for (const { path, methods, constraints } of routesSoFar(fastify)) {
    if (constraints.includes(HIDDEN)) continue
    for (const method of methods) {
      if (method !== 'HEAD' || !methods.includes('GET')) routes.push({ name: `${method} ${path}`, versioned: constraints.includes('"apiVersion":') })
    }
  }
  return routes
}
