import type { ErrorObjectsConfig } from './problems/error-objects.js'
import type { ResolvedOptions } from './options.js'
import type { VersioningRoute } from './routing/declaration-state.js'
import type { PathEntry } from './routing/route-table.js'
import type { SharedSchemas } from './version-changes/shared-ref.js'

/**
 * What `apiVersioning` knows that other entries (`fastify-api-versioning/openapi`) read: set on the instance,
 * under a registry symbol so that the ESM and CommonJS builds of both entries agree on it.
 */
export const kState = Symbol.for('fastify-api-versioning.state')

export interface ApiVersioningState {
  readonly options: ResolvedOptions
  /** The options of `errorObjects`, registered before `apiVersioning` (version errors are error objects), or null. */
  readonly errorObjects: ErrorObjectsConfig | null
  /** The versions of each router path (by `routePathKey`), sealed once the app is ready: what the version headers say. */
  readonly paths: ReadonlyMap<string, PathEntry>
  /** Every versioned and version-neutral route, as declared (complete once the app is ready). */
  readonly routes: readonly VersioningRoute[]
  /** The shared schemas of the plugin's instance: what the webhooks' payloads are read with. */
  readonly shared: SharedSchemas
  /**
   * What the release gate (the `fastify-api-versioning` command) reads, set by the openapi entry (one per
   * apiVersioning: a second comes after the first's routes, which it refuses): kept here, where the command finds
   * it from the app's root, even where the entry is registered in a plugin (under a prefix). A ReleaseGate
   * (changes/release-gate.ts), which this module, before changes/ in lib's flow, does not name; null until set.
   */
  releaseGate: unknown
}
