import type { FastifySchema } from 'fastify'
import { coded } from '../errors.js'
import { decodes, pointer } from '../util/json-pointer.js'
import { SCHEMA_MAPS } from '../util/schema-maps.js'

type Schema = Record<string, unknown>

/** Finds a shared schema by its `$id` as the route's instance knows them (`instance.getSchema`), or undefined. */
export type SharedSchemas = (id: string) => unknown

/** The names a versioned or neutral route's validation must let through, by schema part. */
export interface VersionNames {
  /** The version query names. */
  readonly querystring: readonly string[]
  /** The version's route parameter, on a route whose path carries it. */
  readonly params: readonly string[]
}

/** A route's schema with the version names allowed, and a check to run once the app is ready, or null. */
export interface AllowedSchema {
  readonly schema: FastifySchema | undefined
  readonly checkLate: (() => void) | null
}

// Keywords whose schemas validate the same object, and so may forbid names just as the schema itself does.
const COMPOSED = ['allOf', 'anyOf', 'oneOf'] as const
const CONDITIONAL = ['if', 'then', 'else'] as const

interface Walk {
  readonly names: readonly string[]
  readonly shared: SharedSchemas
  /** The route part's own schema, where its local references (`#/definitions/...`) point. */
  readonly root: Schema
  /** References to shared schemas not known yet (added after the route). */
  readonly late: string[]
  /** The references being followed, to stop at a cycle. */
  readonly following: string[]
  /** The route and the part of its schema, as a start-up error names them. */
  readonly label: string
  readonly part: string
}

interface Target {
  readonly schema: Schema
  /** The `$id` its own references resolve against ('' within the route's schema). */
  readonly base: string
  /** The reference, absolute. */
  readonly ref: string
}

/**
 * A versioned or neutral route's schema, with the version names allowed wherever a schema of the querystring (or
 * of the params, for the route parameter) forbids names it does not list (`additionalProperties: false`, as
 * TypeBox users write it, `unevaluatedProperties: false`, `propertyNames`): the plugin reads those names, so
 * validation must not reject them, and other unknown names are still rejected. The forbidding schema may be the
 * part itself, a member of `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, or what a `$ref` reaches (a shared
 * schema, a JSON pointer into one, or a local definition): a reference that needs the names is replaced by a copy
 * of what it reaches, whose own references are made absolute so that they resolve as before. The app's schema
 * objects, perhaps shared with other routes, are never changed. A shared schema added after the route cannot be
 * extended: `checkLate` fails start-up, naming the route, if it forbids the names.
 */
export function allowVersionNames (schema: FastifySchema | undefined, names: VersionNames, shared: SharedSchemas, label: string): AllowedSchema {
  if (!isSchema(schema)) return { schema, checkLate: null }
  let out: Schema = schema
  const checks: Array<() => void> = []
  const parts: Array<[string, readonly string[]]> = [
    [schema.querystring !== undefined ? 'querystring' : 'query', names.querystring],
    ['params', names.params]
  ]
  for (const [part, partNames] of parts) {
    const given = schema[part]
    if (partNames.length === 0 || !isSchema(given)) continue
    const walk: Walk = { names: partNames, shared, root: given, late: [], following: [], label, part }
    if (needs(given, '', walk)) out = { ...out, [part]: build(given, '', walk) }
    const late = walk.late
    if (late.length > 0) checks.push(() => checkLate(late, { ...walk, late: [], following: [] }))
  }
  return { schema: out as FastifySchema, checkLate: checks.length === 0 ? null : () => { for (const check of checks) check() } }
}

// Once the app is ready every shared schema is known: one that came too late and forbids the names fails start-up.
function checkLate (late: readonly string[], walk: Walk): void {
  for (const ref of late) {
    const target = follow(ref, '', walk)
    if (target === null || !needs(target.schema, target.base, walk)) continue
    const listed = walk.names.map(name => `'${name}'`).join(' and ')
    throw coded(new Error(`fastify-api-versioning: route ${walk.label}: its ${walk.part} schema ${ref} forbids names it does not list, and was added after the route, so the plugin could not add the version names to it; add the schema before the route (app.addSchema), or add ${listed} to its properties, e.g. '${walk.names[0]}': { type: 'string' }`), 'FST_API_VERSIONING_LATE_SCHEMA')
  }
}

/** True when the schema, or a schema it is composed of or refers to, forbids a name that it does not list. */
function needs (node: unknown, base: string, walk: Walk): boolean {
  if (!isSchema(node)) return false
  if (typeof node.$ref === 'string') {
    const target = follow(node.$ref, base, walk)
    if (target === null || walk.following.includes(target.ref)) return false
    walk.following.push(target.ref)
    const result = needs(target.schema, target.base, walk)
    walk.following.pop()
    return result
  }
  if (typeof node.$id === 'string') base = resolve(base, node.$id)
  if (forbids(node, walk.names)) return true
  for (const key of COMPOSED) {
    const members = node[key]
    if (Array.isArray(members) && members.some(member => needs(member, base, walk))) return true
  }
  return CONDITIONAL.some(key => needs(node[key], base, walk))
}

/**
 * A copy of a schema that `needs` the names, with them allowed; its references resolve as the schema's did. What
 * a reference reaches is `copied`: it keeps no plain name, which its original still holds.
 */
function build (node: Schema, base: string, walk: Walk, copied = false): Schema {
  if (typeof node.$ref === 'string') {
    // `needs` found what it reaches, and no cycle on the way.
    const target = follow(node.$ref, base, walk) as Target
    walk.following.push(target.ref)
    const built = build(target.schema, target.base, walk, true)
    walk.following.pop()
    return built
  }
  // Without its $id, which would name two different schemas; what it based references on becomes their base.
  if (typeof node.$id === 'string') base = resolve(base, node.$id)
  const { $id, ...rest } = node
  const out = rebase(rest, base, copied)
  for (const key of COMPOSED) {
    const members = node[key]
    if (Array.isArray(members)) out[key] = members.map(member => needs(member, base, walk) ? build(member, base, walk, copied) : rebase(member, base, copied))
  }
  for (const key of CONDITIONAL) {
    if (needs(node[key], base, walk)) out[key] = build(node[key] as Schema, base, walk, copied)
  }
  if (isClosed(node)) {
    const properties: Schema = isSchema(node.properties) ? { ...(out.properties as Schema) } : {}
    for (const name of walk.names) if (!Object.hasOwn(properties, name)) properties[name] = { type: 'string' }
    out.properties = properties
  }
  if (node.propertyNames !== undefined) out.propertyNames = { anyOf: [out.propertyNames, { enum: [...walk.names] }] }
  return out
}

function forbids (node: Schema, names: readonly string[]): boolean {
  if (node.propertyNames !== undefined) return true
  if (!isClosed(node)) return false
  const properties = isSchema(node.properties) ? node.properties : {}
  return names.some(name => !Object.hasOwn(properties, name))
}

// Names a schema does not list are refused, or validated as something a version may not be.
function isClosed (node: Schema): boolean {
  return (node.additionalProperties !== undefined && node.additionalProperties !== true) || node.unevaluatedProperties === false
}

/**
 * What a reference reaches: the route's own schema for a local one, else a shared schema, then its JSON pointer
 * or plain name. A plain name it cannot find there cannot be extended, so it fails start-up, naming the route.
 */
function follow (ref: string, base: string, walk: Walk): Target | null {
  const absolute = resolve(base, ref)
  const hash = absolute.indexOf('#')
  const id = hash === -1 ? absolute : absolute.slice(0, hash)
  const document = id === '' ? walk.root : walk.shared(id)
  if (document === undefined) {
    if (!walk.late.includes(absolute)) walk.late.push(absolute)
    return null
  }
  const fragment = hash === -1 ? '' : absolute.slice(hash + 1)
  if (!decodes(fragment)) {
    throw coded(new Error(`fastify-api-versioning: route ${walk.label}: its ${walk.part} schema refers to ${absolute}, whose fragment has a malformed % escape (a % not followed by two hex digits of UTF-8), so it names no subschema; escape a % in a name as %25`), 'FST_API_VERSIONING_UNSUPPORTED_ROUTE')
  }
  if (fragment !== '' && !fragment.startsWith('/')) {
    const found = named(document, '', absolute)
    if (found !== null) return found
    const where = id === '' ? "the route's own schema" : id
    throw coded(new Error(`fastify-api-versioning: route ${walk.label}: its ${walk.part} schema refers to ${absolute}, a plain-name fragment, but ${where} has no subschema with $id '#${fragment}' or $anchor '${fragment}', so the plugin cannot add the version names to it; give the schema meant $anchor: '${fragment}', or refer to it by JSON pointer (${id}#/definitions/...)`), 'FST_API_VERSIONING_UNSUPPORTED_ROUTE')
  }
  const schema = pointer(document, fragment)
  return isSchema(schema) ? { schema, base: id, ref: absolute } : null
}

// The keywords under which Ajv looks for subschemas, and so for plain names (json-schema-traverse, with allKeys),
// besides SCHEMA_MAPS.
const SCHEMA_ARRAYS = new Set(['items', 'allOf', 'anyOf', 'oneOf'])
const PLAIN_NAMES = new Set(['$id', '$anchor', '$dynamicAnchor'])
const NO_SCHEMA = new Set(['default', 'enum', 'const', 'required', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties'])

/**
 * The subschema a plain-name fragment names, as Ajv finds it: one whose `$id` (`'#name'`), resolved against the
 * `$id`s above it, is the reference, or whose `$anchor` (or `$dynamicAnchor`) is the name, in the resource that
 * holds it. Its base is that of the schema above it, against which its own `$id` resolves again.
 */
function named (node: unknown, base: string, ref: string): Target | null {
  if (!isSchema(node)) return null
  let own = base
  if (typeof node.$id === 'string') {
    own = resolve(base, node.$id)
    if (own === ref) return { schema: node, base, ref }
  }
  for (const anchor of [node.$anchor, node.$dynamicAnchor]) {
    if (typeof anchor === 'string' && resolve(own, '#' + anchor) === ref) return { schema: node, base: own, ref }
  }
  for (const [key, value] of Object.entries(node)) {
    const members = SCHEMA_ARRAYS.has(key) && Array.isArray(value) ? value : SCHEMA_MAPS.has(key) && isSchema(value) ? Object.values(value) : NO_SCHEMA.has(key) ? [] : [value]
    for (const member of members) {
      const found = named(member, own, ref)
      if (found !== null) return found
    }
  }
  return null
}

/** A reference resolved against the `$id` it is based on: a local one into that schema, a relative one beside it. */
function resolve (base: string, ref: string): string {
  if (base === '') return ref
  if (ref.startsWith('#')) return base.split('#')[0] + ref
  try {
    return new URL(ref, base).href
  } catch {
    return ref // a base that is no URL (`ListQuery`): a reference is an id of its own
  }
}

/**
 * A copy whose references are absolute (unchanged within the route's schema), except under a schema with a URI
 * `$id` of its own, which they resolve against; a plain-name `$id` (`'#name'`) changes no base. A `copied` one
 * keeps no plain name (`$id: '#name'`, `$anchor`), which would name a second schema beside its original.
 */
function rebase<T> (node: T, base: string, copied: boolean): T {
  if (base === '' && !copied) return node
  if (Array.isArray(node)) return node.map(item => rebase(item, base, copied)) as T
  if (!isSchema(node) || (typeof node.$id === 'string' && !node.$id.startsWith('#'))) return node
  const out: Schema = {}
  for (const [key, value] of Object.entries(node)) {
    if (copied && PLAIN_NAMES.has(key)) continue
    if (key === '$ref' && typeof value === 'string') out[key] = resolve(base, value)
    else if (SCHEMA_MAPS.has(key) && isSchema(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, rebase(member, base, copied)]))
    else out[key] = NO_SCHEMA.has(key) ? value : rebase(value, base, copied)
  }
  return out as T
}

function isSchema (value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
