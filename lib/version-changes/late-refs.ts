import { isObject } from '../util/is-object.js'
import { names } from './schema-identity.js'
import type { SharedSchemas } from './shared-ref.js'

// The `$id`s of the shared schemas a schema refers to (its local `#/...` references left out), found once a schema.
const found = new WeakMap<object, readonly string[]>()

function refIds (schema: object): readonly string[] {
  let ids = found.get(schema)
  if (ids === undefined) {
    const refs = new Set<string>()
    const seen = new Set<object>()
    const stack: unknown[] = [schema]
    while (stack.length > 0) {
      const node = stack.pop()
      if (typeof node !== 'object' || node === null || seen.has(node)) continue
      seen.add(node)
      const ref = (node as { $ref?: unknown }).$ref
      if (typeof ref === 'string' && !ref.startsWith('#')) refs.add(ref.split('#', 1)[0])
      for (const value of Object.values(node)) stack.push(value)
    }
    found.set(schema, ids = [...refs])
  }
  return ids
}

// Each shared schema that schemas reach through references, once: its `$id` and the schema (undefined where unknown).
function reachedIds (schemas: readonly unknown[], shared: SharedSchemas): Map<string, unknown> {
  const reached = new Map<string, unknown>()
  const queue = schemas.flatMap(schema => typeof schema === 'object' && schema !== null ? refIds(schema) : [])
  while (queue.length > 0) {
    const id = queue.pop() as string
    if (reached.has(id)) continue
    const target = shared(id)
    reached.set(id, target)
    if (isObject(target)) queue.push(...refIds(target))
  }
  return reached
}

/**
 * The shared schemas a route's schema refers to, directly or through other shared schemas, that its instance does
 * not know yet (added after the route), by `$id`: a versionChanges route's versions are planned when it is declared.
 */
export function unknownRefs (schema: unknown, shared: SharedSchemas): string[] {
  // By part (and response status): routes share their parts' schemas, whose references are found once.
  const given = isObject(schema) ? schema : {}
  const parts = [given.body, given.querystring, given.query, given.params, given.headers, ...isObject(given.response) ? Object.values(given.response) : []]
  return [...reachedIds(parts, shared)].filter(([, target]) => target === undefined).map(([id]) => id)
}

/** Whether a shared schema, or one it refers to, holds a schema that one of the rules names (see names). */
export function holdsNamed (id: string, rules: ReadonlyArray<{ readonly schema: unknown, readonly id: string | null }>, shared: SharedSchemas): boolean {
  const stack = [...reachedIds([{ $ref: id }], shared).values()].filter(isObject) as object[]
  // An object a schema holds twice is looked at once.
  const seen = new Set<object>()
  while (stack.length > 0) {
    const node = stack.pop() as object
    if (seen.has(node)) continue
    seen.add(node)
    if (isObject(node) && rules.some(rule => names(rule, node))) return true
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value)
  }
  return false
}
