import type { OpenApiDocument } from './document.js'
import { pointerTarget } from './resolve-ref.js'
import { DATA_KEYWORDS } from '../util/data-keywords.js'
import { isObject } from '../util/is-object.js'

/**
 * The refs of a document into itself (`#/...`) that name nothing in it, each once, in the order met: where a
 * schema's ref names a component no one added (a type provider's, see docs/openapi.md), OpenAPI tools cannot
 * resolve it, and a comparison of versions reads it as any value. Its refs to its schemas' own definitions are to
 * be anchored first (see anchored-refs.ts). Walked with a list of its own: a document may nest deeper than
 * recursion goes.
 */
export function danglingRefs (document: OpenApiDocument): string[] {
  const found = new Set<string>()
  const stack: unknown[] = [document]
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (typeof value !== 'object' || value === null) continue
    if (isObject(value) && typeof value.$ref === 'string' && value.$ref.startsWith('#') && pointerTarget(document, value.$ref) === undefined) found.add(value.$ref)
    // Children pushed last first: taken in the document's order.
    const entries = Object.entries(value)
    for (let i = entries.length - 1; i >= 0; i--) if (Array.isArray(value) || !DATA_KEYWORDS.has(entries[i][0])) stack.push(entries[i][1])
  }
  return [...found]
}
