import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { warnAtStartUp } from '../util/start-up-warning.js'

const TREE = /^[\s│├└─]*/

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
    const node = routeLine(line.slice(depth * 4))
    if (node === null) continue
    const path = (parents[depth - 1] ?? '') + node.text
    parents[depth] = path
    if (path === '*' && node.methods === 'OPTIONS') continue
    routes.push({ path, methods: node.methods.split(', '), constraints: node.constraints })
  }
  return routes
}

/**
 * A node's line, `text (METHODS)` or `text (METHODS) {constraints}`, split at the first ` (` that is followed by
 * methods, a `)` and the end of the line or its constraints (a path or a constraint value may hold ` (` too). In
 * one pass: each character is read at most twice, where a regex with a lazy `(.*?)` would read the rest of the line
 * again for each ` (` in it.
 */
export function routeLine (line: string): { text: string, methods: string, constraints: string } | null {
  const closed = line.endsWith('}')
  for (let open = line.indexOf(' ('); open !== -1; open = line.indexOf(' (', open + 1)) {
    let end = open + 2
    while (end < line.length && isMethodChar(line.charCodeAt(end))) end++
    if (end === open + 2 || line[end] !== ')') continue
    const rest = end + 1
    if (rest === line.length) return { text: line.slice(0, open), methods: line.slice(open + 2, end), constraints: '' }
    if (closed && line[rest] === ' ' && line[rest + 1] === '{') return { text: line.slice(0, open), methods: line.slice(open + 2, end), constraints: line.slice(rest + 1) }
  }
  return null
}

// A-Z, a comma or a space: what a list of methods is made of.
function isMethodChar (code: number): boolean {
  return (code >= 65 && code <= 90) || code === 44 || code === 32
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
  warnAtStartUp(log, `fastify-api-versioning: no route declares versions, and routes were declared before the plugin was loaded (${early.join(', ')}), where it cannot see them: those that declare apiVersions, deprecatedApiVersions, apiVersionNeutral or versionChanges are silently unversioned. \`await app.register(apiVersioning, ...)\` before declaring routes: without \`await\`, app.register(apiVersioning); app.get(...) declares the route first`)
}
