import { isObject } from '../util/is-object.js'
import { pointerToken } from '../util/json-pointer.js'
import { withMappedRefs } from '../util/discriminator-mapping.js'
import { keyKind } from '../util/key-kind.js'
import { someNode } from '../util/schema-nodes.js'
import { namesOwnPlace } from '../util/names-own-place.js'

const REF = '#/definitions/'

/**
 * A route's schema as @fastify/swagger is to document it, with the schema's own definitions where its refs find
 * them once the documents anchor those refs (see changes/anchored-refs.ts):
 * - draft-07's `definitions` (zod-to-json-schema's, for one) written as `$defs`, and the refs to them
 *   (`#/definitions/Line`) as `#/$defs/Line`: for OpenAPI 3, @fastify/swagger drops `definitions` and points the
 *   refs at `#/components/schemas/Line`, which no document has; `$defs` it keeps;
 * - a subschema with an `$id` of its own whose refs name its own places (`#/$defs/C`): @fastify/swagger makes it a
 *   component (`def-0`) without its `$defs`, and drops `$id`, so its refs named nothing. Its `$id` is left out of the
 *   copy, which keeps it in place, and those refs are written from the root of the schema the document holds (a
 *   body's or response's; each property's of a query string, params or headers, which become parameters); not where
 *   another ref of the schema names it by its `$id`.
 * The schema itself where there is nothing to change; else a copy that shares all it does not change, the route's
 * own left as it is.
 */
export function withOwnDefinitions<T> (schema: T): T {
  if (!isObject(schema)) return schema
  let copy: Record<string, unknown> | null = null
  for (const [part, value] of Object.entries(schema)) {
    const kept = part === 'response' && isObject(value) ? mapped(value, byContent) : PARAMETERS.has(part) ? byProperty(value) : byContent(value)
    if (kept !== value) (copy ??= { ...schema })[part] = kept
  }
  return (copy ?? schema) as T
}

// The parts @fastify/swagger makes parameters of, a property each.
const PARAMETERS = new Set(['querystring', 'query', 'params', 'headers'])

// A part whose properties are each a parameter's schema, the root its refs are read from once documented.
function byProperty (part: unknown): unknown {
  if (!isObject(part) || !isObject(part.properties)) return keptRoot(part)
  const properties = mapped(part.properties, keptRoot)
  return properties === part.properties ? part : { ...part, properties }
}

// A part's schema, or each of its schemas by content type (Fastify's `content`), each the root its refs are read from.
function byContent (part: unknown): unknown {
  if (!isObject(part) || !isObject(part.content)) return keptRoot(part)
  const content = mapped(part.content, media => {
    if (!isObject(media)) return media
    const schema = keptRoot(media.schema)
    return schema === media.schema ? media : { ...media, schema }
  })
  return content === part.content ? part : { ...part, content }
}

// The refs of a root that name a subschema by its `$id`, found at the first subschema whose `$id` would be left out.
interface Root { readonly value: unknown, named: Set<string> | null }

function keptRoot (value: unknown): unknown {
  return withRootRef(kept(value, false, [], null, { value, named: null }))
}

// A root that is a `$ref` into its own `$defs` beside them (zod-to-json-schema's named output): @fastify/swagger reads
// a schema with a `$ref` as the ref alone and drops the rest, the `$defs` too. The ref is made the one member of an
// `allOf`, the same schema.
function withRootRef (schema: unknown): unknown {
  if (!isObject(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/$defs/') || !isObject(schema.$defs)) return schema
  const { $ref, ...rest } = schema
  return { ...rest, allOf: [...Array.isArray(rest.allOf) ? rest.allOf : [], { $ref }] }
}

/**
 * `value` with its definitions and refs as withOwnDefinitions says. `path` is its place from its root; `base` the
 * subschema its refs are read from, and its place, where that is no longer the root (its `$id` left out).
 */
function kept (value: unknown, inMap: boolean, path: readonly string[], base: Scope | null, root: Root): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item, i) => kept(item, false, [...path, String(i)], base, root))
    return items.every((item, i) => item === value[i]) ? value : items
  }
  if (!isObject(value)) return value
  const dropsId = !inMap && path.length > 0 && typeof value.$id === 'string' && hasOwnRefs(value) && !namedById(root, value.$id)
  const scope = dropsId ? { node: value, path } : base
  let changed = dropsId
  let definitions: object | undefined
  const copy: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const kind = keyKind(key, inMap)
    if (dropsId && key === '$id') continue
    if (!inMap && key === 'definitions' && isObject(child)) {
      definitions = kept(child, true, [...path, '$defs'], scope, root) as object
      changed = true
      continue
    }
    const given = kind === 'data'
      ? child
      : !inMap && key === '$ref' && typeof child === 'string' && child.startsWith('#')
          ? rooted(child, scope)
          : !inMap && key === 'discriminator'
              ? withMappedRefs(child, ref => ref.startsWith('#') ? rooted(ref, scope) : ref)
              : kept(child, kind === 'map', [...path, key], scope, root)
    if (given !== child) changed = true
    copy[key] = given
  }
  // Where a schema has both, its own $defs are the ones its refs to `#/$defs` meant.
  if (definitions !== undefined) copy.$defs = { ...definitions, ...copy.$defs as object }
  return changed ? copy : value
}

interface Scope { readonly node: Record<string, unknown>, readonly path: readonly string[] }

// A ref read from `base` (the root where null), written from the root where it names a place of that subschema
// (`#`, `#/$defs/C`; another, `#anchor` or a component's, as it is), and to `$defs` where it named `definitions`.
function rooted (ref: string, base: Scope | null): string {
  const local = ref.startsWith(REF) ? `#/$defs/${ref.slice(REF.length)}` : ref
  return base === null || !namesOwnPlace(base.node, ref) ? local : `#/${base.path.map(pointerToken).join('/')}${local.slice(1)}`
}

// Whether a ref of the root names the subschema by its `$id` (`B`, `B#/...`), which, left out, would name nothing.
function namedById (root: Root, id: string): boolean {
  if (root.named === null) {
    const named = root.named = new Set<string>()
    someNode(root.value, node => {
      if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) named.add(node.$ref.split('#', 1)[0])
      return false
    })
  }
  return root.named.has(id)
}

// Whether a subschema holds refs to its own places (`#...`), where no subschema with an `$id` of its own is between.
function hasOwnRefs (schema: Record<string, unknown>): boolean {
  return someNode(schema, node => node !== schema && typeof node.$id === 'string' ? 'skip' : typeof node.$ref === 'string' && namesOwnPlace(schema, node.$ref))
}

// A map with each value given by `each`: the map itself where none changed.
function mapped (map: Record<string, unknown>, each: (value: unknown) => unknown): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null
  for (const [key, value] of Object.entries(map)) {
    const given = each(value)
    if (given !== value) (copy ??= { ...map })[key] = given
  }
  return copy ?? map
}
