import type { FastifyInstance } from 'fastify'

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

/**
 * Routes declared before the plugin are not seen, so not versioned: right for a route that declares no versions
 * (a health or docs route), silently wrong for one that does, and Fastify keeps no route's options to tell.
 */
export function warnOfEarlyRoutes (fastify: FastifyInstance): void {
  const early = routesSoFar(fastify).map(route => `${route.path} (${route.methods.join(', ')})`)
  if (early.length > 0) {
    fastify.log.warn(`fastify-api-versioning: routes were declared before the plugin was loaded (${early.join(', ')}): the plugin does not see them, so they are unversioned, which is right for a route that declares no versions (a health or docs route); a route meant to be versioned must be declared after \`await app.register(apiVersioning, ...)\`. Register apiVersioning before the plugins that add routes (such as @fastify/under-pressure) and this warning goes`)
  }
}
