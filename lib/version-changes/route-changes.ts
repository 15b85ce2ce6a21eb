import type { DocumentedShape, RouteChanges } from '../routing/route-changes.js'
import { checkInstructions } from './checks.js'
import { changingRoutes, expandRoute, kDocumentedShapes, kMadeByChanges } from './routes.js'
import { sharedSchemasOf, type SharedSchemas } from './shared-ref.js'
import type { VersionList } from './version-list.js'
import type { Webhooks } from './webhooks.js'
import { endpointDeprecation } from './endpoint-deprecation.js'
import { declareOlderUrl, olderUrlRoutes } from './older-url.js'
import { append } from '../routing/hook-lists.js'

// Set on a route given the hook of its endpoints' deprecations (see endpointDeprecation), and on one whose routes
// of older URLs are made (see olderUrlRoutes).
const kDeprecates = Symbol('fastify-api-versioning.deprecates')
const kOlderUrls = Symbol('fastify-api-versioning.olderUrls')

/** What the routes of the `versionChanges` option need of the plugin's options. */
export interface RouteChangesOptions {
  /** The versionChanges option, checked; null when not given. */
  readonly versionList: VersionList | null
  /** The query parameters that carry the version (lower case). */
  readonly queryNames: readonly string[]
  /** Whether the older versions of versionChanges routes are compiled once the app is ready. */
  readonly compileEagerly: boolean
  /** The webhooks option, checked: what webhook instructions may name. */
  readonly webhooks: Webhooks
}

/**
 * The routes of the `versionChanges` option, as routing declares them (see RouteChanges): a route declared with
 * `versionChanges: true` becomes the routes of its shapes (see expandRoute); every route is noted, and checked with
 * the instructions once the app is ready (see checkInstructions). `shared`: the plugin instance's shared schemas.
 */
export function createRouteChanges (options: RouteChangesOptions, shared: SharedSchemas): RouteChanges {
  const { versionList: list, queryNames } = options
  // What the routes declared with versionChanges declared: what its instructions may name, and what they touch.
  const changing = changingRoutes()
  return {
    expand (instance, route, allow, answersOwn) {
      // The routes of the URLs older versions had, made of the route as declared (a route of several methods that
      // expandRoute declares again for the others carries the mark: they are made once).
      if (list !== null && !(kOlderUrls in route)) {
        const older = olderUrlRoutes(route, list)
        Object.assign(route, { [kOlderUrls]: true })
        for (const made of older) declareOlderUrl(instance, made)
      }
      // Before the route is expanded, so that every route made of it has the hook, once (what a route of several
      // methods declares again for the others carries it, and its mark).
      if (list !== null && !(kDeprecates in route)) {
        const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(method => method.toUpperCase())
        Object.assign(route, { [kDeprecates]: true, onSend: append(route.onSend, endpointDeprecation(list, methods, route.url)) })
      }
      expandRoute(instance, route, list, changing, { queryNames, allow, answersOwn })
    },
    declared (instance, route, label, declaration) {
      if (list !== null && !(kMadeByChanges in route)) {
        changing.others.push({ label, schema: route.schema as Record<string, unknown> | undefined, shared: sharedSchemasOf(instance), kind: declaration.kind, versions: [...declaration.supported, ...declaration.deprecated] })
      }
    },
    shapesOf (route) {
      return (route as unknown as { [kDocumentedShapes]?: () => readonly DocumentedShape[] })[kDocumentedShapes] ?? null
    },
    ready (warn) {
      changing.plans.clear()
      if (list !== null) checkInstructions(list, changing, shared, warn, options.webhooks)
      if (options.compileEagerly) for (const warm of changing.warmers) warm()
    }
  }
}
