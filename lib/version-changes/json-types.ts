import { isObject } from '../util/is-object.js'
import { reached, type SharedSchemas } from './shared-ref.js'

/** The JSON types a schema admits (`integer` apart from `number`), or null where it says nothing of them (any). */
export type JsonTypes = ReadonlySet<string> | null

/** What a schema says of the types of its values: its `type`, `const`, `enum`, or the members of a union. */
export function typesOf (schema: unknown, shared: SharedSchemas, depth = 0): JsonTypes {
  if (schema === false) return new Set()
  if (!isObject(schema) || depth > 32) return null
  if (typeof schema.$ref === 'string') {
    const target = reached(schema.$ref, shared)
    return target === null ? null : typesOf(target, shared, depth + 1)
  }
  if (typeof schema.type === 'string') return new Set([schema.type])
  if (Array.isArray(schema.type)) return new Set(schema.type.filter(type => typeof type === 'string'))
  if (Object.hasOwn(schema, 'const')) return new Set([typeOfValue(schema.const)])
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(typeOfValue))
  for (const key of ['anyOf', 'oneOf']) {
    const members = schema[key]
    if (!Array.isArray(members)) continue
    const types = new Set<string>()
    for (const member of members) {
      const own = typesOf(member, shared, depth + 1)
      if (own === null) return null
      for (const type of own) types.add(type)
    }
    return types
  }
  return null
}

/** Whether every value of types `a` is of types `b` (an integer is a number). */
export function within (a: JsonTypes, b: JsonTypes): boolean {
  if (b === null) return true
  if (a === null) return false
  for (const type of a) if (!b.has(type) && !(type === 'integer' && b.has('number'))) return false
  return true
}

/** The types, as a schema would say them. */
export function typesText (types: JsonTypes): string {
  return types === null ? 'any type' : [...types].join(' or ') || 'no value'
}

function typeOfValue (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}
