import { isObject } from '../util/is-object.js'
import { resolveRefs, type SharedSchemas } from './shared-ref.js'

type Schema = Record<string, unknown>
type Holder = Record<string | number, unknown>

/**
 * A value where schemas apply: what to do there (`tasks`, of every schema it is one of), and where it is
 * (`places`: each holder and key, as one object may be in several), to replace it. An object or array is one site
 * however many places hold it; any other value (a text, a number) is a site of its own place. A value is a site only
 * where its schema admits its kind: a text where an object schema stands is no site of it.
 */
export interface Site<T> {
  readonly value: unknown
  readonly tasks: readonly T[]
  readonly places: ReadonlyArray<readonly [Holder, string | number]>
}

/**
 * Finds the sites of a value: `box.value` is the value (a body, a query string), and the sites are in the order of
 * a walk, outer before inner, each object once. What is copied first, so that what the sites change leaves the
 * caller's value as it was (the same object reached twice gets the same copy): `'none'` (the value is the
 * caller's to change), `'paths'` (the objects and arrays that hold sites: the sites themselves are the caller's to
 * replace, never to change), or `'all'` (those and the sites).
 */
export type Locate<T> = (box: { value: unknown }, copy: Copy) => Array<Site<T>>
export type Copy = 'none' | 'paths' | 'all'

interface LocNode<T> {
  readonly tasks: T[]
  /** Which kinds of value the schema admits (see kindsOf). */
  readonly kinds: number
  readonly properties: Array<[string, LocNode<T>]>
  /** The schemas of the properties whose names match a pattern. */
  readonly patterns: Array<[RegExp, LocNode<T>]>
  /** The schema of every item, or of those after the tuple's. */
  items: LocNode<T> | null
  readonly tuple: Array<LocNode<T> | null>
  /** The schema of the properties neither `properties` nor `patterns` names. */
  additional: LocNode<T> | null
  readonly known: Set<string>
  /** Schemas of the same value: the members of `allOf`, `anyOf`, `oneOf`, and what a `$ref` reaches. */
  readonly same: Array<LocNode<T>>
  live: boolean
  /** A part of it leads to a site: its values hold sites. */
  inner: boolean
}

/** An object a walk reached: where it is, its copy (or itself), the schemas it was seen as, and its site. */
interface Reached<T> {
  value: Holder
  readonly places: Array<readonly [Holder, string | number]>
  readonly nodes: Array<LocNode<T>>
  site: Site<T> | null
}

// The kinds of JSON value, as bits of what a schema admits.
const OBJECT = 1
const ARRAY = 2
const KINDS = new Map([['object', OBJECT], ['array', ARRAY], ['string', 4], ['number', 8], ['integer', 8], ['boolean', 16], ['null', 32]])
const ANY = 63

/**
 * Plans, once, where in the values of `schema` the schemas that `tasksOf` gives tasks for are: through properties,
 * `patternProperties`, `additionalProperties`, array items (and tuples), the members of `allOf`, `anyOf` and
 * `oneOf`, and shared schemas reached by `$ref` (recursive ones too); null when there is none. A walk then follows
 * only the parts of a value that lead to one, so that the value costs what its sites do, not its size; it keeps
 * its own stack, so a value nested as deep as the newest version serves it is walked too.
 */
export function locator<T> (schema: unknown, tasksOf: (node: object) => readonly T[], shared: SharedSchemas): Locate<T> | null {
  const nodes = new Map<object, LocNode<T>>()
  const all: Array<LocNode<T>> = []

  function plan (given: unknown, base: Schema): LocNode<T> | null {
    const found = resolveRefs(given, base, shared)
    if (found === null) return null
    const [schema, root] = found
    const known = nodes.get(schema)
    if (known !== undefined) return known
    const node: LocNode<T> = { tasks: [...tasksOf(schema)], kinds: kindsOf(schema, root, shared), properties: [], patterns: [], items: null, tuple: [], additional: null, known: new Set(), same: [], live: false, inner: false }
    nodes.set(schema, node)
    all.push(node)
    if (isObject(schema.properties)) {
      for (const [name, child] of Object.entries(schema.properties)) {
        node.known.add(name)
        const planned = plan(child, root)
        if (planned !== null) node.properties.push([name, planned])
      }
    }
    if (isObject(schema.patternProperties)) {
      for (const [pattern, child] of Object.entries(schema.patternProperties)) {
        const planned = plan(child, root)
        const expression = regExp(pattern)
        // A pattern JavaScript cannot read fails the app's validators first.
        if (planned !== null && expression !== null) node.patterns.push([expression, planned])
      }
    }
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : null
    if (tuple !== null) for (const child of tuple) node.tuple.push(plan(child, root))
    node.items = plan(tuple === null ? schema.items : Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems, root)
    node.additional = plan(schema.additionalProperties, root)
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const members = schema[key]
      if (Array.isArray(members)) for (const member of members) { const planned = plan(member, root); if (planned !== null) node.same.push(planned) }
    }
    return node
  }

  const root = isObject(schema) ? plan(schema, schema) : null
  if (root === null) return null
  const parts = (node: LocNode<T>): Array<LocNode<T> | null> => [...node.properties.map(([, child]) => child), ...node.patterns.map(([, child]) => child), node.items, node.additional, ...node.tuple]
  // A node leads to a site when it has tasks or a part of it leads to one: settled over recursive schemas.
  for (const node of all) node.live = node.tasks.length > 0
  for (let changed = true; changed;) {
    changed = false
    for (const node of all) {
      if (node.live) continue
      if ([...parts(node), ...node.same].some(part => part?.live === true)) changed = node.live = true
    }
  }
  if (!root.live) return null
  for (const node of all) node.inner = parts(node).some(part => part?.live === true)
  for (let changed = true; changed;) {
    changed = false
    for (const node of all) if (!node.inner && node.same.some(member => member.inner)) changed = node.inner = true
  }
  for (const node of all) {
    const kept = node.properties.filter(([, child]) => child.live)
    node.properties.splice(0, node.properties.length, ...kept)
    const patterns = node.patterns.filter(([, child]) => child.live)
    node.patterns.splice(0, node.patterns.length, ...patterns)
    if (node.items?.live !== true) node.items = null
    if (node.additional?.live !== true) node.additional = null
    node.tuple.forEach((child, i) => { if (child?.live !== true) node.tuple[i] = null })
    const same = node.same.filter(child => child.live)
    node.same.splice(0, node.same.length, ...same)
  }

  return function locate (box, copy) {
    const sites: Array<Site<T>> = []
    const reached = new Map<object, Reached<T>>()
    // What is left to walk, the next on top: a place to visit as a schema, or an object to expand as one.
    const stack: Array<[LocNode<T>, Holder, string | number] | [LocNode<T>, Reached<T>]> = [[root, box as unknown as Holder, 'value']]

    // The copy of an object, made once: where the object was met before, the copy is put in its place too.
    function copied (given: object, entry: Reached<T>): void {
      if (entry.value !== given) return
      entry.value = (Array.isArray(given) ? [...given] : { ...given }) as Holder
      for (const [holder, key] of entry.places) holder[key] = entry.value
      if (entry.site !== null) (entry.site as { value: unknown }).value = entry.value
    }

    function visit (node: LocNode<T>, holder: Holder, key: string | number): void {
      let given = holder[key]
      // An object with a toJSON (a Mongoose document, an ORM model) where an object may be is what it gives, as a
      // serializer writes it: in its place, which is the walk's own copy where the value is the caller's.
      if ((node.kinds & OBJECT) !== 0 && typeof (given as { toJSON?: unknown } | null)?.toJSON === 'function' && !Array.isArray(given)) holder[key] = given = (given as { toJSON: () => unknown }).toJSON()
      // An object where neither an object nor an array may be (a Date where a text schema stands) is the
      // serializer's to write, by the schema's format: no site, and never copied (a Date's copy is `{}`).
      if (typeof given === 'object' && given !== null && (node.kinds & (OBJECT | ARRAY)) === 0) return
      if (typeof given !== 'object' || given === null) {
        const tasks = scalarTasks(node, KINDS.get(given === null ? 'null' : typeof given) ?? 0)
        if (tasks.length > 0) sites.push({ value: given, tasks, places: [[holder, key]] })
        return
      }
      let entry = reached.get(given)
      if (entry === undefined) reached.set(given, entry = { value: given as Holder, places: [], nodes: [], site: null })
      if (copy === 'all' || (copy === 'paths' && node.inner)) copied(given, entry)
      holder[key] = entry.value
      // A holder is visited once per schema, so a place is new but where two schemas of one holder name it.
      entry.places.push([holder, key])
      stack.push([node, entry])
    }

    function expand (node: LocNode<T>, entry: Reached<T>): void {
      // Each object once per schema: the same object twice in a value, or a recursive schema, ends here.
      if (entry.nodes.includes(node)) return
      entry.nodes.push(node)
      const value = entry.value
      const array = Array.isArray(value)
      if (node.tasks.length > 0 && (node.kinds & (array ? ARRAY : OBJECT)) !== 0) {
        if (entry.site === null) sites.push(entry.site = { value, tasks: [], places: entry.places })
        for (const task of node.tasks) if (!entry.site.tasks.includes(task)) (entry.site.tasks as T[]).push(task)
      }
      // Pushed in reverse, so that they are walked in order: the parts, then the other schemas of the same value.
      for (let i = node.same.length - 1; i >= 0; i--) stack.push([node.same[i], entry])
      const next: Array<[LocNode<T>, Holder, string | number]> = []
      if (array) {
        const items = value as unknown as unknown[]
        for (let i = 0; i < items.length; i++) {
          const child = i < node.tuple.length ? node.tuple[i] : node.items
          if (child !== null) next.push([child, value, i])
        }
      } else {
        for (const [name, child] of node.properties) if (Object.hasOwn(value, name)) next.push([child, value, name])
        if (node.patterns.length > 0 || node.additional !== null) {
          for (const name of Object.keys(value)) {
            let matched = false
            for (const [pattern, child] of node.patterns) {
              if (pattern.test(name)) {
                matched = true
                next.push([child, value, name])
              }
            }
            if (!matched && node.additional !== null && !node.known.has(name)) next.push([node.additional, value, name])
          }
        }
      }
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i])
    }

    while (stack.length > 0) {
      const top = stack.pop() as [LocNode<T>, Holder, string | number] | [LocNode<T>, Reached<T>]
      if (top.length === 3) visit(top[0], top[1], top[2])
      else expand(top[0], top[1])
    }
    return sites
  }
}

// The tasks of a value that is no object or array: of its schema and the schemas of the same value, where they admit it.
function scalarTasks<T> (node: LocNode<T>, kind: number): T[] {
  const tasks: T[] = []
  const seen = new Set<LocNode<T>>()
  const collect = (at: LocNode<T>): void => {
    if (seen.has(at)) return
    seen.add(at)
    if ((at.kinds & kind) !== 0) for (const task of at.tasks) if (!tasks.includes(task)) tasks.push(task)
    for (const member of at.same) collect(member)
  }
  collect(node)
  return tasks
}

/**
 * The kinds of value a schema admits, as its `type` says, or its keywords where it has none: its `const` or `enum`,
 * or its members where it is a union (a value of the other member of `Level | null` is no value of `Level`).
 */
function kindsOf (schema: Schema, root: Schema, shared: SharedSchemas, depth = 0): number {
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : null
  if (types !== null) return types.reduce((kinds: number, type) => kinds | (KINDS.get(type as string) ?? 0), 0)
  if (Object.hasOwn(schema, 'const')) return kindOf(schema.const)
  if (Array.isArray(schema.enum)) return schema.enum.reduce((kinds: number, value) => kinds | kindOf(value), 0)
  if (schema.properties !== undefined || schema.patternProperties !== undefined || schema.additionalProperties !== undefined) return OBJECT
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ARRAY
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null
  if (members === null || depth === 32) return ANY
  let kinds = 0
  for (const member of members) {
    const found = resolveRefs(member, root, shared)
    kinds |= found === null ? ANY : kindsOf(found[0], found[1], shared, depth + 1)
  }
  return kinds
}

function kindOf (value: unknown): number {
  return value === null ? KINDS.get('null') as number : Array.isArray(value) ? ARRAY : KINDS.get(typeof value) ?? 0
}

function regExp (pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u')
  } catch {
    return null
  }
}
