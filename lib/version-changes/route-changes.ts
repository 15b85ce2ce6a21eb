import type { DocumentedShape, RouteChanges } from '../routing/route-changes.js'
import { checkInstructions } from './checks.js'
import { changingRoutes, expandRoute, kDocumentedShapes, kMadeByChanges } from './routes.js'
import { sharedSchemasOf, type SharedSchemas } from './shared-ref.js'
import type { VersionList } from './version-list.js'
import type { Webhooks } from './webhooks.js'
import { endpointDeprecation } from './endpoint-deprecation.js'
import { declareOlderUrl, olderUrlRoutes } from './older-url.js'
import { append } from '../routing/hook-lists.js'
import { endpointUrlOf } from '../routing/endpoint-url.js'

// Set on a route as declared once what its endpoint instructions make of it is made: the routes of its older URLs
// (see olderUrlRoutes) and the hook of its deprecations (see endpointDeprecation). A route of several methods that
// expandRoute declares again for the others carries it: made once.
const kEndpointMade = Symbol('fastify-api-versioning.endpointMade')

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
      if (list !== null && !(kEndpointMade in route)) {
        // Of the route as declared; then the hook, before the route is expanded, so that every route made of it has it.
        const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(method => method.toUpperCase())
        const older = olderUrlRoutes(route, methods, list)
        Object.assign(route, { [kEndpointMade]: true, onSend: append(route.onSend, endpointDeprecation(list, methods, endpointUrlOf(route))) })
        for (const made of older) declareOlderUrl(instance, made)
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
      if (options.compileEagerly) for (const shapes of changing.warmers) shapes.warm()
    }
  }
}
