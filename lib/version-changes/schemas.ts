import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import { innerWeakMap } from '../util/inner-weak-map.js'
import { SCHEMA_MAPS } from '../util/schema-maps.js'
import { derivedFrom, names, originOf, sameShape } from './schema-identity.js'
import { noteNeeds } from './migration-needs.js'
import { applyEnumRules } from './enum-members.js'
import { reached, type SharedSchemas } from './shared-ref.js'
import type { FieldRule } from './version-change.js'
import type { FieldStep } from './version-steps.js'

type Schema = Record<string, unknown>

// Keywords whose values are schemas of the value or its parts, and keywords whose values are lists of them.
// `items` is either: a schema of every item, or (draft-07, TypeBox's Type.Tuple) a list, the tuple's.
const ONE = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']

/**
 * The schema as the version before `step` sees it: the newer `schema` with the step's field and enum rules applied wherever
 * its schemas (nested, array items, the members of `allOf`/`anyOf`/`oneOf`, shared schemas its `$ref`s reach) are
 * the ones they name. A pure function: the app's objects are never changed; what the step does not touch is
 * shared with `schema`, the rest is copied, without `$id` (a second schema of one `$id` would clash with the app's
 * in Fastify's validators); a shared schema that changes is copied in place of the `$ref` to it. Throws, naming the
 * version and rule, where a rule does not fit the schema (a field it lacks, a name it has already).
 */
export function deriveSchema (schema: unknown, step: FieldStep, shared: SharedSchemas, applied?: Set<FieldRule>): unknown {
  if ((step.rules.length === 0 && (step.enums ?? []).length === 0) || !isObject(schema)) return schema
  // Derived once for a schema, a step and the shared schemas it is read with: routes share their schemas.
  const bySchema = innerWeakMap(innerWeakMap(derivations, step), shared)
  let known = bySchema.get(schema)
  if (known === undefined) {
    const rules = new Set<FieldRule>()
    known = { derived: derive(schema, step, shared, rules), applied: rules }
    bySchema.set(schema, known)
  }
  for (const rule of known.applied) applied?.add(rule)
  return known.derived
}

const derivations = new WeakMap<FieldStep, WeakMap<SharedSchemas, WeakMap<object, { derived: unknown, applied: ReadonlySet<FieldRule> }>>>()

function derive (schema: object, step: FieldStep, shared: SharedSchemas, applied: Set<FieldRule>): unknown {
  const done = new Map<object, unknown>()
  // The shared schemas being derived, and those of them a `$ref` inside them reached again.
  const open = new Set<object>()
  const reentered = new Set<object>()

  function derived (node: unknown): unknown {
    if (!isObject(node)) return node
    const known = done.get(node)
    if (known !== undefined) return known
    const result = typeof node.$ref === 'string' ? derivedRef(node, node.$ref) : derivedNode(node)
    done.set(node, result)
    return result
  }

  function derivedRef (node: Schema, ref: string): unknown {
    const target = reached(ref, shared)
    if (target === null) return node
    if (open.has(target)) {
      reentered.add(target)
      return node
    }
    open.add(target)
    const copied = derived(target)
    open.delete(target)
    if (copied === target) return node
    if (reentered.has(target)) {
      throw coded(new Error(`fastify-api-versioning: versionChanges: the changes of ${step.version} change the schema ${JSON.stringify(ref)}, which refers to itself; a recursive schema cannot be derived for older versions: change a schema it holds instead, or give the older versions a route of their own`), 'FST_API_VERSIONING_INVALID_OPTION')
    }
    // Its own local refs would resolve against the schema it is copied into: not derivable where it changes.
    if (JSON.stringify(copied).includes('"$ref":"#')) {
      throw coded(new Error(`fastify-api-versioning: versionChanges: the changes of ${step.version} change the shared schema ${JSON.stringify(ref)}, whose local $refs ('#/...') would resolve elsewhere in the copy older versions need; give the schemas those refs reach an $id of their own (app.addSchema), and refer to them by it`), 'FST_API_VERSIONING_INVALID_OPTION')
    }
    // What the $ref says beside it stays (a description), the copy in its place.
    const { $ref: _ref, ...beside } = node
    const copy = { ...beside, ...(copied as Schema) }
    derivedFrom(copy, copied as Schema)
    return copy
  }

  function derivedNode (node: Schema): Schema {
    let copy: Schema | null = null
    const set = (key: string, value: unknown): void => {
      copy ??= { ...node }
      copy[key] = value
    }
    for (const key of ONE) {
      if (!isObject(node[key])) continue
      const one = derived(node[key])
      if (one !== node[key]) set(key, one)
    }
    for (const key of LIST) {
      const list = node[key]
      if (!Array.isArray(list)) continue
      const items = list.map(derived)
      if (items.some((item, i) => item !== list[i])) set(key, items)
    }
    // A list of names under `dependencies` is no schema: kept as it is.
    for (const key of SCHEMA_MAPS) {
      const map = node[key]
      if (!isObject(map)) continue
      const entries = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, derived(value)]))
      if (Object.keys(map).some(name => entries[name] !== map[name])) set(key, entries)
    }
    const rules = step.rules.filter(rule => names(rule, node))
    if (rules.length > 0) {
      copy ??= { ...node }
      apply(copy, rules, step.version, shared)
      for (const rule of rules) applied.add(rule)
    }
    const enums = (step.enums ?? []).filter(rule => names(rule, node))
    if (enums.length > 0) {
      copy ??= { ...node }
      applyEnumRules(copy, enums, step.version, schemaName(copy))
    }
    if (copy === null) return node
    if (typeof copy.$id === 'string') {
      copy.title ??= copy.$id
      delete copy.$id
    }
    derivedFrom(copy, node)
    return copy
  }

  return derived(schema)
}

/**
 * Applies the rules of one version that name a schema to a copy of it, as the version before sees it. Each rule
 * names the fields as this version does, whatever the order they are listed in: a field may be renamed and changed
 * at once. Throws for a rule that does not fit, or that says what is so already.
 */
function apply (schema: Schema, rules: readonly FieldRule[], version: string, shared: SharedSchemas): void {
  const properties: Schema = isObject(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required) ? schema.required.filter(name => typeof name === 'string') as string[] : []
  const named = schemaName(schema)
  const fail = (rule: FieldRule, problem: string): never => {
    throw coded(new Error(`fastify-api-versioning: versionChanges: the change of ${version}, ${rule.at} ${problem}`), 'FST_API_VERSIONING_INVALID_OPTION')
  }
  const byField = new Map<string, FieldRule[]>()
  for (const rule of rules) {
    const has = Object.hasOwn(properties, rule.field)
    if (rule.kind === 'removed') {
      if (has) fail(rule, `says ${named} removed the field ${JSON.stringify(rule.field)}, but ${named} has it in ${version}: name a field of older versions only`)
    } else if (!has) {
      fail(rule, `names the field ${JSON.stringify(rule.field)}, which ${named} does not have in ${version}; its fields there: ${Object.keys(properties).map(name => JSON.stringify(name)).join(', ') || 'none'}`)
    }
    const same = byField.get(rule.field) ?? []
    // One field takes a rename and a change of schema at once, and nothing else twice.
    const other = same.find(earlier => !((earlier.kind === 'renamed' && rule.kind === 'changed') || (earlier.kind === 'changed' && rule.kind === 'renamed')))
    if (other !== undefined) fail(rule, `and ${other.at} both say what ${named} changed in its field ${JSON.stringify(rule.field)} in ${version}: a field is renamed, added, removed or changed once a version (a rename and a change together at most); say it in one instruction`)
    byField.set(rule.field, [...same, rule])
    if (rule.kind === 'changed') unchanged(rule, properties[rule.field], required.includes(rule.field), named, version, fail)
    noteNeeds(rule, properties[rule.field], required.includes(rule.field), shared)
  }
  const kindOf = (field: string, kind: FieldRule['kind']): FieldRule | undefined => byField.get(field)?.find(rule => rule.kind === kind)
  const olderName = (field: string): string | null => kindOf(field, 'added') !== undefined ? null : kindOf(field, 'renamed')?.renamedFrom ?? field
  // The older name of each field; one name taken twice is a rename onto a field of this version.
  const made: Schema = {}
  const taken = new Map<string, string>()
  for (const [field, value] of Object.entries(properties)) {
    const name = olderName(field)
    if (name === null) continue
    const earlier = taken.get(name)
    if (earlier !== undefined) {
      const rule = kindOf(field, 'renamed') ?? kindOf(earlier, 'renamed') as FieldRule
      fail(rule, `renames ${JSON.stringify(rule.field)} from ${JSON.stringify(rule.renamedFrom)}, but ${named} has a field ${JSON.stringify(rule.renamedFrom)} in ${version} already; rename or remove that one too, in a change of ${version}`)
    }
    taken.set(name, field)
    made[name] = kindOf(field, 'changed')?.older ?? value
  }
  let names = required.flatMap(field => {
    const name = olderName(field)
    return name === null || kindOf(field, 'changed')?.required === false ? [] : [name]
  })
  for (const rule of rules) {
    if (rule.kind === 'removed') {
      const earlier = taken.get(rule.field)
      if (earlier !== undefined) fail(kindOf(earlier, 'renamed') as FieldRule, `renames ${JSON.stringify(earlier)} from ${JSON.stringify(rule.field)}, but ${rule.at} says ${named} had a field ${JSON.stringify(rule.field)} that ${version} removed; one name is one field`)
      made[rule.field] = rule.older
      if (rule.required === true) names.push(rule.field)
    } else if (rule.kind === 'changed' && rule.required === true) {
      const name = olderName(rule.field) as string
      if (!names.includes(name)) names = [...names, name]
    }
  }
  schema.properties = made
  if (names.length > 0) schema.required = names
  else delete schema.required
}

// A `changed` that says what the field is already would make a version of the same shape: a mistake to name.
function unchanged (rule: FieldRule, now: unknown, required: boolean, named: string, version: string, fail: (rule: FieldRule, problem: string) => never): void {
  if (rule.older !== null && sameShape(rule.older, now)) fail(rule, `says ${named} had its field ${JSON.stringify(rule.field)} with another schema before ${version}, but gives the schema it has in ${version}: say what older versions had, or leave changed.schema out`)
  if (rule.required !== null && rule.required === required) fail(rule, `says the field ${JSON.stringify(rule.field)} of ${named} was ${required ? 'required' : 'optional'} before ${version}, as it is in ${version}: say what older versions had, or leave changed.required out`)
}

/** A schema as errors name it: its `$id` or `title`, or what the rule gave. */
export function schemaName (schema: object): string {
  const origin = originOf(schema) as Schema
  const name = typeof origin.$id === 'string' ? origin.$id : typeof origin.title === 'string' ? origin.title : null
  return name === null ? 'the schema' : `the schema ${JSON.stringify(name)}`
}
