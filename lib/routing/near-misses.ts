import { DECLARATION_OPTIONS } from './route-table.js'
import { hasParam } from './route-path.js'

// Route options a JS user may write for ours: without a word they would be ignored.
const NEAR_MISSES: Record<string, string> = {
  apiVersion: 'apiVersions',
  version: 'apiVersions',
  versions: 'apiVersions',
  deprecatedApiVersion: 'deprecatedApiVersions',
  advertisedApiVersion: 'advertisedApiVersions',
  advertisedDeprecatedApiVersion: 'advertisedDeprecatedApiVersions',
  apiVersionsNeutral: 'apiVersionNeutral',
  versionNeutral: 'apiVersionNeutral'
}
// Route parameter names a versioned route may mean for the version in the path.
const PARAMS = /:(api-?version|version|ver|v)(?=$|[/.\-(])/i

/**
 * Warns of near misses of the route options, once per path and option (a GET route's HEAD route has the same),
 * of a versioned route whose path names the version otherwise than `segmentName` (null: not read there), and of a
 * route that declares no versions but has the `segmentName` parameter, where it reads none.
 */
export function createNearMissWarnings (warn: (message: string) => void, segmentName: string | null) {
  const warned = new Set<string>()
  return function check (route: { url: string, config?: unknown }, label: string, kind: 'versioned' | 'neutral' | 'plain'): void {
    const config = (route.config ?? {}) as Record<string, unknown>
    const once = (option: string, message: string): void => {
      if (warned.has(route.url + ' ' + option)) return
      warned.add(route.url + ' ' + option)
      warn(`fastify-api-versioning: route ${label} has ${option}, which is ignored; ${message}`)
    }
    for (const name of Object.keys(NEAR_MISSES)) {
      if (name in route) once(`the option ${name}`, `did you mean ${NEAR_MISSES[name]}?`)
    }
    for (const name of [...DECLARATION_OPTIONS, ...Object.keys(NEAR_MISSES)]) {
      if (name in config) once(`config.${name}`, `${NEAR_MISSES[name] ?? name} is a route option, beside config`)
    }
    if (kind === 'plain' && segmentName !== null && hasParam(route.url, segmentName)) {
      once(`the path parameter :${segmentName}`, 'it declares no versions, so the version its path names is not read and any text is taken: declare apiVersions (or apiVersionNeutral: true) on it, or name the parameter otherwise')
    }
    const param = kind === 'versioned' ? PARAMS.exec(route.url) : null
    if (param !== null && param[1] !== segmentName) {
      once(`the path parameter :${param[1]}`, segmentName === null
        ? 'the version is not read from the path (versionReader.urlSegment is false)'
        : `the version in the path is read from :${segmentName} (versionReader.urlSegment), as in /v:${segmentName}/...`)
    }
  }
}
