import { isObject } from '../util/is-object.js'
import { someNode } from '../util/schema-nodes.js'
import { names } from './schema-identity.js'
import { reached, type SharedSchemas } from './shared-ref.js'

// The references to shared schemas (`Item#`, `Item#/properties/tags`) a schema holds, its local `#/...` ones left
// out: found once a schema.
const found = new WeakMap<object, readonly string[]>()

function refsOf (schema: object): readonly string[] {
  let refs = found.get(schema)
  if (refs === undefined) {
    const all = new Set<string>()
    someNode(schema, node => {
      if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) all.add(node.$ref)
      return false
    })
    found.set(schema, refs = [...all])
  }
  return refs
}

// Each reference that schemas reach, through the shared schemas they reach, once: with what it reaches (the shared
// schema, or the part of it a pointer names), null where its shared schema is not known.
function reachedRefs (schemas: readonly unknown[], shared: SharedSchemas): Map<string, object | null> {
  const reachedBy = new Map<string, object | null>()
  const queue = schemas.flatMap(schema => typeof schema === 'object' && schema !== null ? refsOf(schema) : [])
  while (queue.length > 0) {
    const ref = queue.pop() as string
    if (reachedBy.has(ref)) continue
    const target = shared(ref.split('#', 1)[0]) === undefined ? null : reached(ref, shared)
    reachedBy.set(ref, target)
    if (target !== null) queue.push(...refsOf(target))
  }
  return reachedBy
}

/**
 * The references to shared schemas a route's schema holds, directly or through other shared schemas, whose shared
 * schema its instance does not know yet (added after the route): a versionChanges route's versions are planned when
 * it is declared.
 */
export function unknownRefs (schema: unknown, shared: SharedSchemas): string[] {
  // By part (and response status): routes share their parts' schemas, whose references are found once.
  const given = isObject(schema) ? schema : {}
  const parts = [given.body, given.querystring, given.query, given.params, given.headers, ...isObject(given.response) ? Object.values(given.response) : []]
  return [...reachedRefs(parts, shared)].filter(([ref, target]) => target === null && shared(ref.split('#', 1)[0]) === undefined).map(([ref]) => ref)
}

/** Whether what a reference reaches, or a shared schema it refers to, holds a schema that one of the rules names (see names). */
export function holdsNamed (ref: string, rules: ReadonlyArray<{ readonly schema: unknown, readonly id: string | null }>, shared: SharedSchemas): boolean {
  // An object a schema holds twice is looked at once.
  return someNode([...reachedRefs([{ $ref: ref }], shared).values()], node => rules.some(rule => names(rule, node)))
}
