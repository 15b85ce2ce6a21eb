import { isObject } from '../util/is-object.js'
import { reached, type SharedSchemas } from './shared-ref.js'

type Schema = Record<string, unknown>
type Holder = Record<string | number, unknown>

/**
 * An object in a value where schemas apply: what to do there (`tasks`, of every schema it is one of), and where it
 * is (`places`: each holder and key, as one object may be in several), to replace it.
 */
export interface Site<T> {
  readonly value: Record<string, unknown>
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
  readonly properties: Array<[string, LocNode<T>]>
  /** The schema of every item, or of those after the tuple's. */
  items: LocNode<T> | null
  readonly tuple: Array<LocNode<T> | null>
  /** The schema of the properties `properties` does not name. */
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

/**
 * Plans, once, where in the values of `schema` the schemas that `tasksOf` gives tasks for are: through properties,
 * array items (and tuples), `additionalProperties`, the members of `allOf`, `anyOf` and `oneOf`, and shared
 * schemas reached by `$ref` (recursive ones too); null when there is none. A walk then follows only the parts of a
 * value that lead to one, so that the value costs what its sites do, not its size.
 */
export function locator<T> (schema: unknown, tasksOf: (node: object) => readonly T[], shared: SharedSchemas): Locate<T> | null {
  const nodes = new Map<object, LocNode<T>>()
  const all: Array<LocNode<T>> = []

  function plan (given: unknown): LocNode<T> | null {
    const schema = resolve(given, shared)
    if (schema === null) return null
    const known = nodes.get(schema)
    if (known !== undefined) return known
    const node: LocNode<T> = { tasks: [...tasksOf(schema)], properties: [], items: null, tuple: [], additional: null, known: new Set(), same: [], live: false, inner: false }
    nodes.set(schema, node)
    all.push(node)
    if (isObject(schema.properties)) {
      for (const [name, child] of Object.entries(schema.properties)) {
        node.known.add(name)
        const planned = plan(child)
        if (planned !== null) node.properties.push([name, planned])
      }
    }
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : null
    if (tuple !== null) for (const child of tuple) node.tuple.push(plan(child))
    node.items = plan(tuple === null ? schema.items : Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems)
    node.additional = plan(schema.additionalProperties)
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const members = schema[key]
      if (Array.isArray(members)) for (const member of members) { const planned = plan(member); if (planned !== null) node.same.push(planned) }
    }
    return node
  }

  const root = plan(schema)
  if (root === null) return null
  // A node leads to a site when it has tasks or a part of it leads to one: settled over recursive schemas.
  for (const node of all) node.live = node.tasks.length > 0
  for (let changed = true; changed;) {
    changed = false
    for (const node of all) {
      if (node.live) continue
      const parts = [...node.properties.map(([, child]) => child), node.items, node.additional, ...node.tuple, ...node.same]
      if (parts.some(part => part?.live === true)) changed = node.live = true
    }
  }
  if (!root.live) return null
  const parts = (node: LocNode<T>): Array<LocNode<T> | null> => [...node.properties.map(([, child]) => child), node.items, node.additional, ...node.tuple]
  for (const node of all) node.inner = parts(node).some(part => part?.live === true)
  for (let changed = true; changed;) {
    changed = false
    for (const node of all) if (!node.inner && node.same.some(member => member.inner)) changed = node.inner = true
  }
  for (const node of all) {
    const kept = node.properties.filter(([, child]) => child.live)
    node.properties.splice(0, node.properties.length, ...kept)
    if (node.items?.live !== true) node.items = null
    if (node.additional?.live !== true) node.additional = null
    node.tuple.forEach((child, i) => { if (child?.live !== true) node.tuple[i] = null })
    const same = node.same.filter(child => child.live)
    node.same.splice(0, node.same.length, ...same)
  }

  return function locate (box, copy) {
    const sites: Array<Site<T>> = []
    const reached = new Map<object, Reached<T>>()

    function visit (node: LocNode<T>, holder: Holder, key: string | number): void {
      const given = holder[key]
      if (typeof given !== 'object' || given === null) return
      let entry = reached.get(given)
      if (entry === undefined) reached.set(given, entry = { value: given as Holder, places: [], nodes: [], site: null })
      if (copy === 'all' || (copy === 'paths' && node.inner)) copied(given, entry)
      holder[key] = entry.value
      if (!entry.places.some(([h, k]) => h === holder && k === key)) entry.places.push([holder, key])
      expand(node, entry)
    }

    // The copy of an object, made once: where the object was met before, the copy is put in its place too.
    function copied (given: object, entry: Reached<T>): void {
      if (entry.value !== given) return
      entry.value = (Array.isArray(given) ? [...given] : { ...given }) as Holder
      for (const [holder, key] of entry.places) holder[key] = entry.value
      if (entry.site !== null) (entry.site as { value: unknown }).value = entry.value
    }

    function expand (node: LocNode<T>, entry: Reached<T>): void {
      // Each object once per schema: the same object twice in a value, or a recursive schema, ends here.
      if (entry.nodes.includes(node)) return
      entry.nodes.push(node)
      const value = entry.value
      const array = Array.isArray(value)
      if (node.tasks.length > 0 && !array) {
        if (entry.site === null) sites.push(entry.site = { value: value as Record<string, unknown>, tasks: [], places: entry.places })
        for (const task of node.tasks) if (!entry.site.tasks.includes(task)) (entry.site.tasks as T[]).push(task)
      }
      if (array) {
        const items = value as unknown as unknown[]
        for (let i = 0; i < items.length; i++) {
          const child = i < node.tuple.length ? node.tuple[i] : node.items
          if (child !== null) visit(child, value, i)
        }
      } else {
        for (const [name, child] of node.properties) if (Object.hasOwn(value, name)) visit(child, value, name)
        if (node.additional !== null) for (const name of Object.keys(value)) if (!node.known.has(name)) visit(node.additional, value, name)
      }
      for (const member of node.same) expand(member, entry)
    }

    visit(root, box as unknown as Holder, 'value')
    return sites
  }
}

// More refs in a row than any schema needs: a ref that leads back to itself.
const MAX_HOPS = 32

// A schema of an object, `$ref`s to shared ones followed (a `$ref` that leads nowhere is no schema).
function resolve (given: unknown, shared: SharedSchemas): Schema | null {
  let at = isObject(given) ? given : null
  for (let hops = 0; at !== null && typeof at.$ref === 'string'; hops++) at = hops === MAX_HOPS ? null : reached(at.$ref, shared)
  return at
}
