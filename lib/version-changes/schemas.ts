import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import { reached, type SharedSchemas } from './shared-ref.js'
import type { FieldRule } from './version-change.js'

type Schema = Record<string, unknown>

/** The field rules of one version (all its changes), as the older schemas are derived from the newer ones. */
export interface FieldStep {
  /** The version that made the changes, as listed. */
  readonly version: string
  readonly rules: readonly FieldRule[]
}

// A derived copy stands for the app's schema it was made from: instructions name the app's schemas, and so match
// the copies of every older version too.
const origins = new WeakMap<object, object>()

/** The app's schema a schema of some version stands for: itself, or the one a derived copy was made from. */
export function originOf (node: object): object {
  return origins.get(node) ?? node
}

/** Whether `rule` is about `node` (of any version): the same schema object, or a schema with its `$id`. */
export function names (rule: { schema: unknown, id: string | null }, node: object): boolean {
  const origin = originOf(node)
  return origin === rule.schema || (rule.id !== null && (origin as Schema).$id === rule.id)
}

// Keywords whose values are schemas of the value or its parts, and keywords whose values are lists or maps of them.
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']

/**
 * The schema as the version before `step` sees it: the newer `schema` with the step's field rules applied wherever
 * its schemas (nested, array items, the members of `allOf`/`anyOf`/`oneOf`, shared schemas its `$ref`s reach) are
 * the ones they name. A pure function: the app's objects are never changed; what the step does not touch is
 * shared with `schema`, the rest is copied, without `$id` (a second schema of one `$id` would clash with the app's
 * in Fastify's validators); a shared schema that changes is copied in place of the `$ref` to it. Throws, naming the
 * version and rule, where a rule does not fit the schema (a field it lacks, a name it has already).
 */
export function deriveSchema (schema: unknown, step: FieldStep, shared: SharedSchemas): unknown {
  if (step.rules.length === 0) return schema
  const done = new Map<object, unknown>()
  // The shared schemas being derived, and those of them a `$ref` inside them reached again.
  const open = new Set<object>()
  const reentered = new Set<object>()

  function derive (node: unknown): unknown {
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
    const derived = derive(target)
    open.delete(target)
    if (derived === target) return node
    if (reentered.has(target)) {
      throw coded(new Error(`fastify-api-versioning: versionChanges: the changes of ${step.version} change the schema ${JSON.stringify(ref)}, which refers to itself; a recursive schema cannot be derived for older versions: change a schema it holds instead, or give the older versions a route of their own`), 'FST_API_VERSIONING_INVALID_OPTION')
    }
    // What the $ref says beside it stays (a description), the copy in its place.
    const { $ref: _ref, ...beside } = node
    return { ...beside, ...(derived as Schema) }
  }

  function derivedNode (node: Schema): Schema {
    let copy: Schema | null = null
    const set = (key: string, value: unknown): void => {
      copy ??= { ...node }
      copy[key] = value
    }
    for (const key of ONE) {
      if (!isObject(node[key])) continue
      const derived = derive(node[key])
      if (derived !== node[key]) set(key, derived)
    }
    for (const key of LIST) {
      const list = node[key]
      if (!Array.isArray(list)) continue
      const derived = list.map(derive)
      if (derived.some((item, i) => item !== list[i])) set(key, derived)
    }
    for (const key of MAP) {
      const map = node[key]
      if (!isObject(map)) continue
      const derived = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, derive(value)]))
      if (Object.keys(map).some(name => derived[name] !== map[name])) set(key, derived)
    }
    const rules = step.rules.filter(rule => names(rule, node))
    if (rules.length > 0) {
      copy ??= { ...node }
      for (const rule of rules) apply(copy, rule, step.version)
    }
    if (copy === null) return node
    if (typeof copy.$id === 'string') {
      copy.title ??= copy.$id
      delete copy.$id
    }
    origins.set(copy, originOf(node))
    return copy
  }

  return derive(schema)
}

/** Applies one rule to a copy of the schema it names, as the version before sees it. */
function apply (schema: Schema, rule: FieldRule, version: string): void {
  const properties: Schema = isObject(schema.properties) ? { ...schema.properties } : {}
  const required = Array.isArray(schema.required) ? schema.required.filter(name => typeof name === 'string') as string[] : []
  const has = Object.hasOwn(properties, rule.field)
  const where = `versionChanges: the change of ${version}, ${rule.at}`
  const fail = (problem: string): never => {
    throw coded(new Error(`fastify-api-versioning: ${where} ${problem}`), 'FST_API_VERSIONING_INVALID_OPTION')
  }
  const named = schemaName(schema)
  if (rule.kind === 'removed') {
    if (has) fail(`says ${named} removed the field ${JSON.stringify(rule.field)}, but ${named} has it in ${version}: name a field of older versions only`)
  } else if (!has) {
    fail(`names the field ${JSON.stringify(rule.field)}, which ${named} does not have in ${version}; its fields there: ${Object.keys(properties).map(name => JSON.stringify(name)).join(', ') || 'none'}`)
  }
  let names = required
  switch (rule.kind) {
    case 'renamed': {
      const older = rule.renamedFrom as string
      if (Object.hasOwn(properties, older)) fail(`renames ${JSON.stringify(rule.field)} from ${JSON.stringify(older)}, but ${named} has a field ${JSON.stringify(older)} in ${version} already; rename that one first, in the same change`)
      schema.properties = Object.fromEntries(Object.entries(properties).map(([name, value]) => [name === rule.field ? older : name, value]))
      names = required.map(name => name === rule.field ? older : name)
      break
    }
    case 'added':
      delete properties[rule.field]
      schema.properties = properties
      names = required.filter(name => name !== rule.field)
      break
    case 'removed':
      schema.properties = { ...properties, [rule.field]: rule.older }
      if (rule.required === true) names = [...required, rule.field]
      break
    default:
      if (rule.older !== null) schema.properties = { ...properties, [rule.field]: rule.older }
      if (rule.required === true && !required.includes(rule.field)) names = [...required, rule.field]
      if (rule.required === false) names = required.filter(name => name !== rule.field)
  }
  if (names.length > 0) schema.required = names
  else delete schema.required
}

/** A schema as errors name it: its `$id` or `title`, or what the rule gave. */
export function schemaName (schema: object): string {
  const origin = originOf(schema) as Schema
  const name = typeof origin.$id === 'string' ? origin.$id : typeof origin.title === 'string' ? origin.title : null
  return name === null ? 'the schema' : `the schema ${JSON.stringify(name)}`
}
