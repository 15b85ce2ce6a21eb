import { isObject } from '../util/is-object.js'
import { pointer } from '../util/json-pointer.js'
import { noteShared } from './schema-identity.js'

/** Finds a shared schema by its `$id`, as the route's instance knows them (`instance.getSchema`), or undefined. */
export type SharedSchemas = (id: string) => unknown

const byInstance = new WeakMap<object, SharedSchemas>()

/** The shared schemas of an instance (see sharedSchemas), one function for it: what is planned with it is kept. */
export function sharedSchemasOf (instance: { getSchema: (id: string) => unknown }): SharedSchemas {
  let shared = byInstance.get(instance)
  if (shared === undefined) byInstance.set(instance, shared = sharedSchemas(id => instance.getSchema(id)))
  return shared
}

/**
 * The shared schemas of an instance, as instructions see them: each one found is noted as Fastify's copy of what
 * `addSchema` was given, so that the schemas nested in it are recognised by their shape (see names).
 */
export function sharedSchemas (getSchema: (id: string) => unknown): SharedSchemas {
  return id => {
    const schema = getSchema(id)
    if (isObject(schema)) noteShared(schema)
    return schema
  }
}

/**
 * What a `$ref` to a shared schema reaches (`Order`, `Order#`, `Order#/properties/lines`), or null: a local one
 * (`#/...`), or one that leads nowhere.
 */
export function reached (ref: string, shared: SharedSchemas): Record<string, unknown> | null {
  const hash = ref.indexOf('#')
  const id = hash === -1 ? ref : ref.slice(0, hash)
  let at: unknown = id === '' ? undefined : shared(id)
  const fragment = hash === -1 ? '' : ref.slice(hash + 1)
  if (fragment !== '/') at = pointer(at, fragment)
  return isObject(at) ? at : null
}

// More refs in a row than any schema needs: a ref that leads back to itself.
const MAX_HOPS = 32

/**
 * A schema, `$ref`s followed: a local one (`#/definitions/Line`) within the schema it is in (`base`: the route's
 * part, or the shared schema it is in), another to a shared schema; with the schema its own local refs resolve in.
 * A `$ref` that leads nowhere is no schema. `hop` sees each schema of the way that is a `$ref` (its other keywords
 * are no part of the result).
 */
export function resolveRefs (given: unknown, base: Record<string, unknown>, shared: SharedSchemas, hop?: (node: Record<string, unknown>) => void): [Record<string, unknown>, Record<string, unknown>] | null {
  let at = isObject(given) ? given : null
  let root = base
  for (let hops = 0; at !== null && typeof at.$ref === 'string'; hops++) {
    hop?.(at)
    const ref: string = at.$ref
    if (hops === MAX_HOPS) return null
    if (ref.startsWith('#')) {
      const found = pointer(root, ref.slice(1))
      at = isObject(found) ? found : null
    } else {
      at = reached(ref, shared)
      const target = shared(ref.split('#')[0])
      if (isObject(target)) root = target
    }
  }
  return at === null ? null : [at, root]
}
