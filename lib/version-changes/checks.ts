import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import { holds } from './conversion.js'
import { ruleNeeds } from './migration-needs.js'
import { holdsNamed } from './late-refs.js'
import { names, sameShape } from './schema-identity.js'
import { deriveSchema } from './schemas.js'
import type { SharedSchemas } from './shared-ref.js'
import type { ChangingRoutes, OtherRoute } from './routes.js'
import type { FieldRule } from './version-change.js'
import type { VersionList } from './version-list.js'
import type { Webhooks } from './webhooks.js'
import { versionsOfWebhook } from './endpoints.js'
import { stepsOf } from './version-steps.js'
import { endpointName } from './endpoint-names.js'

/**
 * Once every route is declared: each instruction that names a route or an endpoint names one that a
 * `versionChanges: true` route declares, and each field instruction fits its schema in its version, whether or
 * not a route holds the schema (it may be for `convertToApiVersion` only). A migration by schema must run somewhere:
 * a request's on a route that holds the schema in its version (requests come only from routes); a response's may
 * be for `convertToApiVersion` alone, unless a route holds a look-alike of its schema (one built again: matched by
 * identity, it would never run there). Throws, naming the version, the instruction and the fix.
 */
export function checkInstructions (list: VersionList, declared: ChangingRoutes, shared: SharedSchemas, warn: (message: string) => void, webhooks: Webhooks): void {
  const routes = declared.names
  const where = (k: number, at: string): string => `fastify-api-versioning: versionChanges: the change of ${list[k].text}, ${at}`
  checkLateSchemas(list, declared.late)
  // A schema built again, however alike, is another schema: the shapes of the routes' schemas show such a twin.
  const shapes = [...declared.schemas]
  const lookAlike = (schema: unknown): boolean => isObject(schema) && !declared.schemas.has(schema) && shapes.some(node => sameShape(node, schema))
  list.forEach(({ changes }, k) => {
    for (const change of changes) {
      for (const rule of [...change.requests, ...change.responses]) {
        if (rule.route !== null && !routes.has(endpointName(list, k, rule.route))) {
          throw coded(new Error(`${where(k, rule.at)}, names the route ${rule.route}, which no route declared with versionChanges: true is; name it as declared, method and URL with its prefix (${[...routes].join(', ') || 'none is declared'})`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
      for (const rule of change.requests) {
        if (rule.route === null && !declared.migrating.has(rule)) {
          throw coded(new Error(`${where(k, rule.at)}, names a schema that no route declared with versionChanges: true holds in the version before ${list[k].text}, so it would never run; give the route that very schema object (one built again, however alike, is another schema), or name the route instead ('POST /orders')`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
      for (const rule of change.responses) {
        if (rule.route === null && !declared.migrating.has(rule) && lookAlike(rule.schema)) {
          throw coded(new Error(`${where(k, rule.at)}, names a schema that no route declared with versionChanges: true holds, but a route holds one just like it: schemas are matched by identity, so it would never run there; give the route and the instruction the same schema object`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
      for (const rule of change.endpoints) {
        const missing = rule.methods.filter(method => !routes.has(endpointName(list, k, `${method} ${rule.url}`)))
        if (missing.length > 0) {
          throw coded(new Error(`${where(k, rule.at)}, names the endpoint ${missing.join(',')} ${rule.url}, which no route declared with versionChanges: true is; name it as declared, method and URL with its prefix (${[...routes].join(', ') || 'none is declared'})`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
      for (const rule of change.webhooks) {
        if (!webhooks.has(rule.name)) {
          throw coded(new Error(`${where(k, rule.at)}, names the webhook ${JSON.stringify(rule.name)}, which the webhooks option of the plugin does not declare (${[...webhooks.keys()].map(name => JSON.stringify(name)).join(', ') || 'it declares none'}); declare it there, with its payload's schema`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
    }
  })
  // A `$id` no route's schemas and no shared schema of the app's have: a name mistyped, or one for convertToApiVersion
  // alone (a schema object with that `$id`).
  list.forEach(({ changes }, k) => {
    for (const rule of changes.flatMap(change => [...change.fields, ...change.enums, ...change.responses])) {
      if (typeof rule.schema === 'string' && shared(rule.schema) === undefined && !declared.held.has(rule as FieldRule) && !declared.migrating.has(rule)) {
        warn(`${where(k, rule.at)}, names the schema '${rule.schema}', which no route holds and app.addSchema did not add: it converts only what convertToApiVersion is given with a schema of that $id; if it is meant for a route's, name it by the $id it was added with`)
      }
    }
  })
  // Each schema a field or enum instruction names, through every version: deriving it checks every instruction about it.
  const schemas = new Set<object>()
  for (const { changes } of list) {
    for (const rule of changes.flatMap(change => [...change.fields, ...change.enums])) {
      const schema = typeof rule.schema === 'string' ? shared(rule.schema) : rule.schema
      if (isObject(schema)) schemas.add(schema)
    }
  }
  for (const schema of schemas) {
    let at: unknown = schema
    for (let k = 0; k < list.length - 1; k++) at = deriveSchema(at, stepsOf(list)[k], shared)
  }
  // A field or enum instruction no route holds the schema of is for convertToApiVersion, unless a route holds its twin;
  // there what it needs is a response migration by a schema that is or holds it.
  list.forEach(({ changes }, k) => {
    for (const change of changes) {
      for (const rule of [...change.fields, ...change.enums]) {
        if (declared.held.has(rule)) continue
        if (lookAlike(rule.schema)) {
          throw coded(new Error(`${where(k, rule.at)}, names a schema that no route declared with versionChanges: true holds, but a route holds one just like it: schemas are matched by identity, so its routes would serve every version the newest shape; give the route and the instruction the same schema object`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
        const response = ruleNeeds(rule)?.response ?? null
        if (response !== null && !changes.some(other => other.responses.some(migration => migration.route === null && holds(migration.schema, rule, shared)))) {
          throw coded(new Error(`${where(k, rule.at)}: ${response}, so convertToApiVersion needs a response migration by the schema (no route holds it) to convert it for the version before; add one to that change`), 'FST_API_VERSIONING_INVALID_OPTION')
        }
      }
    }
  })
  warnDerived(list, declared, shared, where, warn)
  // Instructions that contradict each other throw: a webhook added where it exists already, or removed where not.
  for (const name of webhooks.keys()) versionsOfWebhook(list, name)
  checkOtherRoutes(list, declared.others)
}

/**
 * A schema a route holds that TypeBox made from one a field instruction names (`Type.Partial`, `Pick`, `Omit`,
 * `Composite`, or an object of its properties spread: some or all of the named schema's properties, each the very
 * schema or a one-level copy of it, in another object) is another schema:
 * its fields are not converted, and its older versions get the newest names. Warned of, not refused: two schemas may
 * share their properties' schemas by design.
 */
function warnDerived (list: VersionList, declared: ChangingRoutes, shared: SharedSchemas, where: (k: number, at: string) => string, warn: (message: string) => void): void {
  const fields = list.flatMap(({ changes }) => changes.flatMap(change => change.fields))
  list.forEach(({ changes }, k) => {
    for (const rule of changes.flatMap(change => change.fields)) {
      const named = typeof rule.schema === 'string' ? shared(rule.schema) : rule.schema
      const properties = isObject(named) && isObject(named.properties) ? named.properties : null
      if (properties === null || !Object.hasOwn(properties, rule.field)) continue
      for (const node of declared.schemas) {
        if (node === named || !isObject(node) || !isObject(node.properties) || !Object.hasOwn(node.properties, rule.field)) continue
        // Named by an instruction about the same field itself: converted.
        if (fields.some(other => other.field === rule.field && names(other, node))) continue
        const own = node.properties
        const keys = Object.keys(own)
        const common = keys.filter(key => Object.hasOwn(properties, key))
        const all = Object.keys(properties).length
        // Some of its properties (Pick, Omit) or all of them and more (Composite, its properties spread in an object).
        if ((common.length !== keys.length && common.length !== all) || !common.every(key => sameProperty(own[key], properties[key]))) continue
        // Made from it: all its properties alone (Partial), or one of them its very schema, or a copy holding its very
        // objects; a schema of its own whose scalar properties look alike is another schema.
        if ((keys.length !== all || common.length !== all) && !common.some(key => sharesObject(own[key] as Record<string, unknown>, properties[key] as Record<string, unknown>))) continue
        warn(`${where(k, rule.at)}, names a schema whose properties a route's schema has too (${keys.join(', ')}), in another object (as TypeBox's Type.Partial, Pick, Omit and Composite make one, or its properties spread): that schema is not converted, so older versions get its newest names; if it is made from the named one, name it in an instruction too (fields: [{ schema: <that schema>, field: '${rule.field}', ... }])`)
      }
    }
  })
}

// A property's schema, or a one-level copy of it (TypeBox's Optional): its keywords with the very same values.
function sameProperty (a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (!isObject(a) || !isObject(b)) return false
  const keys = Object.keys(b)
  return keys.length > 0 && Object.keys(a).length === keys.length && keys.every(key => a[key] === b[key])
}

// The keywords whose values are objects of a schema of its own, not made again by a one-level copy.
const HELD = ['properties', 'items', 'prefixItems', 'patternProperties', 'additionalProperties', 'enum', 'anyOf', 'oneOf', 'allOf'] as const

// The very schema, or a copy of it that holds one of its objects (its `properties`, `items`, `enum`).
function sharesObject (a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return a === b || HELD.some(key => b[key] !== undefined && a[key] === b[key])
}

/**
 * A route not declared with versionChanges: true that holds a schema a change changes serves its newest shape to
 * whoever calls it: refused, unless it serves only versions whose shape that is (the newest, or versions the list
 * has not: another API's).
 */
function checkOtherRoutes (list: VersionList, others: readonly OtherRoute[]): void {
  const rules = list.flatMap(({ changes }, k) => changes.flatMap(change => [...change.fields, ...change.enums].map(rule => ({ rule, k }))))
  if (rules.length === 0) return
  const older = new Set(list.slice(1).map(listed => listed.version.key))
  const olderOnes = (route: OtherRoute): string => route.versions.filter(version => older.has(version.key)).map(String).join(', ')
  for (const route of others) {
    if (route.kind === 'versioned' && !route.versions.some(version => older.has(version.key))) continue
    const parts = Object.entries(route.schema ?? {}).flatMap(([part, schema]) => part === 'response' && isObject(schema) ? Object.values(schema) : [schema])
    for (const { rule, k } of rules) {
      if (!parts.some(part => holds(part, rule, route.shared))) continue
      const serves = route.kind === 'plain' ? 'declares no version, so serves every client' : route.kind === 'neutral' ? 'is version-neutral, so serves every version' : `declares ${olderOnes(route)}, so serves ${olderOnes(route)}`
      throw coded(new Error(`fastify-api-versioning: route ${route.label} holds a schema that the change of ${list[k].text}, ${rule.at}, changes, but ${serves} the newest shape; declare it with versionChanges: true (one handler for every version), or with apiVersions: '${list[0].text}' alone`), 'FST_API_VERSIONING_INVALID_DECLARATION')
    }
  }
}

/**
 * A versionChanges route's versions are planned when it is declared: a shared schema it refers to that was added
 * after it, and that an instruction changes, would have its older versions served the newest shape. Throws, naming
 * the route, the schema and the fix.
 */
function checkLateSchemas (list: VersionList, late: ChangingRoutes['late']): void {
  if (late.length === 0) return
  const rules = list.flatMap(({ changes }) => changes.flatMap(change => [...change.fields, ...change.enums, ...[...change.requests, ...change.responses].filter(rule => rule.schema !== null)]))
  for (const { label, refs, shared } of late) {
    const changed = refs.find(ref => holdsNamed(ref, rules, shared))
    if (changed !== undefined) {
      throw coded(new Error(`fastify-api-versioning: route ${label}: its schema refers to the shared schema '${changed.split('#', 1)[0]}', which was added after the route, and the versionChanges option changes it; a versionChanges route's versions are planned when it is declared, so its older versions would get the newest shape: add the schema before the route (app.addSchema)`), 'FST_API_VERSIONING_LATE_SCHEMA')
    }
  }
}
