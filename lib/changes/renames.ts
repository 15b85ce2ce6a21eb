import { ApiVersion } from '../api-version.js'
import type { VersionList } from '../version-changes/version-list.js'

/** A field's name in an earlier version, and in a later one. */
export type Rename = readonly [older: string, newer: string]

/** The renames the `versionChanges` option declares for one version (`renamedFrom`): what it renamed. */
export interface DeclaredRenames {
  readonly version: ApiVersion
  readonly renames: readonly Rename[]
}

/** The renames of the `versionChanges` option, oldest version first; none without it. */
export function declaredRenames (list: VersionList | null): readonly DeclaredRenames[] {
  return (list ?? []).map(({ version, changes }) => ({
    version,
    renames: changes.flatMap(change => change.fields).flatMap(rule => rule.kind === 'renamed' ? [[rule.renamedFrom as string, rule.field] as const] : [])
  })).filter(entry => entry.renames.length > 0).reverse()
}

/**
 * The renames from version `from` to version `to`: those of the versions after `from`, up to `to`, each name
 * followed through them (`a` to `b` in one, `b` to `c` in the next: `a` to `c`, where a version between them is
 * not served). None from a version to itself: a rename inside a released version is no declared change.
 */
export function renamesBetween (declared: readonly DeclaredRenames[], from: string, to: string): Rename[] {
  const earlier = ApiVersion.parse(from)
  const later = ApiVersion.parse(to)
  const found: Rename[] = []
  for (const { version, renames } of declared) {
    if (version.compareTo(earlier) <= 0 || version.compareTo(later) > 0) continue
    for (const [older, newer] of renames) {
      // Each step is kept too: two schemas may use one name, one renaming it on.
      for (const [first, last] of [...found]) if (last === older) found.push([first, newer])
      found.push([older, newer])
    }
  }
  return found
}
