import type { FastifyInstance, RouteOptions } from 'fastify'
import { kDeclaration, type DeclarationState } from '../routing/declaration-state.js'
import type { ApiVersioningState } from '../state.js'
import { warnAtStartUp } from '../util/start-up-warning.js'

/**
 * Warns, once the app is ready, of the versioned and version-neutral routes this plugin cannot see: declared in
 * a plugin beside the one it was registered in, or outside it. @fastify/swagger sees only the routes of its own
 * scope, so no document has them, and the documents would be quietly empty of them. The plugin's onRoute hook
 * is in that same scope: a route it sees is one @fastify/swagger sees, documented or hidden.
 *
 * A warning, not a start-up error: documenting one scope on purpose (a public API beside an internal one) is a
 * set-up that works, and an error would stop such an app from starting. The warning says how to make it quiet:
 * register the plugin at the root and hide the routes to leave out.
 */
export function checkReach (fastify: FastifyInstance, state: ApiVersioningState): void {
  // Those declared before this plugin are checkOrder's to name.
  const earlier = state.routes.length
  const seen = new Set<DeclarationState>()
  fastify.addHook('onRoute', function apiVersioningOpenApiSeeRoute (route: RouteOptions) {
    // apiVersioning's onRoute hook, registered before this plugin's, has set it on every route that takes part.
    const declaration = (route as { [kDeclaration]?: DeclarationState })[kDeclaration]
    if (declaration !== undefined) seen.add(declaration)
  })
  fastify.addHook('onReady', async function apiVersioningOpenApiReach () {
    const unseen = state.routes.slice(earlier).filter(route => !seen.has(route.declaration)).flatMap(route => route.names)
    if (unseen.length === 0) return
    // One name per method and path, whatever other constraints (a host) split it; not the HEAD route of a GET.
    const names = [...new Set(unseen)].filter(name => !name.startsWith('HEAD ') || !unseen.includes('GET ' + name.slice(5)))
    warnAtStartUp(fastify.log, `fastify-api-versioning/openapi: routes were declared where it cannot see them (in a plugin beside the one it was registered in, or outside it), so no document has them: ${names.join(', ')}; register it at the root, right after apiVersioning and before the routes: await app.register(apiVersioning, ...); await app.register(apiVersioningOpenApi, ...); then declare the routes (give a route schema: { hide: true } to leave it out of the documents)`, 'FST_API_VERSIONING_OPENAPI_SCOPE')
  })
}
