import { isDeepStrictEqual } from 'node:util'
import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import { deriveSchema } from './schemas.js'
import type { SharedSchemas } from './shared-ref.js'
import type { ChangingRoutes } from './routes.js'
import type { VersionList } from './version-list.js'

function lookAlike (schema: unknown, held: ReadonlySet<object>): boolean {
  if (typeof schema !== 'object') return false
  for (const node of held) if (node !== schema && isDeepStrictEqual(node, schema)) return true
  return false
}

/**
 * Once every route is declared: each instruction that names a route or an endpoint names one that a
 * `versionChanges: true` route declares, and each field instruction fits its schema in its version, whether or
 * not a route holds the schema (it may be for `convertToApiVersion` only). A migration by schema must run somewhere:
 * a request's on a route that holds the schema in its version (requests come only from routes); a response's may
 * be for `convertToApiVersion` alone, unless a route holds a look-alike of its schema (one built again: matched by
 * identity, it would never run there). Throws, naming the version, the instruction and the fix.
 */
export function checkInstructions (list: VersionList, declared: ChangingRoutes, shared: SharedSchemas): void {
  const routes = declared.names
  const where = (k: number, at: string): string => `fastify-api-versioning: versionChanges: the change of ${list[k].text}, ${at}`
  list.forEach(({ changes }, k) => {
    for (const change of changes) {
      for (const rule of [...change.requests, ...change.responses]) {
        if (rule.route !== null && !routes.has(rule.route)) {
          throw coded(new Error(`${where(k, rule.at)}, names the route ${rule.route}, which no route declared with versionChanges: true is; name it as declared, method and URL with its prefix (${[...routes].join(', ') || 'none is declared'})`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
      for (const rule of change.requests) {
        if (rule.route === null && !declared.migrating.has(rule)) {
          throw coded(new Error(`${where(k, rule.at)}, names a schema that no route declared with versionChanges: true holds in the version before ${list[k].text}, so it would never run; give the route that very schema object (one built again, however alike, is another schema), or name the route instead ('POST /orders')`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
      for (const rule of change.responses) {
        if (rule.route === null && !declared.migrating.has(rule) && lookAlike(rule.schema, declared.schemas)) {
          throw coded(new Error(`${where(k, rule.at)}, names a schema that no route declared with versionChanges: true holds, but a route holds one just like it: schemas are matched by identity, so it would never run there; give the route and the instruction the same schema object`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
      for (const rule of change.endpoints) {
        if (!rule.methods.some(method => routes.has(`${method} ${rule.url}`))) {
          throw coded(new Error(`${where(k, rule.at)}, names the endpoint ${rule.methods.join(',')} ${rule.url}, which no route declared with versionChanges: true is; name it as declared, method and URL with its prefix (${[...routes].join(', ') || 'none is declared'})`), 'FST_API_VERSIONING_INVALID_OPTION')
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
