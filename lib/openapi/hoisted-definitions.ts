import type { OpenApiDocument } from '../changes/document.js'
import { withMappedRefs } from '../util/discriminator-mapping.js'
import { isObject } from '../util/is-object.js'
import { decodes, escapedToken } from '../util/json-pointer.js'
import { kindIn } from '../util/key-kind.js'
import { pathOf, type WalkPlace } from '../util/place-path.js'

/**
 * An OpenAPI 3.0 document with its schemas' own `$defs` made components: a 3.0 schema may not hold `$defs` (3.1's
 * may), where a route's schema keeps its definitions once the documents anchor their refs (see
 * changes/anchored-refs.ts, own-definitions.ts). Each definition becomes `#/components/schemas/{its name}` (a number
 * added where a component has that name), and the refs to it and into it (written from the document's root) are
 * written so. Another document, or one without `$defs`, as it is.
 */
export function hoistedDefinitions (document: OpenApiDocument): OpenApiDocument {
  if (!document.openapi.startsWith('3.0')) return document
  const holders = holdersOf(document)
  if (holders.length === 0) return document
  const taken = new Set(Object.keys(document.components?.schemas ?? {}))
  // By ref to a definition (its pointer decoded), the ref to its component; the longest first, for a definition
  // inside a definition.
  const moved = new Map<string, string>()
  const bodies: Array<[string, unknown]> = []
  for (const { path, defs } of holders) {
    for (const [name, body] of Object.entries(defs)) {
      // A 3.0 component's name is of letters, digits, `.`, `_` and `-`.
      const base = name.replace(/[^\w.-]/g, '_')
      let component = base
      for (let n = 2; taken.has(component); n++) component = `${base}${n}`
      taken.add(component)
      moved.set(`#/${[...path, '$defs', name].map(escapedToken).join('/')}`, `#/components/schemas/${component}`)
      bodies.push([component, body])
    }
  }
  const refs = [...moved].sort(([a], [b]) => b.length - a.length)
  const held = new Set(holders.map(holder => holder.node))
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy)
    if (!isObject(value)) return value
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(value)) {
      if (key === '$defs' && held.has(value)) continue
      out[key] = key === '$ref' && typeof child === 'string'
        ? movedRef(child, refs)
        : key === 'discriminator'
          ? withMappedRefs(copy(child), ref => movedRef(ref, refs))
          : copy(child)
    }
    return out
  }
  // Its components too: one a transformObject added may hold definitions of its own.
  const result = copy(document) as OpenApiDocument
  const schemas = { ...result.components?.schemas }
  for (const [component, body] of bodies) schemas[component] = copy(body)
  result.components = { ...result.components, schemas }
  return result
}

interface Holder { readonly node: object, readonly path: readonly string[], readonly defs: Record<string, unknown> }

// A place of the walk: its value, and the way to it, read only for a schema with `$defs`.
interface Place extends WalkPlace { readonly value: unknown, readonly parent: Place | null, readonly inMap: boolean }

// The schemas with `$defs`, with their places: not in data, nor a property called `$defs`. Walked with a list of its
// own, not the call stack, as anchoring is.
function holdersOf (document: OpenApiDocument): Holder[] {
  const holders: Holder[] = []
  const stack: Place[] = [{ value: document, parent: null, key: '', inMap: false }]
  for (let place = stack.pop(); place !== undefined; place = stack.pop()) {
    const value = place.value
    if (typeof value !== 'object' || value === null) continue
    if (!place.inMap && isObject(value) && isObject(value.$defs)) holders.push({ node: value, path: pathOf(place), defs: value.$defs })
    for (const [key, child] of Object.entries(value)) {
      const kind = kindIn(value, key, place.inMap)
      if (kind !== 'data') stack.push({ value: child, parent: place, key, inMap: kind === 'map' })
    }
  }
  return holders
}

function movedRef (ref: string, refs: ReadonlyArray<readonly [string, string]>): string {
  if (!ref.startsWith('#/') || !decodes(ref)) return ref
  const decoded = decodeURIComponent(ref)
  for (const [from, to] of refs) if (decoded === from || decoded.startsWith(`${from}/`)) return to + encodeURI(decoded.slice(from.length)).replaceAll('#', '%23')
  return ref
}
