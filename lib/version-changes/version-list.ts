import { ApiVersion, DECLARABLE, isDeclarable } from '../api-version.js'
import { coded } from '../errors.js'
import { messageOf } from '../util/server-error.js'
import { isObject } from '../util/is-object.js'
import { rulesOf, type ChangeRules, type VersionChange } from './version-change.js'
import { checkEndpointClashes } from './endpoint-clashes.js'

/** An entry of the `versionChanges` plugin option. */
export interface VersionChangesEntry {
  /** The version, as routes would declare it (`'2024-06-01'`, `'2.0'`). */
  version: string
  /** What this version changed from the version before it (the last, first version has none). */
  changes?: readonly VersionChange[]
  /** Reported in `api-deprecated-versions` and marked in its document, as `deprecatedApiVersions` does. */
  deprecated?: boolean
}

/** One version of the list, checked. */
export interface ListedVersion {
  readonly version: ApiVersion
  /** As declared. */
  readonly text: string
  readonly deprecated: boolean
  readonly changes: readonly ChangeRules[]
}

/** The versions of `versionChanges`, newest first: index 0 is the version the code is written for. */
export type VersionList = readonly ListedVersion[]

const KEYS = new Set(['version', 'changes', 'deprecated'])

function fail (message: string): never {
  throw coded(new TypeError(`fastify-api-versioning: versionChanges${message}`), 'FST_API_VERSIONING_INVALID_OPTION')
}

/** Checks the `versionChanges` option; null when it is not given. */
export function resolveVersionList (value: unknown): VersionList | null {
  if (value === undefined) return null
  if (!Array.isArray(value) || value.length === 0) fail(` must be a non-empty array of { version, changes?, deprecated? }, newest first (got ${messageOf(value)})`)
  const list = Array.from(value as unknown[]).map((entry, i): ListedVersion => {
    const at = `[${i}]`
    if (!isObject(entry)) fail(`${at} must be { version, changes?, deprecated? }`)
    for (const key of Object.keys(entry)) if (!KEYS.has(key)) fail(`${at} has an unknown option ${JSON.stringify(key)}; an entry has version, changes and deprecated`)
    const text = entry.version
    const version = typeof text === 'string' ? ApiVersion.tryParse(text) : null
    if (version === null) fail(`${at}.version must be an API version such as '2024-06-01' or '2.0' (got ${messageOf(text)})`)
    if (!isDeclarable(version)) fail(`${at}.version: ${DECLARABLE} (got ${JSON.stringify(text)})`)
    const changes = entry.changes === undefined ? [] : Array.isArray(entry.changes) ? Array.from(entry.changes as unknown[]) : null
    if (changes === null) fail(`${at}.changes must be an array of versionChange(...) (got ${messageOf(entry.changes)})`)
    const rules = changes.map((change, j) => rulesOf(change) ?? fail(`${at}.changes[${j}] must be made by versionChange({ description, ... }) (got ${messageOf(change)})`))
    if (entry.deprecated !== undefined && typeof entry.deprecated !== 'boolean') fail(`${at}.deprecated must be a boolean`)
    return Object.freeze({ version, text: text as string, deprecated: entry.deprecated === true, changes: Object.freeze(rules) })
  })
  // A change is what one version changed: listed under two, its migrations would run twice on one request.
  const listedAt = new Map<ChangeRules, string>()
  list.forEach(({ changes }, i) => changes.forEach((rules, j) => {
    const at = `[${i}].changes[${j}]`
    const earlier = listedAt.get(rules)
    if (earlier !== undefined) fail(`${at} is the change listed at ${earlier} too: a change is what one version changed, so list it once, under that version (make another with versionChange() for another version)`)
    listedAt.set(rules, at)
  }))
  // Strictly descending: a version listed twice anywhere breaks the order next to one of its places.
  for (let i = 1; i < list.length; i++) {
    const [newer, older] = [list[i - 1], list[i]]
    if (newer.version.equals(older.version)) fail(` lists ${older.text} twice ([${i - 1}] and [${i}]); list each version once`)
    if (newer.version.compareTo(older.version) < 0) fail(` must list the versions newest first, but ${older.text} ([${i}]) is newer than ${newer.text} ([${i - 1}])`)
  }
  const first = list[list.length - 1]
  if (first.changes.length > 0) fail(`[${list.length - 1}]: ${first.text} is the first version: there is no version before it to change from, so it has no changes`)
  checkEndpointClashes(list)
  return Object.freeze(list)
}
