import { code } from './code.js'
import { combine, compareConstraint, constraintsOf, CONSTRAINTS } from './constraints.js'
import type { Rename } from './renames.js'
import { resolveRef } from './resolve-ref.js'
import type { OpenApiDocument } from './document.js'
import { sameValue } from './same-value.js'
import { checkDepth } from './too-deep.js'
import { isDocumentation, notJudged } from './unjudged.js'
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
  // Declared by versionChanges: one change, as breaking as the property removed (the client sends or reads the old name).
  'property-renamed': { request: true, success: true },
  'newly-required': { request: true, success: false },
  'no-longer-required': { request: false, success: true },
  'type-widened': { request: false, success: true },
  'type-narrowed': { request: true, success: false },
  'type-changed': { request: true, success: true },
  'enum-value-added': { request: false, success: true },
  'enum-value-removed': { request: true, success: false },
  'enum-restricted': { request: true, success: false },
  'enum-unrestricted': { request: false, success: true },
  'schema-changed': { request: true, success: true },
  // A constraint that takes fewer values (a lower maxLength, a pattern or format set, a body closed by
  // `additionalProperties: false`), more, or other ones (a pattern changed: neither can be told).
  'constraint-tightened': { request: true, success: false },
  'constraint-loosened': { request: false, success: true },
  'constraint-changed': { request: true, success: true },
  // A position of a tuple (or the items past them) where there was none: the array may be longer than it was
  // promised to be; and back, a client sending it is refused.
  'item-added': { request: false, success: true },
  'item-removed': { request: true, success: false },
  // The names a pattern matches are now held by the other patterns or `additionalProperties` (or back): whether
  // that takes more values or fewer cannot be told.
  'pattern-added': { request: true, success: true },
  'pattern-removed': { request: true, success: true },
  // What no rule reads: said, with no verdict.
  'not-judged': { request: false, success: false }
} as const

// The keywords a shape is read from (with the constraints, and how a schema is written: refs and their names).
const SHAPE_KEYWORDS = new Set<string>([
  'type', 'enum', 'const', 'properties', 'patternProperties', 'required', 'items', 'prefixItems', 'additionalItems', 'allOf', 'anyOf', 'oneOf', 'nullable',
  '$ref', '$id', '$schema', '$anchor', '$defs', 'definitions', ...CONSTRAINTS
])

/** A schema as compared: its types, values, properties and items, whatever keywords spelled them. */
interface Shape {
  types: string[]
  values: unknown[] | null
  properties: Map<string, unknown>
  required: Set<string>
  /** The schema of the values of the properties no other keyword names, when one is set (`false` is a constraint). */
  additional: unknown
  /** The schemas of the values of the properties whose names match a pattern, by pattern. */
  patterns: Map<string, unknown>
  /** A tuple's schemas, by position (`prefixItems`, or `items` as a list). */
  positions: unknown[] | null
  /** The schema of the items past the positions (all of them when there are none): `false` for none, undefined for any. */
  items: unknown
  /** The alternatives of a union that is more than a nullable type, a list of types or an enum. */
  union: unknown[] | null
  /** The constraints set (see constraintsOf). */
  constraints: Map<string, unknown>
  /** The keywords no rule reads, but documentation: their values (a list where `allOf` parts add up). */
  extras: Map<string, unknown[]>
}

/**
 * What differs from `from` to `to`, property by property, in the order of the properties' names. Each pair of
 * schemas is compared once, where it is first met: a recursive schema meets a pair again, and a shared one used
 * in several places (each of its uses a pair of the same two schemas) says what changed in it once. So the time is
 * linear in the schemas compared, however often they refer to each other. `asText`: the schemas are a parameter's,
 * whose value is text on the wire.
 */
export function compareSchemas (from: SchemaSide, to: SchemaSide, role: Role, renames: readonly Rename[] = [], asText = false): SchemaChange[] {
  const changes: SchemaChange[] = []
  // A parameter's value is text on the wire: a text takes every number or boolean it took (`7`, `true`).
  const wider = asText ? coversAsText : covers
  const met = new Map<object, Set<object>>()
  const shapeFrom = shaper(from.document)
  const shapeTo = shaper(to.document)
  function say (kind: Kind, text: string): void {
    changes.push({ text, breaking: role !== 'other' && BREAKING[kind][role] })
  }
  function emit (kind: Kind, path: string, detail: string): void {
    say(kind, sentence(kind, path, detail))
  }
  function compare (a: unknown, b: unknown, path: string, depth: number): void {
    const x = resolveRef(from.document, a)
    const y = resolveRef(to.document, b)
    let pairs = met.get(x)
    if (pairs?.has(y) === true) return
    if (pairs === undefined) met.set(x, pairs = new Set())
    pairs.add(y)
    checkDepth(depth)
    compareShapes(shapeFrom(x), shapeTo(y), path, depth + 1)
  }
  function compareShapes (x: Shape, y: Shape, path: string, depth: number): void {
    // Alternatives that cannot be matched up (another number of them) are said as a whole.
    if (x.union?.length !== y.union?.length) {
      compareOwn(x, y, path)
      emit('schema-changed', path, '')
      return
    }
    compareKeywords(x, y, path, depth)
    // The schema beside its alternatives (properties all of them share) was compared first; then each in its place.
    x.union?.forEach((branch, i) => compare(branch, (y.union as unknown[])[i], path, depth))
  }
  function compareKeywords (x: Shape, y: Shape, path: string, depth: number): void {
    if (!sameSet(x.types, y.types)) {
      let kind: Kind = wider(y.types, x.types) ? 'type-widened' : wider(x.types, y.types) ? 'type-narrowed' : 'type-changed'
      // A text takes every number it took only where it takes any text: not an enum's, a pattern's or a format's.
      if (kind === 'type-widened' && !covers(y.types, x.types) && (y.values !== null || y.constraints.size > 0)) kind = 'type-changed'
      emit(kind, path, `from ${typeText(x.types)} to ${typeText(y.types)}`)
      // Another kind of value: what its properties, items or bounds were is no longer the question.
      if (x.types.length > 0 && y.types.length > 0 && !x.types.some(type => y.types.includes(type))) return
    }
    compareValues(x.values, y.values, path)
    compareOwn(x, y, path)
    compareProperties(x, y, path, depth)
    compareMaps(x, y, path, depth)
    compareItems(x, y, path, depth)
  }
  // The values of a map, at `name.*` (`additionalProperties`) or `name./pattern/`, as a property's.
  function compareMaps (x: Shape, y: Shape, path: string, depth: number): void {
    // A map closed (`additionalProperties: false`) or opened is the constraint's change: no values, not any.
    const closed = x.constraints.has('additionalProperties') || y.constraints.has('additionalProperties')
    if (!closed && (x.additional !== undefined || y.additional !== undefined)) compare(x.additional, y.additional, child(path, '*'), depth)
    for (const pattern of [...new Set([...x.patterns.keys(), ...y.patterns.keys()])].sort()) {
      const where = child(path, `/${pattern}/`)
      if (!y.patterns.has(pattern)) emit('pattern-removed', where, '')
      else if (!x.patterns.has(pattern)) emit('pattern-added', where, '')
      else compare(x.patterns.get(pattern), y.patterns.get(pattern), where, depth)
    }
  }
  // A tuple's items by position, at `name[0]`, then those past them (an array's items), at `name[]`.
  function compareItems (x: Shape, y: Shape, path: string, depth: number): void {
    const count = Math.max(x.positions?.length ?? 0, y.positions?.length ?? 0)
    for (let i = 0; i < count; i++) compareItem(x.positions?.[i] ?? x.items, y.positions?.[i] ?? y.items, `${path}[${i}]`, depth)
    compareItem(x.items, y.items, `${path}[]`, depth)
  }
  function compareItem (a: unknown, b: unknown, path: string, depth: number): void {
    if (a === false || b === false) {
      if (a !== b) emit(a === false ? 'item-added' : 'item-removed', path, '')
      return
    }
    // No items is any items.
    if (a !== undefined || b !== undefined) compare(a, b, path, depth)
  }
  function compareProperties (x: Shape, y: Shape, path: string, depth: number): void {
    // A name may be required without a schema of its own.
    const names = new Set([...x.properties.keys(), ...y.properties.keys(), ...x.required, ...y.required])
    const renamed = renamedIn(x, y, renames)
    const olderNames = new Set(renamed.values())
    for (const name of [...names].sort()) {
      // A renamed property is said once, under its newer name.
      if (olderNames.has(name)) continue
      const named = child(path, name)
      const older = renamed.get(name) ?? name
      // A property whose schema is `false` (its own, or what `allOf` parts add up to) takes no value: none.
      const before = x.properties.has(older) && x.properties.get(older) !== false
      const after = y.properties.has(name) && y.properties.get(name) !== false
      if (older !== name) emit('property-renamed', named, older)
      if (before && !after) {
        emit('property-removed', named, '')
      } else if (after && !before) {
        emit(y.required.has(name) ? 'required-property-added' : 'property-added', named, '')
      } else {
        if (!x.required.has(older) && y.required.has(name)) emit('newly-required', named, '')
        if (x.required.has(older) && !y.required.has(name)) emit('no-longer-required', named, '')
        if (before) compare(x.properties.get(older), y.properties.get(name), named, depth)
      }
    }
  }
  // The schema's own constraints, then what no rule reads.
  function compareOwn (x: Shape, y: Shape, path: string): void {
    for (const key of CONSTRAINTS) {
      const change = compareConstraint(key, x.constraints.get(key), y.constraints.get(key))
      if (change !== null) say(`constraint-${change.direction}`, `${code(key)}${at(path)} ${change.detail}`)
    }
    const keys = [...new Set([...x.extras.keys(), ...y.extras.keys()])]
      .filter(key => !sameValues(x.extras.get(key) ?? [], y.extras.get(key) ?? [])).sort()
    if (keys.length > 0) say('not-judged', notJudged(keys, at(path)))
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
  // What no rule reads, as `allOf` parts add it up: the same values in the same order.
  function sameValues (a: readonly unknown[], b: readonly unknown[]): boolean {
    return a.length === b.length && a.every((value, i) => sameValue({ document: from.document, value }, { document: to.document, value: b[i] }))
  }
  compare(from.schema, to.schema, '', 0)
  return changes
}

// The path of a property (or the values of a map) of the schema at `path`.
function child (path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`
}

// Where in a schema, after a word: ' of `items[].total`', or nothing for the schema itself.
function at (path: string): string {
  return path === '' ? '' : ` of ${code(path)}`
}

/** The sentence of a change at a property path ('' for the schema itself); fixed words around the names. */
function sentence (kind: Kind, path: string, detail: string): string {
  const of = at(path)
  switch (kind) {
    case 'property-added': return `property ${code(path)} added`
    case 'required-property-added': return `required property ${code(path)} added`
    case 'property-removed': return `property ${code(path)} removed`
    case 'property-renamed': return `property ${code(path)} renamed from ${code(detail)}`
    case 'newly-required': return `property ${code(path)} newly required`
    case 'no-longer-required': return `property ${code(path)} no longer required`
    case 'enum-value-added': return `value ${detail} added to the enum${of}`
    case 'enum-value-removed': return `value ${detail} removed from the enum${of}`
    case 'enum-restricted': return `values${of} restricted to ${detail}`
    case 'enum-unrestricted': return `values${of} no longer restricted`
    case 'schema-changed': return `schema${of} changed`
    case 'item-added': return `item ${code(path)} added`
    case 'item-removed': return `item ${code(path)} removed`
    case 'pattern-added': return `pattern property ${code(path)} added`
    case 'pattern-removed': return `pattern property ${code(path)} removed`
    default: return `type${of} changed ${detail}`
  }
}

/**
 * The shapes of a document's schemas, each made once (see shape()), `allOf` parts, however nested, included.
 * `open` holds the schemas being shaped, outer to inner: a schema that is part of itself adds nothing more.
 */
function shaper (document: OpenApiDocument): (schema: Record<string, unknown>) => Shape {
  const made = new Map<object, Shape>()
  const open = new Set<object>()
  function shapeOf (schema: Record<string, unknown>, depth: number): Shape {
    const known = made.get(schema)
    if (known !== undefined) return known
    if (open.has(schema)) return own(schema)
    checkDepth(depth)
    open.add(schema)
    const result = shape(schema, part => shapeOf(resolveRef(document, part), depth + 1))
    open.delete(schema)
    made.set(schema, result)
    return result
  }
  return schema => shapeOf(schema, 0)
}

/**
 * A schema's types, values, properties, items, constraints and what no rule reads. `allOf` adds its parts up
 * (each shaped by `partShape`); a union of one schema and `null` is that schema, nullable; a union of single
 * values of one type is an enum of them (TypeBox's union of literals); a union of plain types is those types;
 * another union is kept as its alternatives.
 */
function shape (schema: Record<string, unknown>, partShape: (part: unknown) => Shape): Shape {
  const result = own(schema)
  const parts = (key: string): Shape[] => (Array.isArray(schema[key]) ? schema[key] as unknown[] : []).map(partShape)
  for (const part of parts('allOf')) merge(result, part)
  const union = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : null
  if (union !== null) {
    const branches = parts(union)
    const others = branches.filter(branch => !isNull(branch))
    if (others.length === 1) {
      merge(result, others[0])
    } else if (isEnum(others)) {
      result.types = bothTypes(result.types, others[0].types)
      result.values ??= others.flatMap(branch => branch.values as unknown[])
    } else if (others.every(isPlainType)) {
      result.types = bothTypes(result.types, others.flatMap(branch => branch.types))
    } else {
      result.union = schema[union] as unknown[]
    }
    if (others.length < branches.length) result.types.push('null')
  }
  // OpenAPI 3.0's nullable adds null to the types a schema names (its own, its parts', its alternatives'); alone, as
  // an allOf part, it names none and takes any value, which adds nothing.
  if (schema.nullable === true && result.types.length > 0) result.types.push('null')
  if (result.types.length === 0 && (result.properties.size > 0 || result.additional !== undefined || result.patterns.size > 0)) result.types.push('object')
  if (result.types.length === 0 && (result.items !== undefined || result.positions !== null)) result.types.push('array')
  // One order whatever the keywords' order, `null` last: `string | null`.
  const types = [...new Set(result.types)].sort()
  result.types = [...types.filter(type => type !== 'null'), ...types.filter(type => type === 'null')]
  return result
}

// What a schema says by its own keywords, before its `allOf` parts and alternatives add theirs.
function own (schema: Record<string, unknown>): Shape {
  return {
    types: schema.type === undefined ? [] : ([] as unknown[]).concat(schema.type).map(String),
    values: Array.isArray(schema.enum) ? schema.enum : Object.hasOwn(schema, 'const') ? [schema.const] : null,
    properties: new Map(isObject(schema.properties) ? Object.entries(schema.properties) : []),
    required: new Set(Array.isArray(schema.required) ? schema.required.map(String) : []),
    additional: isObject(schema.additionalProperties) ? schema.additionalProperties : undefined,
    patterns: new Map(isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : []),
    ...itemsOf(schema),
    union: null,
    constraints: constraintsOf(schema),
    extras: new Map(Object.entries(schema).filter(([key]) => !SHAPE_KEYWORDS.has(key) && !isDocumentation(key)).map(([key, value]) => [key, [value]]))
  }
}

/**
 * A tuple's positions and the items past them: 2020-12's `prefixItems` and `items`, or draft-07's `items` as a
 * list and `additionalItems` (which, beside `items` as one schema, holds nothing).
 */
function itemsOf (schema: Record<string, unknown>): Pick<Shape, 'positions' | 'items'> {
  if (Array.isArray(schema.prefixItems)) return { positions: schema.prefixItems, items: schema.items }
  if (Array.isArray(schema.items)) return { positions: schema.items, items: schema.additionalItems }
  return { positions: null, items: schema.items }
}

/**
 * The properties of `y` that are renamed ones of `x`, by their new names: a rename declared between the versions
 * whose older name only `x` has and newer name only `y` has. Each older name is renamed once.
 */
function renamedIn (x: Shape, y: Shape, renames: readonly Rename[]): Map<string, string> {
  const found = new Map<string, string>()
  for (const [older, newer] of renames) {
    const fits = x.properties.has(older) && !y.properties.has(older) && y.properties.has(newer) && !x.properties.has(newer)
    if (fits && !found.has(newer) && ![...found.values()].includes(older)) found.set(newer, older)
  }
  return found
}

/**
 * Adds a part of an `allOf` (or the one alternative of a union with `null`): what both say of one property, map
 * values or items is both schemas (an `allOf` of them), values both allow; alternatives of a second union, which
 * cannot be put with the first, are said when they change (not judged).
 */
function merge (into: Shape, part: Shape): void {
  into.types = bothTypes(into.types, part.types)
  into.values = into.values === null || part.values === null ? into.values ?? part.values : into.values.filter(value => part.values?.some(other => sameJson(value, other)))
  for (const [name, property] of part.properties) into.properties.set(name, both(into.properties.get(name), property))
  for (const name of part.required) into.required.add(name)
  into.additional = both(into.additional, part.additional)
  for (const [pattern, values] of part.patterns) into.patterns.set(pattern, both(into.patterns.get(pattern), values))
  into.positions = into.positions === null || part.positions === null ? into.positions ?? part.positions : positionsOfBoth(into, part)
  into.items = both(into.items, part.items)
  if (into.union !== null && part.union !== null) into.extras.set('allOf', [...into.extras.get('allOf') ?? [], part.union])
  into.union ??= part.union
  for (const [key, value] of part.constraints) into.constraints.set(key, into.constraints.has(key) ? combine(key, into.constraints.get(key), value) : value)
  for (const [key, values] of part.extras) into.extras.set(key, [...into.extras.get(key) ?? [], ...values])
}

/**
 * The types of the values two schemas both take (none: any type): a number that is an integer is an integer. Where
 * no type is both's, `never`: the schema takes no value, which is no other type.
 */
function bothTypes (a: readonly string[], b: readonly string[]): string[] {
  if (a.length === 0 || b.length === 0) return [...a, ...b]
  const both = [...a.filter(type => b.includes(type)), ...a.filter(type => type === 'integer' && b.includes('number')), ...b.filter(type => type === 'integer' && a.includes('number'))]
  return both.length === 0 ? ['never'] : both
}

// The schema of what two schemas both take (undefined: any; false: none).
function both (a: unknown, b: unknown): unknown {
  if (a === undefined) return b
  if (b === undefined) return a
  return a === false || b === false ? false : { allOf: [a, b] }
}

// Two tuples' positions: past its own, each takes what its items past them do.
function positionsOfBoth (a: Shape, b: Shape): unknown[] {
  const x = a.positions as unknown[]
  const y = b.positions as unknown[]
  return Array.from({ length: Math.max(x.length, y.length) }, (_, i) => both(i < x.length ? x[i] : a.items, i < y.length ? y[i] : b.items))
}

function sameJson (a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function isNull (branch: Shape): boolean {
  return branch.types.length === 1 && branch.types[0] === 'null'
}

// Nothing but types and values: no properties, items, alternatives, constraints or other keywords.
function isBare (branch: Shape): boolean {
  return branch.properties.size === 0 && branch.additional === undefined && branch.patterns.size === 0 && branch.positions === null &&
    branch.items === undefined && branch.union === null && branch.constraints.size === 0 && branch.extras.size === 0
}

function isPlainType (branch: Shape): boolean {
  return branch.types.length > 0 && branch.values === null && isBare(branch)
}

// Alternatives that are each one value, all of the same type (or all untyped).
function isEnum (branches: Shape[]): boolean {
  return branches.length > 1 && branches.every(branch => branch.values?.length === 1 && branch.types.length <= 1 &&
    sameSet(branch.types, branches[0].types) && isBare(branch))
}

function sameSet (a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every(type => b.includes(type))
}

// Every value of `inner` is one of `outer`: no types is any value, and a number can be an integer.
function covers (outer: readonly string[], inner: readonly string[]): boolean {
  return outer.length === 0 || (inner.length > 0 && inner.every(type => outer.includes(type) || (type === 'integer' && outer.includes('number'))))
}

function coversAsText (outer: readonly string[], inner: readonly string[]): boolean {
  return covers(outer, inner) || (outer.includes('string') && inner.length > 0 && inner.every(type => TEXTS.has(type)))
}

// The types a parameter's text may be read as.
const TEXTS = new Set(['string', 'integer', 'number', 'boolean'])

function typeText (types: readonly string[]): string {
  return types.length === 0 ? 'any' : code(types.join(' | '))
}

function valueText (value: unknown): string {
  return code(JSON.stringify(value))
}
