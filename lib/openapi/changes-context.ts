import type { ChangesContext } from '../changes/changes-context.js'
import type { OpenApiDocument } from '../changes/document.js'
import { declaredRenames } from '../changes/renames.js'
import type { ResolvedOptions } from '../options.js'
import { SEPARATOR, type CollectedRoute } from './collect.js'

/** From the combined document: what each version's document writes in its own way. */
export function changesContext (combined: OpenApiDocument, routes: readonly CollectedRoute[], options: ResolvedOptions): ChangesContext {
  const templates: string[] = []
  for (const key of Object.keys(combined.paths)) {
    const cut = key.lastIndexOf(SEPARATOR)
    if (cut !== -1 && routes[Number(key.slice(cut + 1))].declaration.inPath) templates.push(key.slice(0, cut))
  }
  const versionParameters = new Set<string>()
  if (options.queryNames.length > 0) versionParameters.add(`query ${options.queryNames[0].toLowerCase()}`)
  if (options.headerNames.length > 0) versionParameters.add(`header ${options.headerNames[0].toLowerCase()}`)
  const versionHeaders = new Set(options.reportApiVersions ? [options.supportedHeader.toLowerCase(), options.deprecatedHeader.toLowerCase()] : [])
  return { versionParameters, versionHeaders, mediaType: options.mediaType, templates, segmentName: options.segmentName, renames: declaredRenames(options.versionList) }
}
