import type { OpenApiDocument } from '../changes/document.js'
import { SHARED_COPY } from '../version-changes/shared-copies.js'
import { SCHEMA_REF } from './component-ref.js'
import { isComponentName } from '../util/component-name.js'

/**
 * A version's document with each copy of a shared schema its routes hold (marked, see markSharedCopies) made the
 * component of that schema's name again, in that version's shape, and every copy a reference to it: a client
 * generated for the version names the type as the newest's does (and as a `schemas` instruction renames it).
 */
export function hoistSharedCopies (document: OpenApiDocument): void {
  const hoisted = new Map<string, unknown>()
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit)
    if (typeof value !== 'object' || value === null) return value
    const node = value as Record<string, unknown>
    const comment = node.$comment
    const copy = typeof comment === 'string' && comment.startsWith(SHARED_COPY)
    const visited: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(node)) if (key !== '$comment' || !copy) visited[key] = visit(child)
    // A schema whose `$id` names no component (a URL) is one the newest document numbers: its copy stays in place.
    const name = copy ? comment.slice(SHARED_COPY.length) : ''
    if (!isComponentName(name)) return visited
    if (!hoisted.has(name)) hoisted.set(name, visited)
    return { $ref: SCHEMA_REF + name }
  }
  for (const key of ['paths', 'webhooks']) if (document[key] !== undefined) document[key] = visit(document[key])
  if (hoisted.size === 0) return
  const schemas = { ...document.components?.schemas }
  for (const [name, schema] of hoisted) schemas[name] = schema
  document.components = { ...document.components, schemas }
}
