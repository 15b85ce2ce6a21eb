import { isObject } from '../util/is-object.js'
import { keyKind } from '../util/key-kind.js'

const REF = '#/definitions/'

/**
 * A route's schema with draft-07's `definitions` (zod-to-json-schema's, for one) written as `$defs`, and the refs to
 * them (`#/definitions/Line`) as `#/$defs/Line`: for OpenAPI 3, @fastify/swagger drops `definitions` and points the
 * refs at `#/components/schemas/Line`, which no document has, so a document would lose them and the changes of a
 * version could not see theirs. `$defs` it keeps, and the documents anchor refs to them (see changes/anchored-refs.ts).
 * The schema itself where it has no `definitions`; else a copy, the route's own left as it is.
 */
export function withDefs<T> (schema: T): T {
  return hasDefinitions(schema) ? rewritten(schema, false) as T : schema
}

function hasDefinitions (schema: unknown): boolean {
  const seen = new Set<object>()
  const stack: Array<[unknown, boolean]> = [[schema, false]]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [value, inMap] = top
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    seen.add(value)
    if (!inMap && isObject(value) && isObject(value.definitions)) return true
    for (const [key, child] of Object.entries(value)) {
      const kind = Array.isArray(value) ? 'node' : keyKind(key, inMap)
      if (kind !== 'data') stack.push([child, kind === 'map'])
    }
  }
  return false
}

function rewritten (value: unknown, inMap: boolean): unknown {
  if (Array.isArray(value)) return value.map(item => rewritten(item, false))
  if (!isObject(value)) return value
  const copy: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const kind = keyKind(key, inMap)
    if (kind === 'data') copy[key] = child
    else if (inMap) copy[key] = rewritten(child, false)
    else if (key === '$ref' && typeof child === 'string' && child.startsWith(REF)) copy.$ref = `#/$defs/${child.slice(REF.length)}`
    else if (key === 'definitions' && isObject(child)) copy.$defs = { ...rewritten(child, true) as object, ...copy.$defs as object }
    else if (key === '$defs' && isObject(child)) copy.$defs = { ...copy.$defs as object, ...rewritten(child, true) as object }
    else copy[key] = rewritten(child, kind === 'map')
  }
  return copy
}
