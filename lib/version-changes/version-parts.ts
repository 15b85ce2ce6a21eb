/**
 * A route's schema as one version of the list sees it (see deriveSchema), by its parts. A version no change touches
 * has the very object of the version after it.
 */
export interface VersionSchemas {
  readonly body?: unknown
  readonly querystring?: unknown
  readonly params?: unknown
  readonly headers?: unknown
  /**
   * By status key, as the route declares them (`200`, `2xx`, `default`): a Map, as an object keyed by a status
   * keeps an array as long as its number.
   */
  readonly response?: ReadonlyMap<string, unknown>
}
