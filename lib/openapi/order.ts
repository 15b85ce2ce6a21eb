import type { FastifyInstance } from 'fastify'

const TREE = /^[\s│├└─]*/
const ROUTE = /^(.*?) \(([A-Z, ]+)\)(?: (\{.*\}))?$/
// apiVersioning's hidden routes, one per versioned method and path.
const HIDDEN = '"apiVersion":"(version problems)"'
// @fastify/cors's preflight route, hidden from documents.
const PREFLIGHT = 'OPTIONS *'

/**
 * Checks that no route was declared before this plugin: @fastify/swagger only sees routes declared after it, so
 * such a route is in no document. A versioned one is an error (its versions would be lost); other routes may
 * be another plugin's hidden page, so they are a warning.
 */
export function checkOrder (fastify: FastifyInstance): void {
  const missed = routesSoFar(fastify)
  if (missed.length === 0) return
  // One name per method and path, whatever other constraints (a host) split it.
  const names = [...new Set(missed.map(route => route.name))].join(', ')
  if (missed.some(route => route.versioned)) {
    throw new Error(`fastify-api-versioning/openapi: routes were declared before it was registered, so no document has them: ${names}; register it right after apiVersioning and before the routes: await app.register(apiVersioning, ...); await app.register(apiVersioningOpenApi, ...); then declare the routes`)
  }
  fastify.log.warn(`fastify-api-versioning/openapi: routes were declared before it was registered, so no document has them: ${names}; declare the routes to document after it (hidden routes, such as another docs page, are fine where they are)`)
}

/**
 * The routes in the router now, from `printRoutes`' tree: each line is a node's text (its path from its parent
 * node), its methods and its constraints, indented four characters per level.
 */
function routesSoFar (fastify: FastifyInstance): Array<{ name: string, versioned: boolean }> {
  const routes: Array<{ name: string, versioned: boolean }> = []
  const parents: string[] = []
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const depth = (TREE.exec(line) as RegExpExecArray)[0].length / 4
    const match = ROUTE.exec(line.slice(depth * 4))
    if (match === null) continue
    const path = (parents[depth - 1] ?? '') + match[1]
    parents[depth] = path
    const constraints = match[3] ?? ''
    if (constraints.includes(HIDDEN)) continue
    const methods = match[2].split(', ')
    for (const method of methods) {
      // Fastify adds a HEAD route for each GET route.
      const name = `${method} ${path}`
      if ((method === 'HEAD' && methods.includes('GET')) || name === PREFLIGHT) continue
      routes.push({ name, versioned: constraints.includes('"apiVersion":') })
    }
  }
  return routes
}
