import type { ApiVersion } from '../api-version.js'
import { isRetired } from '../lifecycle/policies.js'
import { selectAtStartup } from '../lifecycle/selectors.js'
import type { ResolvedOptions } from '../options.js'
import type { DeclarationState } from '../routing/declaration-state.js'

/** A documented operation: its method (lower-case, as in a path item) and its route's declaration. */
export interface DocumentedOperation {
  readonly method: string
  readonly declaration: DeclarationState
}

/**
 * The version a request that gives none is served on each method and path, as the server picks it at `time`: the
 * document of that version alone may call the version parameter optional. The selector sees what the router node
 * sees, every version any route implements on the method and path (a version past its enforced sunset no more).
 * Null where no version is assumed, and for a function selector, which picks per request and so promises none.
 */
export function assumedVersions (
  operations: Iterable<DocumentedOperation>, options: ResolvedOptions, time: number
): (method: string, declaration: DeclarationState) => ApiVersion | null {
  const { apiVersionSelector: selector, defaultVersion } = options
  if (!options.assumeDefaultVersionWhenUnspecified || typeof selector === 'function') return () => null
  if (selector === 'default') return () => defaultVersion
  const live = (version: ApiVersion): boolean => !isRetired(options.policies.get(version.key), time)
  const implemented = new Map<string, { supported: ApiVersion[], deprecated: ApiVersion[] }>()
  for (const { method, declaration } of operations) {
    const key = `${method} ${declaration.pathKey}`
    const found = implemented.get(key) ?? { supported: [], deprecated: [] }
    implemented.set(key, found)
    found.supported.push(...declaration.supported.filter(live))
    found.deprecated.push(...declaration.deprecated.filter(live))
  }
  const picked = new Map<string, ApiVersion>()
  for (const [key, { supported, deprecated }] of implemented) picked.set(key, selectAtStartup(selector, supported, deprecated, defaultVersion) as ApiVersion)
  return (method, declaration) => picked.get(`${method} ${declaration.pathKey}`) as ApiVersion
}
