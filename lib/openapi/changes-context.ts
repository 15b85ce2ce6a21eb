import type { ChangesContext } from '../changes/changes-context.js'
import type { OpenApiDocument } from '../changes/document.js'
import { declaredRenames } from '../changes/renames.js'
import { operationKey } from '../changes/compare-versions.js'
import { METHODS } from '../changes/operation-changes.js'
import type { ApiVersion } from '../api-version.js'
import type { ResolvedOptions } from '../options.js'
import { SEPARATOR, type CollectedRoute } from './collect.js'
import { hiddenFrom } from './endpoint-docs.js'

/** From the combined document: what each version's document writes in its own way. */
export function changesContext (combined: OpenApiDocument, routes: readonly CollectedRoute[], options: ResolvedOptions): ChangesContext {
  const templates: string[] = []
  const hidden: Array<{ version: ApiVersion, key: string }> = []
  for (const [key, item] of Object.entries(combined.paths)) {
    const cut = key.lastIndexOf(SEPARATOR)
    if (cut === -1) continue
    const route = routes[Number(key.slice(cut + 1))]
    if (route.declaration.inPath) templates.push(key.slice(0, cut))
    for (const method of METHODS) {
      const from = item[method] === undefined ? null : hiddenFrom(options.versionList, method.toUpperCase(), route.url)
      if (from !== null) hidden.push({ version: from, key: operationKey(key.slice(0, cut), method) })
    }
  }
  const versionParameters = new Set<string>()
  if (options.queryNames.length > 0) versionParameters.add(`query ${options.queryNames[0].toLowerCase()}`)
  if (options.headerNames.length > 0) versionParameters.add(`header ${options.headerNames[0].toLowerCase()}`)
  const versionHeaders = new Set(options.reportApiVersions ? [options.supportedHeader.toLowerCase(), options.deprecatedHeader.toLowerCase()] : [])
  return { versionParameters, versionHeaders, mediaType: options.mediaType, templates, segmentName: options.segmentName, renames: declaredRenames(options.versionList), hidden }
}
