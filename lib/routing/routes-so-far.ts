import type { FastifyBaseLogger, FastifyInstance } from 'fastify'

const TREE = /^[\s│├└─]*/
const ROUTE = /^(.*?) \(([A-Z, ]+)\)(?: (\{.*\}))?$/

/** A route of the router: its full path, its methods and its constraints as `printRoutes` shows them (or ''). */
export interface RouteSoFar {
  readonly path: string
  readonly methods: readonly string[]
  readonly constraints: string
}

/**
 * The routes in the router now, from `printRoutes`' tree (Fastify has no other list of routes already declared):
 * each line is a node's text (its path from its parent node), its methods and its constraints, indented four
 * characters per level. @fastify/cors's catch-all preflight route (`OPTIONS *`) is no route anyone declares.
 */
export function routesSoFar (fastify: FastifyInstance): RouteSoFar[] {
  const routes: RouteSoFar[] = []
  const parents: string[] = []
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const depth = (TREE.exec(line) as RegExpExecArray)[0].length / 4
    const match = ROUTE.exec(line.slice(depth * 4))
    if (match === null) continue
    const path = (parents[depth - 1] ?? '') + match[1]
    parents[depth] = path
    if (path === '*' && match[2] === 'OPTIONS') continue
    routes.push({ path, methods: match[2].split(', '), constraints: match[3] ?? '' })
  }
  return routes
}

/** The routes already in the router when the plugin loads, as a log line names them: the plugin never sees them. */
export function earlyRoutes (fastify: FastifyInstance): string[] {
  return routesSoFar(fastify).map(route => `${route.path} (${route.methods.join(', ')})`)
}

/**
 * Routes declared before the plugin are not seen, so not versioned, and Fastify keeps no route's options to tell
 * whether one declared versions. Judged once every route is declared: in an app where some route is versioned or
 * neutral, early routes are plugins' routes that declare nothing (@fastify/under-pressure's /status, a docs page),
 * right as they are; in an app where none is, the routes were declared before the plugin loaded (a registration
 * without `await`), so a warning names them.
 */
export function reportEarlyRoutes (early: readonly string[], versioning: boolean, log: FastifyBaseLogger): void {
  if (early.length === 0) return
  if (versioning) {
    log.debug(`fastify-api-versioning: routes declared before the plugin was loaded are unversioned (${early.join(', ')}): the plugin does not see them, which is right for a plugin's route that declares no versions (a health or docs route); a route meant to be versioned must be declared after \`await app.register(apiVersioning, ...)\``)
    return
  }
  log.warn(`fastify-api-versioning: no route declares versions, and routes were declared before the plugin was loaded (${early.join(', ')}), where it cannot see them: those that declare apiVersions, deprecatedApiVersions or apiVersionNeutral are silently unversioned. \`await app.register(apiVersioning, ...)\` before declaring routes: without \`await\`, app.register(apiVersioning); app.get(...) declares the route first`)
}
