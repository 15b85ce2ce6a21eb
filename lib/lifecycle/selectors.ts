/**
 * Version selectors (option `apiVersionSelector`): which version a request that gives none is served, when
 * `assumeDefaultVersionWhenUnspecified` is on. The named selectors are resolved per method and path at start-up;
 * only a function selector runs per request.
 */
import type { IncomingMessage } from 'node:http'
import { ApiVersion } from '../api-version.js'
import { coded } from '../errors.js'
import { droppedPromise, isAsyncFunction } from '../util/is-thenable.js'

export interface SelectorContext {
  /** The raw request: the selector runs while the router picks the route, before Fastify's request exists. */
  readonly request: IncomingMessage
  /** The versions implemented on this method and path, frozen. */
  readonly supported: readonly ApiVersion[]
  /** The deprecated versions implemented on this method and path (still routable), frozen. */
  readonly deprecated: readonly ApiVersion[]
}

/** Returns the version to serve; it must be one implemented on this method and path, or the request is Unsupported. */
export type SelectorFunction = (context: SelectorContext) => ApiVersion | string

/**
 * `'default'`: `defaultVersion`. `'current'`: the highest implemented version without a status, deprecated ones
 * included, else `defaultVersion`. `'lowest'`: the same, lowest. A function: chosen per request.
 */
export type Selector = 'default' | 'current' | 'lowest' | SelectorFunction

/** Checks the `apiVersionSelector` option; undefined means `'default'`. */
export function resolveSelector (value: unknown): Selector {
  if (value === undefined) return 'default'
  // A version chosen per request is needed while the router picks the route: it cannot wait for one.
  if (isAsyncFunction(value)) throw coded(new TypeError('fastify-api-versioning: apiVersionSelector must return a version synchronously, but it is an async function; choose the version without await'), 'FST_API_VERSIONING_INVALID_OPTION')
  if (value === 'default' || value === 'current' || value === 'lowest' || typeof value === 'function') return value as Selector
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 64 ? value.slice(0, 64) + '…' : value) : value === null ? 'null' : typeof value
  throw coded(new TypeError(`fastify-api-versioning: apiVersionSelector must be 'default', 'current', 'lowest' or a function ({ request, supported, deprecated }) => version (got ${shown})`), 'FST_API_VERSIONING_INVALID_OPTION')
}

/**
 * The version a named selector picks from what one method and path implements, or null for a function selector
 * (which must run per request). As ASP.NET's Current/LowestImplementedApiVersionSelector: a version with a status
 * (`3.0-beta`) is never picked, a deprecated one may be, and `defaultVersion` is the fallback when none fits.
 */
export function selectAtStartup (
  selector: Selector,
  supported: readonly ApiVersion[],
  deprecated: readonly ApiVersion[],
  defaultVersion: ApiVersion
): ApiVersion | null {
  if (typeof selector === 'function') return null
  if (selector === 'default') return defaultVersion
  const sign = selector === 'current' ? 1 : -1
  let best: ApiVersion | null = null
  for (const version of [...supported, ...deprecated]) {
    if (version.status === null && (best === null || sign * version.compareTo(best) > 0)) best = version
  }
  return best ?? defaultVersion
}

/** One step of a static selection over time: `version` is picked from `from` (ms; -Infinity at first) on. */
export interface TimedSelection {
  readonly from: number
  readonly version: ApiVersion
}

/**
 * `selectAtStartup` for a method and path whose versions can retire. An enforced sunset takes a version out of what
 * is implemented from its date on, which can change what `'current'` or `'lowest'` picks (a `'lowest'` pick is the
 * likeliest to be retired). `retiresAt` gives a version's enforced sunset in ms, or null. The steps come in time
 * order, each differing from the one before; a request takes the last whose `from` is not after now, so with no
 * enforced sunset there is one step and nothing to compare. Null for a function selector.
 */
export function selectOverTime (
  selector: Selector,
  supported: readonly ApiVersion[],
  deprecated: readonly ApiVersion[],
  defaultVersion: ApiVersion,
  retiresAt: (version: ApiVersion) => number | null
): readonly TimedSelection[] | null {
  const first = selectAtStartup(selector, supported, deprecated, defaultVersion)
  if (first === null) return null
  const steps: TimedSelection[] = [Object.freeze({ from: -Infinity, version: first })]
  const instants = [...new Set([...supported, ...deprecated].map(retiresAt).filter(at => at !== null))].sort((a, b) => a - b)
  for (const at of instants) {
    const live = (version: ApiVersion): boolean => { const end = retiresAt(version); return end === null || end > at }
    const version = selectAtStartup(selector, supported.filter(live), deprecated.filter(live), defaultVersion) as ApiVersion
    if (!version.equals(steps[steps.length - 1].version)) steps.push(Object.freeze({ from: at, version }))
  }
  return Object.freeze(steps)
}

/**
 * Runs a function selector for one request. Never throws: a selector that throws, returns a promise or returns
 * something that is not a version yields null and is reported to `onError` (for the request's log); a valid
 * version this method and path does not implement yields null without a report, since that is the client's
 * Unsupported case. The version returned is the one as the route declared it (`'1'` selects a declared `1.0`).
 */
export function selectPerRequest (
  fn: SelectorFunction,
  request: IncomingMessage,
  supported: readonly ApiVersion[],
  deprecated: readonly ApiVersion[],
  onError?: (error: Error) => void
): ApiVersion | null {
  let version: ApiVersion
  try {
    version = toVersion(fn({ request, supported: frozen(supported), deprecated: frozen(deprecated) }))
  } catch (error) {
    onError?.(error instanceof Error ? error : coded(new Error(`fastify-api-versioning: apiVersionSelector threw ${describe(error)}`), 'FST_API_VERSIONING_SELECTOR_FAILED'))
    return null
  }
  for (const implemented of supported) if (implemented.key === version.key) return implemented
  for (const implemented of deprecated) if (implemented.key === version.key) return implemented
  return null
}

function frozen (list: readonly ApiVersion[]): readonly ApiVersion[] {
  return Object.isFrozen(list) ? list : Object.freeze([...list])
}

// Throws a TypeError for what is not a version; the caller reports it.
function toVersion (value: unknown): ApiVersion {
  if (value instanceof ApiVersion) return value
  if (typeof value === 'string') {
    const version = ApiVersion.tryParse(value)
    if (version === null) throw coded(new TypeError(`fastify-api-versioning: apiVersionSelector returned ${describe(value)}, which is not an API version`), 'FST_API_VERSIONING_SELECTOR_FAILED')
    return version
  }
  if (droppedPromise(value)) {
    throw coded(new TypeError('fastify-api-versioning: apiVersionSelector returned a promise; it must return a version synchronously'), 'FST_API_VERSIONING_SELECTOR_FAILED')
  }
  // An object shaped like an ApiVersion without its brand (a copy of the package older than the brand) parses by its text.
  const version = typeof (value as { key?: unknown } | null)?.key === 'string' ? ApiVersion.tryParse(String(value)) : null
  if (version === null) throw coded(new TypeError(`fastify-api-versioning: apiVersionSelector returned ${describe(value)}, which is not an API version`), 'FST_API_VERSIONING_SELECTOR_FAILED')
  return version
}

function describe (value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? value.slice(0, 64) + '…' : value)
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value === 'function' ? 'a function' : String(value)
}
