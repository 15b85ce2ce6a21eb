import { isObject } from '../util/is-object.js'
import { put } from './renaming.js'
import { names } from './schema-identity.js'
import { resolveRefs, type SharedSchemas } from './shared-ref.js'
import type { FieldRule } from './version-change.js'

type Schema = Record<string, unknown>

/** One step of names: a field's name after it (see upName, removedName, downName), given the rules of a schema. */
export interface NamesStep {
  readonly rules: readonly FieldRule[]
  readonly name: (tasks: readonly FieldRule[], key: string) => string | null
}

// Keywords whose schemas a compiled pass does not follow: of the same value (a union), of some items or properties.
const UNFOLLOWED_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']
const UNFOLLOWED_MAPS = ['patternProperties', 'dependentSchemas']
const UNFOLLOWED_ONES = ['additionalItems', 'if', 'then', 'else', 'not', 'unevaluatedProperties', 'unevaluatedItems', 'contains']

// The schemas of a node a compiled pass does not follow.
function unfollowed (node: Schema): unknown[] {
  return [
    ...UNFOLLOWED_LISTS.flatMap(key => Array.isArray(node[key]) ? node[key] as unknown[] : []),
    ...UNFOLLOWED_MAPS.flatMap(key => isObject(node[key]) ? Object.values(node[key] as Schema) : []),
    ...UNFOLLOWED_ONES.map(key => node[key])
  ]
}

/**
 * Compiles the renames and dropped fields of consecutive steps (`steps`, applied in order to each object they name)
 * into one pass over a value of `schema` (the schema of the version the value is in when they start): JavaScript
 * with the literal names of each object's properties, which builds each object anew (no `delete`, which leaves V8
 * a slow dictionary), follows only the parts of the value where something changes, and gives the rest as it is.
 * Properties the schema does not name are kept as they are (a migration may have given one an older version has);
 * an own `__proto__` stays data. Null where the pass cannot be compiled: a schema that refers to itself on the way to a change, or
 * one the changed values are reached through a union, a tuple or patterns of (the interpreted walk does those).
 * `written`: what the pass gives is only written, by a serializer that writes only the properties a schema names
 * (fast-json-stringify): an object whose schema names all it may write is then made in one literal, its named
 * properties only (one `undefined` where the value has none, which such a serializer writes as absent), with no
 * loop over the value, which was most of the pass's cost.
 * `validated`: the value was validated by `schema` (a request's, by its version's schemas): an object of a schema
 * with `additionalProperties: false` then has no property it does not name (the validator removed it, or refused
 * the request), and is made with no loop over its keys.
 */
export function compileNames (schema: unknown, steps: readonly NamesStep[], shared: SharedSchemas, written = false, validated = false): ((value: unknown) => unknown) | null {
  const functions: string[] = []
  // By how an object is made (see Made).
  const made = [new Map<Schema, number>(), new Map<Schema, number>(), new Map<Schema, number>()]
  const onPath = new Set<Schema>()
  let compilable = true

  // The function of a schema's values (its index), or null where none of its values changes (given as they are).
  function compile (given: unknown, base: Schema): number | null {
    // A `$ref` with keywords beside it (`additionalProperties: true`) writes more than its target says.
    let beside = false
    const found = resolveRefs(given, base, shared, hop => { beside ||= Object.keys(hop).some(key => key !== '$ref' && !ANNOTATIONS.has(key)) })
    if (found === null) return null
    const [node, root] = found
    const kind = written && !beside && namesAll(node) ? WRITTEN : validated && !beside && node.additionalProperties === false && node.patternProperties === undefined ? SEALED : OPEN
    const known = made[kind].get(node)
    if (known !== undefined) return known
    if (onPath.has(node)) {
      compilable = false
      return null
    }
    onPath.add(node)
    // Values a pass cannot follow (the members of a union, a tuple's, a pattern's): where one changes, the interpreted
    // walk takes the whole value.
    for (const member of unfollowed(node)) if (compile(member, root) !== null) compilable = false
    if (isObject(node.additionalProperties) && compile(node.additionalProperties, root) !== null) compilable = false
    const tasks = renamesOf(node)
    const result = isObject(node.properties) || tasks.some(rules => rules.length > 0) ? objectFunction(node, root, tasks, kind) : isObject(node.items) ? arrayFunction(node, root) : null
    onPath.delete(node)
    if (result === null) return null
    made[kind].set(node, functions.length)
    functions.push(result)
    return functions.length - 1
  }

  function renamesOf (node: Schema): FieldRule[][] {
    return steps.map(step => step.rules.filter(rule => names(rule, node)))
  }

  function objectFunction (node: Schema, root: Schema, tasks: readonly FieldRule[][], kind: Made): string | null {
    // A schema a rule names has the properties the rule names (its checks see to it).
    const properties = (node.properties ?? {}) as Schema
    // Every name an object of it may have that a step names: its properties, and the rules' names of them.
    const keys = new Set(Object.keys(properties))
    const renamedAt = new Map<string, number>()
    for (const rules of tasks) for (const rule of rules) for (const name of [rule.field, rule.renamedFrom]) if (name !== null) keys.add(name)
    // Each name's name after every step, and which name loses to which where a step renames one onto another's
    // (the renamed one wins, as the interpreted walk has it): a loser is set first, so that a winner overwrites it.
    const order = [...keys]
    const now = new Map<string, string | null>(order.map(key => [key, key]))
    const before = new Map<string, Set<string>>(order.map(key => [key, new Set()]))
    steps.forEach((step, i) => {
      const at = new Map<string, string[]>()
      for (const key of order) {
        const name = now.get(key) as string | null
        const next = name === null ? null : step.name(tasks[i], name)
        if (next !== null) at.set(next, [...at.get(next) ?? [], key])
        now.set(key, next)
        if (next !== name) renamedAt.set(key, i)
      }
      for (const together of at.values()) {
        const winners = together.filter(key => renamedAt.get(key) === i)
        for (const loser of together.filter(key => renamedAt.get(key) !== i)) for (const winner of winners) before.get(winner)?.add(loser)
      }
    })
    // The names a value's own properties may have that are no property of the schema (older names sent anyway, and
    // the like) are mapped in one loop over the value, with those it does not name; the schema's properties, and a
    // name that loses to or wins over another, are read by name, each after those it wins over.
    const involved = new Set<string>()
    for (const [winner, losers] of before) if (losers.size > 0) for (const key of [winner, ...losers]) involved.add(key)
    // Where the object is only written with its schema, the names it does not have as properties are read by name
    // too: one of them may be a name of the version's schema.
    const looped = kind !== OPEN ? [] : order.filter(key => !Object.hasOwn(properties, key) && !involved.has(key))
    let changes = tasks.some(rules => rules.length > 0)
    // Each name the object gets, in order, with the code of each value it takes (read from the value by name, or
    // through the function of its schema), the one that wins last.
    const fields = new Map<string, string[]>()
    const emitted = new Set<string>(looped)
    const emit = (key: string): void => {
      if (emitted.has(key)) return
      emitted.add(key)
      for (const loser of before.get(key) as Set<string>) emit(loser)
      const child = Object.hasOwn(properties, key) ? compile(properties[key], root) : null
      if (child !== null) changes = true
      const name = now.get(key) as string | null
      if (name !== null) fields.set(name, [...fields.get(name) ?? [], child === null ? `v[${JSON.stringify(key)}]` : `f${child}(v[${JSON.stringify(key)}])`])
    }
    for (const key of order) emit(key)
    if (!changes) return null
    // An object with a toJSON (a Mongoose document, an ORM model) is what it gives, as the serializer writes it.
    const head = "(v) => { if (typeof v !== 'object' || v === null) return v; if (typeof v.toJSON === 'function') v = v.toJSON(); if (typeof v !== 'object' || v === null || Array.isArray(v)) return v; let x; "
    // One literal: of the values a name takes, the last that is not undefined.
    if (kind === WRITTEN) {
      const entries = [...fields].map(([name, values]) => `${literalKey(name)}: ${values.reduce((rest, value) => `(x = ${value}) !== undefined ? x : ${rest}`)}`)
      return `${head}return { ${entries.join(', ')} } }`
    }
    // An object of the names read by name alone (nearly every one: a client sends what its version names) is made in
    // one literal where each name has a value: a for-in that only compares keys costs a fraction of one that copies.
    const read = order.filter(key => !looped.includes(key))
    const cases = [
      ...read.map(key => `case ${JSON.stringify(key)}: continue`),
      ...looped.map(key => {
        const name = now.get(key) as string | null
        return `case ${JSON.stringify(key)}: ${name === null ? '' : `put(o, ${JSON.stringify(name)}, v[k]); `}continue`
      })
    ]
    const named = [...fields]
    const values = named.map(([, given], i) => `a${i} = ${given.reduce((rest, value) => `(x = ${value}) !== undefined ? x : ${rest}`)}`)
    const defined = named.map((_, i) => ` && a${i} !== undefined`).join('')
    const literal = named.map(([name], i) => `${literalKey(name)}: a${i}`).join(', ')
    const sets = named.map(([name], i) => `if (a${i} !== undefined) ${set(name, `a${i}`)}`).join('; ')
    const reads = values.length === 0 ? '' : `const ${values.join(', ')}; `
    // An object of a sealed schema has no key it does not read.
    if (kind === SEALED) return `${head}${reads}if (true${defined}) return { ${literal} }; const o = {}; ${sets}; return o }`
    const known = read.length === 0 ? '' : `switch (k) { ${read.map(key => `case ${JSON.stringify(key)}:`).join(' ')} continue } `
    return `${head}let others = false; for (const k in v) { ${known}others = true; break } ` +
      `${reads}if (!others${defined}) return { ${literal} }; ` +
      `const o = {}; if (others) for (const k in v) { if (!has.call(v, k)) continue; switch (k) { ${cases.join('; ')} } put(o, k, v[k]) }; ${sets}; return o }`
  }

  function arrayFunction (node: Schema, root: Schema): string | null {
    const item = compile(node.items, root)
    if (item === null) return null
    return `(v) => { if (!Array.isArray(v)) return v; const n = v.length; const a = new Array(n); for (let i = 0; i < n; i++) a[i] = f${item}(v[i]); return a }`
  }

  const root = isObject(schema) ? compile(schema, schema) : null
  if (!compilable) return null
  if (root === null) return value => value
  const source = `'use strict'; const has = Object.prototype.hasOwnProperty; ${functions.map((body, i) => `const f${i} = ${body}`).join('\n')}; return f${root}`
  // eslint-disable-next-line no-new-func -- the pass is code made from the schemas, with their names as JSON literals
  return new Function('put', source)(put) as (value: unknown) => unknown
}

/**
 * How a compiled pass makes an object of a schema: OPEN, keeping what the value has beside the names it reads;
 * WRITTEN, with the names the schema writes alone (see `written`); SEALED, with the names it reads, the value having
 * no other (see `validated`).
 */
type Made = 0 | 1 | 2
const OPEN = 0
const WRITTEN = 1
const SEALED = 2

// Keywords beside a `$ref` that change nothing a serializer writes.
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', 'nullable', '$id'])

// Keywords by which a schema's serializer may write properties its `properties` do not name.
const WRITES_MORE = ['patternProperties', 'allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'not', 'dependentSchemas', 'dependencies', 'unevaluatedProperties', '$ref', '$dynamicRef']

// Whether a serializer that writes only what a schema names writes only the node's `properties` of an object.
function namesAll (node: Schema): boolean {
  return (node.additionalProperties === undefined || node.additionalProperties === false) && WRITES_MORE.every(key => node[key] === undefined)
}

// A property's key in an object literal: `__proto__` computed, which makes it data, not the object's prototype.
function literalKey (name: string): string {
  return name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)
}

// A property set in generated code: as data, an own `__proto__` included.
function set (name: string, value: string): string {
  return name === '__proto__' ? `put(o, "__proto__", ${value})` : `o[${JSON.stringify(name)}] = ${value}`
}
