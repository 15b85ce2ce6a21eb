import type { OpenApiDocument } from './document.js'
import { isObject } from '../util/is-object.js'
import { pointer } from '../util/json-pointer.js'

const EMPTY: Record<string, unknown> = Object.freeze({})

// More refs in a row than any document needs: a ref that leads back to itself.
const MAX_HOPS = 32

/**
 * Follows a local `$ref` (`#/components/schemas/Order`, or any JSON pointer into the document) to what it
 * names, through refs to refs; an object for any schema (`true`, a ref it cannot follow: any value).
 */
export function resolveRef (document: OpenApiDocument, value: unknown): Record<string, unknown> {
  let current = value
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops === MAX_HOPS) return EMPTY
    current = pointerTarget(document, current.$ref)
  }
  return isObject(current) ? current : EMPTY
}

/** What a local ref (`#/...`) names in `root`; another document's ref (not `#...`) names nothing here. */
export function pointerTarget (root: unknown, ref: string): unknown {
  return ref.startsWith('#') ? pointer(root, ref.slice(1)) : undefined
}
