import type { ApiVersion } from './api-version.js'
import type { ErrorObjectsConfig } from './problems/error-objects.js'
import type { ResolvedOptions } from './options.js'
import type { PathEntry, RouteKind } from './routing/route-table.js'

/**
 * What `apiVersioning` knows that other entries (`fastify-api-versioning/openapi`) read: set on the instance,
 * under a registry symbol so that the ESM and CommonJS builds of both entries agree on it.
 */
export const kState = Symbol.for('fastify-api-versioning.state')

/**
 * Set on the route that serves a `versionChanges` route's older versions: what makes the routes only the documents
 * have, one a shape of those versions (with its schema and its versions' declaration), as a route of them would be
 * documented.
 */
export const kDocumentedRoutes = Symbol.for('fastify-api-versioning.documentedRoutes')

/** Set on each route's options object by `apiVersioning`'s onRoute hook: the route's checked declaration. */
export const kDeclaration = Symbol.for('fastify-api-versioning.declaration')

export interface ApiVersioningState {
  readonly options: ResolvedOptions
  /** The options of `errorObjects`, registered before `apiVersioning` (version errors are error objects), or null. */
  readonly errorObjects: ErrorObjectsConfig | null
  /** The versions of each router path (by `routePathKey`), sealed once the app is ready: what the version headers say. */
  readonly paths: ReadonlyMap<string, PathEntry>
  /** Every versioned and version-neutral route, as declared (complete once the app is ready). */
  readonly routes: readonly VersioningRoute[]
}

/** A versioned or version-neutral route: its name on each of its methods, and the declaration on its options. */
export interface VersioningRoute {
  /** `METHOD /url`, one per method. */
  readonly names: readonly string[]
  readonly declaration: DeclarationState
}

export interface DeclarationState {
  readonly kind: RouteKind
  readonly supported: readonly ApiVersion[]
  readonly deprecated: readonly ApiVersion[]
  /** The route's path carries the version (`/v:apiVersion/...`). */
  readonly inPath: boolean
  /** The path the router files the route under (`routePathKey`): `/orders/:id` and `/orders/:orderId` are one. */
  readonly pathKey: string
}
