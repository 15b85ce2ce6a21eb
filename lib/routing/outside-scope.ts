import type { FastifyInstance, RouteOptions } from 'fastify'
import { CHANGES_OPTION } from './route-changes.js'
import { DECLARATION_OPTIONS } from './route-table.js'
import { declarationSource, versionSetOf } from './version-sets.js'
import { coded } from '../errors.js'

/**
 * `apiVersioning` registered inside an encapsulated plugin sees the routes of that plugin only. A route elsewhere
 * that declares versions would be silently unversioned: the root gets an onRoute hook that fails such a route's
 * declaration, and `request.apiVersion` (null), so that every request of the server has it. Fastify makes a
 * plugin's instance with `Object.create` of its parent's, so the root is the end of that chain; `addHook` on
 * the root reaches the root and the plugins registered from now on, which is everywhere a route can still be
 * declared outside the plugin's scope (its own scope was made before, and keeps its hooks).
 */
export function guardOutsideScope (fastify: FastifyInstance): void {
  const root = rootOf(fastify)
  if (root === fastify) return
  // The plugin registers once per server, and its scope's decorator is the only other one.
  root.decorateRequest('apiVersion', null)
  root.addHook('onRoute', function apiVersioningOutsideScope (this: FastifyInstance, route: RouteOptions) {
    const source = declarationSource(route as unknown as Record<string, unknown>, versionSetOf(this))
    const option = DECLARATION_OPTIONS.find(name => name === 'apiVersionNeutral' ? source[name] === true : source[name] !== undefined) ??
      ((route as unknown as Record<string, unknown>)[CHANGES_OPTION] !== undefined ? CHANGES_OPTION : undefined)
    if (option === undefined) return
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method
    throw coded(new Error(`fastify-api-versioning: route ${methods} ${route.url} declares ${option}, but apiVersioning is registered inside a plugin and does not see it, so it would be unversioned; register apiVersioning at the root (await app.register(apiVersioning, ...) on the app itself), before the routes`), 'FST_API_VERSIONING_OUTSIDE_SCOPE')
  })
}

function rootOf (fastify: FastifyInstance): FastifyInstance {
  let instance = fastify
  for (let parent = Object.getPrototypeOf(instance); typeof parent?.addHook === 'function'; parent = Object.getPrototypeOf(parent)) instance = parent
  return instance
}
