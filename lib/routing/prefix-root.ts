/**
 * Set on a route the plugin registers beside another at a prefix's root (an older versions' route, a route of
 * another of its methods): that route. Fastify serves a route declared `'/'` under a prefix at `/prefix` and, with
 * `prefixTrailingSlash: 'both'`, at `/prefix/` too, but tells its `onRoute` hooks of the first alone, as of a route
 * declared `''`: such a route is registered with `'/'`, and where its route turns out to be at `/prefix` alone, its
 * requests to `/prefix/` go to the not-found handler (see routing/route-hooks.ts, prefixRoot).
 */
export const kPrefixRootOf = Symbol('fastify-api-versioning.prefixRootOf')

interface Route { readonly routePath: string, readonly prefix: string, readonly [kPrefixRootOf]?: Route }

/**
 * The url to register a route of `method` beside `route` with, and what marks it as such. Fastify gives a HEAD route
 * the path of each route of its GET, as it does the GET route's own.
 */
export function besideRoute (route: Route, method: string): { url: string, path: string, [kPrefixRootOf]?: Route } {
  if (route.routePath !== '' || route.prefix === '' || method === 'HEAD') return { url: route.routePath, path: route.routePath }
  // Beside a route registered beside another (the older versions' route of another method's): beside that other.
  return { url: '/', path: '/', [kPrefixRootOf]: route[kPrefixRootOf] ?? route }
}

/** Whether Fastify serves a route at its prefix's root with a slash too: the route it was registered beside, if any. */
export function servedWithSlash (route: Route): boolean {
  return (route[kPrefixRootOf] ?? route).routePath === '/'
}

/**
 * The url of the GET route a HEAD route answers for, as its onRoute hooks were told it. Fastify adds the HEAD route
 * of a GET route declared '/' at a prefix's root at `/prefix/` alone, while the GET route was told `/prefix`.
 */
export function getUrlOfHead (head: Route & { readonly url: string, readonly prefixTrailingSlash?: string }): string {
  return head.routePath === '/' && head.prefix !== '' && head.prefixTrailingSlash !== 'slash' ? head.prefix : head.url
}
