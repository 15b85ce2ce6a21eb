import type { OpenApiDocument } from './document.js'
import { pointerTarget } from './resolve-ref.js'
import { DATA_KEYWORDS } from '../util/data-keywords.js'
import { isObject } from '../util/is-object.js'

interface Rewrite { readonly at: readonly string[], readonly ref: string }

/** A place of the walk: its value, and the way to it (its parent's place and its key), read only where needed. */
interface Place { readonly value: unknown, readonly parent: Place | null, readonly key: string, readonly root: Place | null }

/**
 * The document with the `$ref`s of its schemas anchored: a ref such as `#/$defs/Amount` (or `#` itself) names a
 * place in the schema it is written in, as Fastify validated it, while @fastify/swagger copies the schema into the
 * document as it is, where the same pointer would name a place of the document, which has none. Such a ref is
 * written again from the document's root (the schema's place in it), so that following refs finds what the schema
 * meant. A ref the document itself resolves is left as it is. The schema a ref is read from is the nearest of: a
 * subschema with its own `$id`, a components schema, a parameter's, header's or media type's `schema`. The document
 * itself is returned where nothing is to be anchored; else a copy that shares all but the objects on the way to a
 * rewritten ref.
 */
export function anchoredRefs (document: OpenApiDocument): OpenApiDocument {
  const rewrites = refsToAnchor(document)
  if (rewrites.length === 0) return document
  const copy = { ...document }
  const copied = new Set<unknown>([copy])
  for (const { at, ref } of rewrites) {
    let node = copy as Record<string, unknown>
    for (const key of at) {
      let child = node[key] as Record<string, unknown>
      if (!copied.has(child)) copied.add(node[key] = child = (Array.isArray(child) ? [...child] : { ...child }) as Record<string, unknown>)
      node = child
    }
    node.$ref = ref
  }
  return copy
}

/** Anchors the refs of a document of one's own, in place (see anchoredRefs). */
export function anchorRefs (document: OpenApiDocument): void {
  for (const { at, ref } of refsToAnchor(document)) {
    at.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, document).$ref = ref
  }
}

// Walked with a list of its own, not the call stack: a document may nest deeper than recursion goes.
function refsToAnchor (document: OpenApiDocument): Rewrite[] {
  const rewrites: Rewrite[] = []
  const stack: Place[] = [{ value: document, parent: null, key: '', root: null }]
  for (let place = stack.pop(); place !== undefined; place = stack.pop()) {
    const { value } = place
    if (typeof value !== 'object' || value === null) continue
    let root = place.root
    if (root !== null && isObject(value) && typeof value.$id === 'string') root = place
    if (root !== null && isObject(value) && typeof value.$ref === 'string') {
      const anchored = anchor(document, value.$ref, root)
      if (anchored !== null) rewrites.push({ at: pathOf(place), ref: anchored })
    }
    const inComponents = place.key === 'schemas' && place.parent?.key === 'components' && place.parent.parent?.parent === null
    for (const [key, child] of Object.entries(value)) {
      if (root !== null && DATA_KEYWORDS.has(key)) continue
      const next: Place = { value: child, parent: place, key, root }
      stack.push(root === null && (key === 'schema' || inComponents) ? { ...next, root: next } : next)
    }
  }
  return rewrites
}

function pathOf (place: Place): string[] {
  const keys: string[] = []
  for (let at: Place = place; at.parent !== null; at = at.parent) keys.push(at.key)
  return keys.reverse()
}

// The ref written from the document's root, where it names a place of its schema and none of the document.
function anchor (document: OpenApiDocument, ref: string, root: Place): string | null {
  if (ref !== '#' && (!ref.startsWith('#/') || pointerTarget(document, ref) !== undefined || pointerTarget(root.value, ref) === undefined)) return null
  return `#/${pathOf(root).map(escape).join('/')}${ref.slice(1)}`
}

function escape (key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}
