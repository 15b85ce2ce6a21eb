import type { ChangesContext } from '../changes/changes-context.js'
import type { OpenApiDocument } from '../changes/document.js'
import { declaredRenames } from '../changes/renames.js'
import { operationKey } from '../changes/compare-versions.js'
import { METHODS } from '../changes/operation-changes.js'
import type { ApiVersion } from '../api-version.js'
import type { VersionList } from '../version-changes/version-list.js'
import type { ResolvedOptions } from '../options.js'
import { SEPARATOR, type CollectedRoute } from './collect.js'

/** From the combined document: what each version's document writes in its own way. */
export function changesContext (combined: OpenApiDocument, routes: readonly CollectedRoute[], options: ResolvedOptions): ChangesContext {
  const templates: string[] = []
  const hidden: Array<{ version: ApiVersion, key: string }> = []
  const hiding = hidingRules(options.versionList)
  for (const [key, item] of Object.entries(combined.paths)) {
    const cut = key.lastIndexOf(SEPARATOR)
    if (cut === -1) continue
    const route = routes[Number(key.slice(cut + 1))]
    if (route.declaration.inPath) templates.push(key.slice(0, cut))
    for (const method of METHODS) {
      const from = item[method] === undefined ? undefined : hiding.get(`${method.toUpperCase()} ${route.url}`)
      if (from !== undefined) hidden.push({ version: from, key: operationKey(key.slice(0, cut), method) })
    }
  }
  const versionParameters = new Set<string>()
  if (options.queryNames.length > 0) versionParameters.add(`query ${options.queryNames[0].toLowerCase()}`)
  if (options.headerNames.length > 0) versionParameters.add(`header ${options.headerNames[0].toLowerCase()}`)
  const versionHeaders = new Set(options.reportApiVersions ? [options.supportedHeader.toLowerCase(), options.deprecatedHeader.toLowerCase()] : [])
  return { versionParameters, versionHeaders, mediaType: options.mediaType, templates, segmentName: options.segmentName, renames: declaredRenames(options.versionList), hidden }
}

// The version from which each endpoint (`GET /orders/:id`) is hidden: the oldest that says so.
function hidingRules (list: VersionList | null): Map<string, ApiVersion> {
  const from = new Map<string, ApiVersion>()
  for (const { version, changes } of list ?? []) {
    for (const rule of changes.flatMap(change => change.endpoints)) {
      if (rule.kind === 'hidden') for (const method of rule.methods) from.set(`${method} ${rule.url}`, version)
    }
  }
  return from
}
