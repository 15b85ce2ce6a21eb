import type { OpenApiDocument } from './document.js'
import { pointerTarget } from './resolve-ref.js'
import { isObject } from '../util/is-object.js'
import { pointerToken } from '../util/json-pointer.js'
import { kindIn } from '../util/key-kind.js'
import { pathOf, type WalkPlace } from '../util/place-path.js'
import { namesOwnPlace } from '../util/names-own-place.js'

/** A document with its refs anchored (see anchored), and the refs into itself that still name nothing in it. */
export interface Anchored {
  readonly document: OpenApiDocument
  /**
   * Its refs into itself (`#/...`) that name nothing in it, each once, in the order met: where a schema's ref names
   * a component no one added (a type provider's, see docs/openapi.md), OpenAPI tools cannot resolve it, and a
   * comparison of versions reads it as any value.
   */
  readonly dangling: readonly string[]
}

/** A ref written again: the `$ref` of the object at `at`, or the value of `key` there (a discriminator's mapping). */
interface Rewrite { readonly at: readonly string[], readonly key: string, readonly ref: string }

/**
 * A place of the walk: its value, the way to it (its parent's place and its key), read only where needed, and whether
 * it is a map by name (see keyKind).
 */
interface Place extends WalkPlace { readonly value: unknown, readonly parent: Place | null, readonly root: Place | null, readonly inMap: boolean }

// Each document walked, by the document given and by the one made: a document is walked once, however many
// readers (the documents' warning, the changes between versions) want it.
const walked = new WeakMap<OpenApiDocument, Anchored>()

/**
 * The document with the `$ref`s of its schemas anchored: a ref such as `#/$defs/Amount` (or `#` itself) names a
 * place in the schema it is written in, as Fastify validated it, while @fastify/swagger copies the schema into the
 * document as it is, where the same pointer would name a place of the document, which has none. Such a ref is
 * written again from the document's root (the schema's place in it), so that following refs finds what the schema
 * meant. A ref the document itself resolves is left as it is. The schema a ref is read from is the nearest of: a
 * subschema with its own `$id`, a components schema, a parameter's, header's or media type's `schema`. The document
 * itself where nothing is to be anchored; else a copy that shares all but the objects on the way to a rewritten ref.
 */
export function anchored (document: OpenApiDocument): Anchored {
  const known = walked.get(document)
  if (known !== undefined) return known
  const { rewrites, dangling } = walk(document)
  const result = { document: rewrites.length === 0 ? document : rewritten(document, rewrites), dangling }
  walked.set(document, result)
  walked.set(result.document, result)
  return result
}

function rewritten (document: OpenApiDocument, rewrites: readonly Rewrite[]): OpenApiDocument {
  const copy = { ...document }
  const copied = new Set<unknown>([copy])
  for (const { at, key: last, ref } of rewrites) {
    let node = copy as Record<string, unknown>
    for (const key of at) {
      let child = node[key] as Record<string, unknown>
      if (!copied.has(child)) copied.add(node[key] = child = (Array.isArray(child) ? [...child] : { ...child }) as Record<string, unknown>)
      node = child
    }
    node[last] = ref
  }
  return copy
}

// Walked with a list of its own, not the call stack: a document may nest deeper than recursion goes. Children are
// pushed last first, so that dangling refs are met in the document's order.
function walk (document: OpenApiDocument): { rewrites: Rewrite[], dangling: string[] } {
  const rewrites: Rewrite[] = []
  const dangling = new Set<string>()
  // Whether the document resolves a ref, by ref: the same few (its components') stand in every operation.
  const resolves = new Map<string, boolean>()
  const resolved = (ref: string): boolean => {
    let known = resolves.get(ref)
    if (known === undefined) resolves.set(ref, known = ref !== '#' && pointerTarget(document, ref) !== undefined)
    return known
  }
  const stack: Place[] = [{ value: document, parent: null, key: '', root: null, inMap: false }]
  for (let place = stack.pop(); place !== undefined; place = stack.pop()) {
    const value = place.value as object
    let root = place.root
    if (isObject(value)) {
      if (root !== null && typeof value.$id === 'string') root = place
      // `#` names the document itself: never a schema.
      const see = (ref: unknown, at: () => string[], key: string): void => {
        if (typeof ref !== 'string' || !ref.startsWith('#') || resolved(ref)) return
        const anchoredRef = root === null ? null : anchor(ref, root)
        if (anchoredRef === null) dangling.add(ref)
        else rewrites.push({ at: at(), key, ref: anchoredRef })
      }
      see(value.$ref, () => pathOf(place), '$ref')
      // A discriminator's mapping names its schemas by ref too (a name of a component is no ref).
      const mapping = !place.inMap && isObject(value.discriminator) && isObject(value.discriminator.mapping) ? value.discriminator.mapping : null
      if (mapping !== null) for (const [name, ref] of Object.entries(mapping)) see(ref, () => [...pathOf(place), 'discriminator', 'mapping'], name)
    }
    const inComponents = place.key === 'schemas' && place.parent?.key === 'components' && place.parent.parent?.parent === null
    const keys = Object.keys(value)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]
      const child = (value as Record<string, unknown>)[key]
      const kind = kindIn(value, key, place.inMap)
      if (typeof child !== 'object' || child === null || kind === 'data') continue
      const next: Place = { value: child, parent: place, key, root, inMap: kind === 'map' }
      stack.push(root === null && (key === 'schema' || inComponents) ? { ...next, root: next } : next)
    }
  }
  return { rewrites, dangling: [...dangling] }
}

// The ref written from the document's root, where it names a place of its schema (which the document does not).
function anchor (ref: string, root: Place): string | null {
  if (!namesOwnPlace(root.value, ref)) return null
  return `#/${pathOf(root).map(pointerToken).join('/')}${ref.slice(1)}`
}
