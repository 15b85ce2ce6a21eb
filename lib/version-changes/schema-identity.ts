import { isObject } from '../util/is-object.js'

/**
 * Which schema of the app a schema node is, the one question every instruction asks ("is this the schema I name?"),
 * answered in one place for every copy a schema may have:
 * - a copy derived for an older version stands for the schema it was made from;
 * - a node of a shared schema is Fastify's deep copy of what `addSchema` was given (nested schemas included), so
 *   there it is recognised by its shape: the same keywords and values as the schema the instruction names;
 * - a copy one level deep (TypeBox's `Type.Optional` and `Type.Readonly`, a spread that adds a description) holds
 *   the schema's very values: it is that schema, as an instruction about its fields or members is about it.
 */

// Derived copy → the app's schema it was made from.
const origins = new WeakMap<object, object>()
// Every node of the shared schemas reached so far (Fastify's copies).
const copied = new WeakSet<object>()
// A schema's shape, as text: its keywords and values, in order (symbols, such as TypeBox's, left out).
const shapes = new WeakMap<object, string | null>()

/** Notes that `copy` was derived from `node`: it stands for the app's schema `node` stands for. */
export function derivedFrom (copy: object, node: object): void {
  origins.set(copy, originOf(node))
}

/** The app's schema a schema of some version stands for: itself, or the one a derived copy was made from. */
export function originOf (node: object): object {
  return origins.get(node) ?? node
}

/** Notes the nodes of a shared schema (as the app's instance keeps it), whose nested schemas are copies. */
export function noteShared (root: object): void {
  if (copied.has(root)) return
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()
    if (!isObject(node) || copied.has(node)) continue
    copied.add(node)
    for (const value of Object.values(node)) if (typeof value === 'object') stack.push(value)
  }
}

/** Whether `rule` is about `node` (of any version): the same schema object, a schema with its `$id`, or in a shared schema one of its shape. */
export function names (rule: { schema: unknown, id: string | null }, node: object): boolean {
  const origin = originOf(node)
  if (origin === rule.schema) return true
  if (rule.id !== null && (origin as { $id?: unknown }).$id === rule.id) return true
  if (!isObject(rule.schema)) return false
  if (copied.has(origin)) return !copied.has(rule.schema) && sameShape(origin, rule.schema)
  return isShallowCopy(origin as Record<string, unknown>, rule.schema)
}

// What a one-level copy may add: words about the value, not rules of it (and a scalar's default, see isShallowCopy),
// or about the response it is the body of (@fastify/swagger's `headers` beside a status's schema: `{ ...Item, headers }`).
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'headers'])

// Whether `node` has every keyword of `schema` with the very same value, an object among them (`properties`, `enum`,
// `anyOf`: a schema of scalars alone is matched by identity), and otherwise annotations only.
function isShallowCopy (node: Record<string, unknown>, schema: Record<string, unknown>): boolean {
  let shares = false
  for (const key of Object.keys(schema)) {
    const value = schema[key]
    if (node[key] !== value || !Object.hasOwn(node, key)) return false
    shares ||= typeof value === 'object' && value !== null
  }
  if (!shares) return false
  // A default of a scalar (an enum's, a query parameter's) names no field; an object's would, in one version's names.
  for (const key of Object.keys(node)) if (!Object.hasOwn(schema, key) && !ANNOTATIONS.has(key) && !(key === 'default' && (typeof node.default !== 'object' || node.default === null))) return false
  return true
}

function shapeOf (node: object): string | null {
  let shape = shapes.get(node)
  if (shape === undefined) {
    try {
      shape = JSON.stringify(node)
    } catch {
      // A schema that holds itself has no shape as text: it is matched by identity alone.
      shape = null
    }
    shapes.set(node, shape)
  }
  return shape
}

/** Whether two schemas have one shape (see names); a schema that holds itself has none, so is like no other. */
export function sameShape (a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (!isObject(a) || !isObject(b)) return false
  const shape = shapeOf(a)
  return shape !== null && shape === shapeOf(b)
}
