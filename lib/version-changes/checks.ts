import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import { deriveSchema } from './schemas.js'
import type { SharedSchemas } from './shared-ref.js'
import type { VersionList } from './version-list.js'

/**
 * Once every route is declared: each instruction that names a route or an endpoint names one that a
 * `versionChanges: true` route declares (`routes`: their `'GET /orders'` names), and each field instruction fits
 * its schema in its version, whether or not a route holds the schema (it may be for `convertToApiVersion` only).
 * Throws, naming the version, the instruction and the fix.
 */
export function checkInstructions (list: VersionList, routes: ReadonlySet<string>, shared: SharedSchemas): void {
  const where = (k: number, at: string): string => `fastify-api-versioning: versionChanges: the change of ${list[k].text}, ${at}`
  list.forEach(({ changes }, k) => {
    for (const change of changes) {
      for (const rule of [...change.requests, ...change.responses]) {
        if (rule.route !== null && !routes.has(rule.route)) {
          throw coded(new Error(`${where(k, rule.at)}, names the route ${rule.route}, which no route declared with versionChanges: true is; name it as declared, method and URL with its prefix (${[...routes].join(', ') || 'none is declared'})`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
      for (const rule of change.endpoints) {
        if (!rule.methods.some(method => routes.has(`${method} ${rule.url}`))) {
          throw coded(new Error(`${where(k, rule.at)}, names the endpoint ${rule.methods.join(',')} ${rule.url}, which no route declared with versionChanges: true is; name it as declared, method and URL with its prefix`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
    }
  })
  // Each schema a field instruction names, through every version: deriving it checks every instruction about it.
  const schemas = new Set<object>()
  for (const { changes } of list) {
    for (const rule of changes.flatMap(change => change.fields)) {
      const schema = typeof rule.schema === 'string' ? shared(rule.schema) : rule.schema
      if (isObject(schema)) schemas.add(schema)
    }
  }
  for (const schema of schemas) {
    let at: unknown = schema
    for (let k = 0; k < list.length - 1; k++) at = deriveSchema(at, { version: list[k].text, rules: list[k].changes.flatMap(change => change.fields) }, shared)
  }
}
