import type { OpenApiDocument } from './split.js'
import { isObject } from '../util/is-object.js'

/**
 * Whose schema it is, as a client of the earlier version meets it: what it sends (a request body, a parameter),
 * what it reads on success (a 2xx response), or another response (an error), where no change breaks it.
 */
export type Role = 'request' | 'success' | 'other'

/** A schema of a document: resolved against that document's components. */
export interface SchemaSide {
  readonly document: OpenApiDocument
  readonly schema: unknown
}

/** One difference of two schemas, as the end of a sentence (`property \`total\` removed`). */
export interface SchemaChange {
  readonly text: string
  readonly breaking: boolean
}

type Kind = keyof typeof BREAKING

/**
 * Whether a client of the earlier version can break on a change, by where it meets the schema. A client sends
 * requests the earlier schema took: anything the new one refuses or ignores breaks it (a property removed is
 * no longer read: the server ignores or rejects it). It reads success bodies as the earlier schema promised:
 * anything it did not promise breaks it (a value of an enum it did not list, a property that may now be absent).
 */
const BREAKING = {
  'property-added': { request: false, success: false },
  'required-property-added': { request: true, success: false },
  'property-removed': { request: true, success: true },
  'newly-required': { request: true, success: false },
  'no-longer-required': { request: false, success: true },
  'type-widened': { request: false, success: true },
  'type-narrowed': { request: true, success: false },
  'type-changed': { request: true, success: true },
  'enum-value-added': { request: false, success: true },
  'enum-value-removed': { request: true, success: false },
  'enum-restricted': { request: true, success: false },
  'enum-unrestricted': { request: false, success: true },
  'schema-changed': { request: true, success: true }
} as const

const EMPTY: Record<string, unknown> = Object.freeze({})

/** A schema as compared: its types, values, properties and items, whatever keywords spelled them. */
interface Shape {
  types: string[]
  values: unknown[] | null
  properties: Map<string, unknown>
  required: Set<string>
  items: unknown
  /** The alternatives of a union that is more than a nullable type or a list of types. */
  union: unknown[] | null
}

// More refs in a row than any document needs: a ref that leads back to itself.
const MAX_HOPS = 32

/**
 * Follows a local `$ref` (`#/components/schemas/Order`, or any JSON pointer into the document) to what it
 * names, through refs to refs; an object for any schema (`true`, a ref it cannot follow: any value).
 */
export function resolveRef (document: OpenApiDocument, value: unknown): Record<string, unknown> {
  let current = value
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops === MAX_HOPS) return EMPTY
    current = pointer(document, current.$ref)
  }
  return isObject(current) ? current : EMPTY
}

// Another document's ref (no '#/') names nothing here.
function pointer (document: OpenApiDocument, ref: string): unknown {
  let target: unknown = ref.startsWith('#/') ? document : undefined
  for (const token of ref.slice(2).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~')
    target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined
  }
  return target
}

/** What differs from `from` to `to`, property by property, in the order of the properties' names. */
export function compareSchemas (from: SchemaSide, to: SchemaSide, role: Role): SchemaChange[] {
  const changes: SchemaChange[] = []
  // The pairs of schemas being compared, outer to inner: a recursive schema meets a pair again, and stops there.
  const open = new Map<object, Set<object>>()
  function emit (kind: Kind, path: string, detail: string): void {
    changes.push({ text: sentence(kind, path, detail), breaking: role !== 'other' && BREAKING[kind][role] })
  }
  function compare (a: unknown, b: unknown, path: string): void {
    const x = resolveRef(from.document, a)
    const y = resolveRef(to.document, b)
    let pairs = open.get(x)
    if (pairs?.has(y) === true) return
    if (pairs === undefined) open.set(x, pairs = new Set())
    pairs.add(y)
    compareShapes(shape(from.document, x, new Set()), shape(to.document, y, new Set()), path)
    pairs.delete(y)
  }
  function compareShapes (x: Shape, y: Shape, path: string): void {
    if (x.union !== null || y.union !== null) {
      // Alternatives in the same places are compared in place; others cannot be matched up: said, as a whole.
      if (x.union?.length === y.union?.length) (x.union as unknown[]).forEach((branch, i) => compare(branch, (y.union as unknown[])[i], path))
      else emit('schema-changed', path, '')
      return
    }
    if (!sameSet(x.types, y.types)) {
      const kind = covers(y.types, x.types) ? 'type-widened' : covers(x.types, y.types) ? 'type-narrowed' : 'type-changed'
      emit(kind, path, `from ${typeText(x.types)} to ${typeText(y.types)}`)
      // Another kind of value: what its properties or items were is no longer the question.
      if (x.types.length > 0 && y.types.length > 0 && !x.types.some(type => y.types.includes(type))) return
    }
    compareValues(x.values, y.values, path)
    for (const name of [...new Set([...x.properties.keys(), ...y.properties.keys()])].sort()) {
      const child = path === '' ? name : `${path}.${name}`
      if (!y.properties.has(name)) {
        emit('property-removed', child, '')
      } else if (!x.properties.has(name)) {
        emit(y.required.has(name) ? 'required-property-added' : 'property-added', child, '')
      } else {
        if (!x.required.has(name) && y.required.has(name)) emit('newly-required', child, '')
        if (x.required.has(name) && !y.required.has(name)) emit('no-longer-required', child, '')
        compare(x.properties.get(name), y.properties.get(name), child)
      }
    }
    if (x.items !== undefined && y.items !== undefined) compare(x.items, y.items, `${path}[]`)
  }
  function compareValues (x: unknown[] | null, y: unknown[] | null, path: string): void {
    if (x === null && y === null) return
    if (x === null) return emit('enum-restricted', path, (y as unknown[]).map(valueText).join(', '))
    if (y === null) return emit('enum-unrestricted', path, '')
    const before = new Set(x.map(value => JSON.stringify(value)))
    const after = new Set(y.map(value => JSON.stringify(value)))
    for (const value of x) if (!after.has(JSON.stringify(value))) emit('enum-value-removed', path, valueText(value))
    for (const value of y) if (!before.has(JSON.stringify(value))) emit('enum-value-added', path, valueText(value))
  }
  compare(from.schema, to.schema, '')
  return changes
}

/** The sentence of a change at a property path ('' for the schema itself); fixed words around the names. */
function sentence (kind: Kind, path: string, detail: string): string {
  const at = path === '' ? '' : ` of ${code(path)}`
  switch (kind) {
    case 'property-added': return `property ${code(path)} added`
    case 'required-property-added': return `required property ${code(path)} added`
    case 'property-removed': return `property ${code(path)} removed`
    case 'newly-required': return `property ${code(path)} newly required`
    case 'no-longer-required': return `property ${code(path)} no longer required`
    case 'enum-value-added': return `value ${detail} added to the enum${at}`
    case 'enum-value-removed': return `value ${detail} removed from the enum${at}`
    case 'enum-restricted': return `values${at} restricted to ${detail}`
    case 'enum-unrestricted': return `values${at} no longer restricted`
    case 'schema-changed': return `schema${at} changed`
    default: return `type${at} changed ${detail}`
  }
}

/**
 * A schema's types, values, properties and items. `allOf` adds its parts up; a union of one schema and `null`
 * is that schema, nullable; a union of plain types is those types; another union is kept as its alternatives.
 * `open` holds the schemas being shaped, outer to inner: a schema that is part of itself adds nothing more.
 */
function shape (document: OpenApiDocument, schema: Record<string, unknown>, open: Set<object>): Shape {
  const result: Shape = {
    types: schema.type === undefined ? [] : ([] as unknown[]).concat(schema.type).map(String),
    values: Array.isArray(schema.enum) ? schema.enum : Object.hasOwn(schema, 'const') ? [schema.const] : null,
    properties: new Map(isObject(schema.properties) ? Object.entries(schema.properties) : []),
    required: new Set(Array.isArray(schema.required) ? schema.required.map(String) : []),
    items: schema.items,
    union: null
  }
  if (open.has(schema)) return result
  open.add(schema)
  const parts = (key: string): Shape[] => (Array.isArray(schema[key]) ? schema[key] as unknown[] : [])
    .map(part => shape(document, resolveRef(document, part), open))
  for (const part of parts('allOf')) merge(result, part)
  const union = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : null
  if (union !== null) {
    const branches = parts(union)
    const others = branches.filter(branch => !isNull(branch))
    if (others.length === 1) merge(result, others[0])
    else if (others.every(isPlainType)) result.types.push(...others.flatMap(branch => branch.types))
    else result.union = schema[union] as unknown[]
    if (others.length < branches.length) result.types.push('null')
  }
  open.delete(schema)
  if (schema.nullable === true) result.types.push('null')
  if (result.types.length === 0 && result.properties.size > 0) result.types.push('object')
  if (result.types.length === 0 && result.items !== undefined) result.types.push('array')
  // One order whatever the keywords' order, `null` last: `string | null`.
  const types = [...new Set(result.types)].sort()
  result.types = [...types.filter(type => type !== 'null'), ...types.filter(type => type === 'null')]
  return result
}

function merge (into: Shape, part: Shape): void {
  into.types.push(...part.types)
  into.values ??= part.values
  for (const [name, property] of part.properties) into.properties.set(name, property)
  for (const name of part.required) into.required.add(name)
  into.items ??= part.items
  into.union ??= part.union
}

function isNull (branch: Shape): boolean {
  return branch.types.length === 1 && branch.types[0] === 'null'
}

function isPlainType (branch: Shape): boolean {
  return branch.types.length > 0 && branch.values === null && branch.properties.size === 0 && branch.items === undefined && branch.union === null
}

function sameSet (a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every(type => b.includes(type))
}

// Every value of `inner` is one of `outer`: no types is any value, and a number can be an integer.
function covers (outer: readonly string[], inner: readonly string[]): boolean {
  return outer.length === 0 || (inner.length > 0 && inner.every(type => outer.includes(type) || (type === 'integer' && outer.includes('number'))))
}

function typeText (types: readonly string[]): string {
  return types.length === 0 ? 'any' : code(types.join(' | '))
}

function valueText (value: unknown): string {
  return code(JSON.stringify(value))
}

/**
 * A name as markdown code, whatever it holds: fenced by more backticks than it has in a row, and control
 * characters (a newline would end the list item) written as escapes.
 */
export function code (text: string): string {
  const escaped = text.replace(/\p{Cc}/gu, c => JSON.stringify(c).slice(1, -1))
  const longest = Math.max(0, ...(escaped.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = escaped.startsWith('`') || escaped.endsWith('`') ? ' ' : ''
  return fence + pad + escaped + pad + fence
}
