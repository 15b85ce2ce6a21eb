import type { ApiVersion } from '../api-version.js'

/** How a route takes part in versioning. */
export type RouteKind = 'versioned' | 'neutral' | 'plain'

/**
 * Set on the route that serves a `versionChanges` route's older versions: what makes the routes only the documents
 * have, one a shape of those versions (with its schema and its versions' declaration), as a route of them would be
 * documented.
 */
export const kDocumentedRoutes = Symbol.for('fastify-api-versioning.documentedRoutes')

/** Set on each route's options object by `apiVersioning`'s onRoute hook: the route's checked declaration. */
export const kDeclaration = Symbol.for('fastify-api-versioning.declaration')

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
  /**
   * Its URL with its prefix, as the plugin's onRoute hook was told it (what the `versionChanges` option's endpoint
   * instructions name): Fastify changes the url of a route declared '/' at a prefix's root afterwards.
   */
  readonly url: string
}
