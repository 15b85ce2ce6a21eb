import type { FastifyInstance } from 'fastify'
import { routesSoFar } from '../routing/routes-so-far.js'
import { coded } from '../errors.js'

// apiVersioning's hidden routes, one per versioned method and path.
const HIDDEN = '"apiVersion":"(version problems)"'

/**
 * Checks that no route was declared before this plugin: @fastify/swagger only sees routes declared after it, so
 * such a route is in no document. A versioned one is an error (its versions would be lost); other routes may
 * be another plugin's hidden page, so they are a warning.
 */
export function checkOrder (fastify: FastifyInstance): void {
  const missed = undocumented(fastify)
  if (missed.length === 0) return
  // One name per method and path, whatever other constraints (a host) split it.
  const names = [...new Set(missed.map(route => route.name))].join(', ')
  if (missed.some(route => route.versioned)) {
    throw coded(new Error(`fastify-api-versioning/openapi: routes were declared before it was registered, so no document has them: ${names}; register it right after apiVersioning and before the routes: await app.register(apiVersioning, ...); await app.register(apiVersioningOpenApi, ...); then declare the routes`), 'FST_API_VERSIONING_OPENAPI_ORDER')
  }
  fastify.log.warn(`fastify-api-versioning/openapi: routes were declared before it was registered, so no document has them: ${names}; declare the routes to document after it (hidden routes, such as another docs page, are fine where they are)`)
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
