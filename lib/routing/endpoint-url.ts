/**
 * On the options of a route that serves a `versionChanges` route at an older URL (version-changes/older-url.ts):
 * the URL of the endpoint it serves, as its route declares it, by which the instructions of every version name the
 * endpoint (see version-changes/endpoint-names.ts). A registry symbol: the openapi entry's build reads it.
 */
export const kEndpointUrl = Symbol.for('fastify-api-versioning.endpointUrl')

/**
 * The URL of the endpoint a route (its options) serves, as declared: its own (`url`, where it is other than the
 * options say), unless it serves the endpoint at an older URL.
 */
export function endpointUrlOf (route: { readonly url: string }, url = route.url): string {
  return (route as { [kEndpointUrl]?: string })[kEndpointUrl] ?? url
}

/**
 * On the same options: the index in the version list (0 the newest) of the change that moved the endpoint off the
 * route's URL. Its versions at that URL are older; the newer ones there may be another endpoint's.
 */
export const kMovedOffAt = Symbol('fastify-api-versioning.movedOffAt')

/** Where a route's endpoint left its URL (see kMovedOffAt); -1 for a route at its endpoint's declared URL. */
export function movedOffAt (route: object): number {
  return (route as { [kMovedOffAt]?: number })[kMovedOffAt] ?? -1
}
