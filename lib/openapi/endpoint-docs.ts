import type { ApiVersion } from '../api-version.js'
import { endpointName } from '../version-changes/endpoint-names.js'
import type { EndpointDocs, EndpointRule } from '../version-changes/version-change.js'
import type { VersionList } from '../version-changes/version-list.js'
import type { OperationObject } from './parameters.js'

/** An endpoint's documentation instructions, each with the version that made it, newest first. */
type Instructions = ReadonlyArray<{ readonly version: ApiVersion, readonly rule: EndpointRule }>

// The documentation instructions of a list, by endpoint (`GET /orders/:id`, by its name, see endpoint-names.ts):
// found once a list.
const indexes = new WeakMap<VersionList, ReadonlyMap<string, Instructions>>()

function indexOf (list: VersionList): ReadonlyMap<string, Instructions> {
  let index = indexes.get(list)
  if (index === undefined) {
    const found = new Map<string, Array<Instructions[number]>>()
    // Newest first.
    list.forEach(({ version, changes }, k) => {
      for (const rule of changes.flatMap(change => change.endpoints)) {
        if (rule.kind === 'added' || rule.kind === 'removed') continue
        for (const method of rule.methods) {
          const key = endpointName(list, k, `${method} ${rule.url}`)
          found.set(key, [...found.get(key) ?? [], { version, rule }])
        }
      }
    })
    indexes.set(list, index = found)
  }
  return index
}

/**
 * An operation of a version's document as the `versionChanges` option documents its endpoint (`method` upper
 * case, `url` as the route declares it) in that version: what older versions' documents show otherwise (of each
 * field, the instruction of the closest change after the version), and deprecated from the change that says so on.
 */
export function documentEndpoint (operation: OperationObject, list: VersionList | null, version: ApiVersion, method: string, url: string): void {
  const instructions = list === null ? undefined : indexOf(list).get(`${method} ${url}`)
  if (instructions === undefined) return
  const docs: EndpointDocs = {}
  // Newest first: an older change's text wins for the versions before it.
  for (const { version: changed, rule } of instructions) {
    if (rule.kind === 'deprecated') {
      if (changed.compareTo(version) <= 0) operation.deprecated = true
    } else if (rule.kind === 'changed' && changed.compareTo(version) > 0) {
      Object.assign(docs, rule.docs)
    }
  }
  const target = operation as Record<string, unknown>
  for (const [key, value] of Object.entries(docs)) target[key] = Array.isArray(value) ? [...value] : value
}

/**
 * The version from which the `versionChanges` option hides the endpoint (`method` upper case, `url` as declared)
 * from the documents: the oldest change that says so; null where none does.
 */
export function hiddenFrom (list: VersionList | null, method: string, url: string): ApiVersion | null {
  let from: ApiVersion | null = null
  // Newest first: the last one found is the oldest.
  for (const { version, rule } of list === null ? [] : indexOf(list).get(`${method} ${url}`) ?? []) if (rule.kind === 'hidden') from = version
  return from
}

/** Whether the endpoint is left out of a version's document (see hiddenFrom). */
export function isHiddenEndpoint (list: VersionList | null, version: ApiVersion, method: string, url: string): boolean {
  const from = hiddenFrom(list, method, url)
  return from !== null && from.compareTo(version) <= 0
}
