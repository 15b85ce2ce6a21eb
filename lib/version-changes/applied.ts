import type { ApiVersion } from '../api-version.js'
import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import { messageOf } from '../util/server-error.js'

/**
 * Where an app keeps the version of each change its `versionChanges` option lists (by the change's rules): on the
 * instance, so that a request finds its own app's through `request.server`, and a change listed in several apps
 * (one per test) has each app's version; under a registry symbol, so that either build of the package reads it.
 */
export const kChangeVersions = Symbol.for('fastify-api-versioning.changeVersions')

export type ChangeVersions = ReadonlyMap<object, ApiVersion>

/** The version of each change of a `versionChanges` list (none without one). */
export function changeVersions (list: ReadonlyArray<{ readonly version: ApiVersion, readonly changes: readonly object[] }> | null): ChangeVersions {
  const versions = new Map<object, ApiVersion>()
  for (const { version, changes } of list ?? []) for (const rules of changes) versions.set(rules, version)
  return versions
}

function fail (message: string): never {
  throw coded(new Error(`fastify-api-versioning: change.isAppliedTo(request)${message}`), 'FST_API_VERSIONING_CHANGE_NOT_LISTED')
}

/**
 * Whether the version `request` is served as is the change's (`rules`, listed in the request's app) or later. A
 * request served as no version (a neutral route asked for none, an unversioned route) runs the code as written,
 * for the newest version, so every change applies to it, as Cadwyn's `is_applied` has it.
 */
export function isAppliedTo (rules: object, description: string, request: unknown): boolean {
  if (!isObject(request) || !isObject(request.server)) fail(` needs the Fastify request of a handler or hook (got ${messageOf(request)})`)
  const versions = request.server[kChangeVersions as unknown as string] as ChangeVersions | undefined
  const from = versions?.get(rules)
  if (from === undefined) {
    fail(`: the change ${JSON.stringify(description)} is in no version of the versionChanges option of this request's app, ` +
      (versions === undefined ? 'where apiVersioning is not registered (not in the scope of the request\'s route); register it there with the change listed under the version that made it' : 'so it has no version to compare the request\'s with; list it there, under the version that made it'))
  }
  const version = request.apiVersion as ApiVersion | null | undefined
  return version == null || from.compareTo(version) <= 0
}
