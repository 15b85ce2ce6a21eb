import { resolveRef } from './resolve-ref.js'
import type { OpenApiDocument } from './document.js'
import { checkDepth } from './too-deep.js'
import { isObject } from '../util/is-object.js'
import { innerWeakMap } from '../util/inner-weak-map.js'

/** A value of a document, read against that document's components. */
export interface DocumentValue {
  readonly document: OpenApiDocument
  readonly value: unknown
}

// What is known of the pairs of two documents' objects: the same (proven), or not. Kept per pair of documents,
// so that a component used in many places is compared once, whichever operation meets it.
type Known = Map<object, Map<object, boolean>>
const knownOf = new WeakMap<OpenApiDocument, WeakMap<OpenApiDocument, Known>>()

/**
 * Whether two values are the same, with their `$ref`s followed (a component's change is seen where it is used)
 * and keys in any order: the same JSON, however the documents share or repeat their parts. Values that lead
 * back into themselves are the same when no difference can be reached from them. In time linear in the pairs of
 * objects met, each met once.
 */
export function sameValue (a: DocumentValue, b: DocumentValue): boolean {
  const known = knownFor(a.document, b.document)
  // The pairs taken to be the same while their parts were compared: proven once the whole is, else forgotten (a
  // difference found under one of them may be what made it look the same). A difference holds in any case.
  const assumed: Array<[Map<object, boolean>, object]> = []
  function same (x: unknown, y: unknown, depth: number): boolean {
    x = followed(a.document, x)
    y = followed(b.document, y)
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) return x === y
    let pairs = known.get(x)
    if (pairs === undefined) known.set(x, pairs = new Map())
    const seen = pairs.get(y)
    if (seen !== undefined) return seen
    checkDepth(depth)
    pairs.set(y, true)
    assumed.push([pairs, y])
    const result = Array.isArray(x)
      ? Array.isArray(y) && x.length === y.length && x.every((item, i) => same(item, y[i], depth + 1))
      : !Array.isArray(y) && sameKeys(x, y) && Object.keys(x).every(key => same((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], depth + 1))
    if (!result) pairs.set(y, false)
    return result
  }
  const result = same(a.value, b.value, 0)
  if (!result) for (const [pairs, y] of assumed) if (pairs.get(y) === true) pairs.delete(y)
  return result
}

function knownFor (a: OpenApiDocument, b: OpenApiDocument): Known {
  const byDocument = innerWeakMap(knownOf, a)
  let known = byDocument.get(b)
  if (known === undefined) byDocument.set(b, known = new Map())
  return known
}

// A `$ref` that names something is what it names; one that names nothing stays as it is written.
function followed (document: OpenApiDocument, value: unknown): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string') return value
  const target = resolveRef(document, value)
  return Object.keys(target).length > 0 ? target : value
}

function sameKeys (x: object, y: object): boolean {
  const keys = Object.keys(x)
  return keys.length === Object.keys(y).length && keys.every(key => Object.hasOwn(y, key))
}
