import { isObject } from '../util/is-object.js'
import { originOf } from './schema-identity.js'
import type { SharedSchemas } from './shared-ref.js'

/** How a document's schema says it is a shared schema's shape in its version: this, then the schema's `$id`. */
export const SHARED_COPY = 'fastify-api-versioning: the shared schema '

/**
 * A version's schema of a route as its document takes it: each copy a change made of a shared schema (in place of a
 * `$ref` to it, see deriveSchema) marked with a `$comment` that names the schema, so that the document keeps it a
 * component of that name (see hoistSharedCopies), as the newest version's document has it. New objects only on the
 * way to a copy; the rest is the route's.
 */
export function markSharedCopies (schema: unknown, shared: SharedSchemas): unknown {
  if (Array.isArray(schema)) {
    const items = schema.map(item => markSharedCopies(item, shared))
    return items.some((item, i) => item !== schema[i]) ? items : schema
  }
  if (!isObject(schema)) return schema
  let marked: Record<string, unknown> | null = null
  for (const [key, value] of Object.entries(schema)) {
    const made = markSharedCopies(value, shared)
    if (made === value) continue
    marked ??= { ...schema }
    marked[key] = made
  }
  const origin = originOf(schema) as { $id?: unknown }
  if (origin !== schema && typeof origin.$id === 'string' && shared(origin.$id) === origin) {
    marked ??= { ...schema }
    marked.$comment = SHARED_COPY + origin.$id
  }
  return marked ?? schema
}
