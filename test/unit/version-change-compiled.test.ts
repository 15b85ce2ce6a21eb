import t from 'tap'
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import Fastify from 'fastify'
import build from 'fast-json-stringify'
import apiVersioning, { versionChange, type FieldInstruction } from '../../lib/index.js'
import { compileNames, type NamesStep } from '../../lib/version-changes/compiled-names.js'
import { writesNamedOnly } from '../../lib/version-changes/named-only.js'
import { locatorOf } from '../../lib/version-changes/conversion.js'
import { downName, rebuild, removedName, upName } from '../../lib/version-changes/renaming.js'
import { deriveSchema } from '../../lib/version-changes/schemas.js'
import { rulesOf, type FieldRule } from '../../lib/version-changes/version-change.js'

// The compiled pass of consecutive steps gives what walking the value step by step gives: on random schemas, random
// changes and random values (properties the schemas do not name, values of the wrong kind, own __proto__ keys).

type Schema = Record<string, any>
const none = (): undefined => undefined

// A random tree of object schemas: properties of scalars, objects and arrays of objects.
const schemas = fc.letrec<{ node: Schema }>(tie => ({
  node: fc.record({
    fields: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1, maxLength: 4 }),
    children: fc.array(fc.tuple(fc.constantFrom('x', 'y', 'z'), fc.boolean(), fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(null), tie('node'))), { maxLength: 2 })
  }).map(({ fields, children }) => {
    const properties: Schema = Object.fromEntries(fields.map(name => [name, { type: 'string' }]))
    for (const [name, array, child] of children) if (child !== null) properties[name] = array ? { type: 'array', items: child } : child
    return { type: 'object', properties }
  })
}))

// The object schemas of a tree, each of which a step may change.
function objects (schema: Schema, into: Schema[] = []): Schema[] {
  into.push(schema)
  for (const child of Object.values(schema.properties as Schema)) {
    if (child.type === 'object') objects(child, into)
    if (child.type === 'array') objects(child.items, into)
  }
  return into
}

// Random steps that fit the schemas as each version has them: renames and added fields (the automatic ones), and
// for requests removed fields too.
function stepsFor (root: Schema, picks: number[][], removing: boolean): FieldRule[][] {
  const steps: FieldRule[][] = []
  let at: unknown = root
  let fresh = 0
  for (const pick of picks) {
    const nodes = objects(at as Schema)
    const fields: FieldInstruction[] = []
    const touched = new Set<string>()
    for (const p of pick) {
      const node = nodes[p % nodes.length]
      const names = Object.keys(node.properties).filter(name => node.properties[name].type === 'string' && !touched.has(`${nodes.indexOf(node)} ${name}`))
      if (names.length === 0) continue
      const field = names[p % names.length]
      touched.add(`${nodes.indexOf(node)} ${field}`)
      // The app's schema the version's node stands for: the root's own, as the instructions name them.
      const kind = p % (removing ? 3 : 2)
      const target = objects(root)[objects(at as Schema).indexOf(node)]
      if (kind === 0) fields.push({ schema: target, field, renamedFrom: `o${fresh++}` } as FieldInstruction)
      else if (kind === 1) fields.push({ schema: target, field, added: true } as FieldInstruction)
      else fields.push({ schema: target, field: `r${fresh++}`, removed: { schema: { type: 'string' } } } as FieldInstruction)
    }
    const rules = rulesOf(versionChange({ description: 'x', fields: fields as never }))?.fields ?? []
    steps.push([...rules])
    at = deriveSchema(at, { version: String(steps.length), rules }, none)
  }
  return steps
}

// The value through the steps, each walking it as the interpreted conversion does.
function interpreted (start: Schema, steps: FieldRule[][], name: NamesStep['name'], value: unknown): unknown {
  const box = { value: structuredClone(value) }
  let at: unknown = start
  for (const rules of steps) {
    const locate = locatorOf(at, rules, none)
    if (locate !== null) rebuild(locate(box, 'paths'), name)
    at = deriveSchema(at, { version: 'x', rules }, none)
  }
  return box.value
}

const values = (schema: Schema): fc.Arbitrary<unknown> => {
  const of = (node: Schema): fc.Arbitrary<unknown> => {
    if (node.type === 'array') return fc.oneof(fc.array(of(node.items), { maxLength: 3 }), fc.constant('not an array'))
    if (node.type !== 'object') return fc.oneof(fc.string({ maxLength: 2 }), fc.integer())
    const known = Object.fromEntries(Object.entries(node.properties as Schema).map(([name, child]) => [name, of(child)]))
    return fc.oneof(
      fc.record(known, { requiredKeys: [] }).chain(own => fc.dictionary(fc.constantFrom('o0', 'o1', 'r0', 'extra', '__proto__'), fc.string({ maxLength: 2 }), { maxKeys: 2 }).map(more => {
        const made: Record<string, unknown> = {}
        for (const [key, value] of Object.entries({ ...more, ...own })) Object.defineProperty(made, key, { value, enumerable: true, writable: true, configurable: true })
        return made
      })),
      fc.constant(null)
    )
  }
  return of(schema)
}

t.test('a property: the compiled pass of the steps of a response, down, is the interpreted walk', async t => {
  let compiled = 0
  await fc.assert(fc.property(schemas.node, fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 4 }), fc.nat(), (schema, picks, seed) => {
    const steps = stepsFor(schema, picks, false)
    const pass = compileNames(schema, steps.map(rules => ({ rules, name: downName })), none)
    if (pass === null) return true
    compiled++
    const value = fc.sample(values(schema), { numRuns: 1, seed })[0]
    return isDeepStrictEqual(pass(structuredClone(value)), interpreted(schema, steps, downName, value))
  }), { numRuns: 300 })
  t.ok(compiled > 250, `${compiled} compiled`)
})

t.test('a property: the compiled pass of the steps of a request, up, is the interpreted walk', async t => {
  await fc.assert(fc.property(schemas.node, fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 4 }), fc.nat(), (schema, picks, seed) => {
    const steps = stepsFor(schema, picks, true)
    // Up from the oldest: each step's renames and added fields, then its removed ones, oldest step first.
    const versions = [schema]
    for (const rules of steps) versions.push(deriveSchema(versions.at(-1), { version: 'x', rules }, none) as Schema)
    const oldest = versions.at(-1) as Schema
    const names: NamesStep[] = []
    for (let k = steps.length - 1; k >= 0; k--) {
      names.push({ rules: steps[k].filter(rule => rule.kind !== 'removed'), name: upName })
      names.push({ rules: steps[k].filter(rule => rule.kind === 'removed'), name: removedName })
    }
    const pass = compileNames(oldest, names, none) as NonNullable<ReturnType<typeof compileNames>>
    const value = fc.sample(values(oldest), { numRuns: 1, seed })[0]
    const box = { value: structuredClone(value) }
    for (let k = steps.length - 1; k >= 0; k--) {
      for (const [rules, name, at] of [[steps[k].filter(rule => rule.kind !== 'removed'), upName, versions[k + 1]], [steps[k].filter(rule => rule.kind === 'removed'), removedName, versions[k]]] as const) {
        const locate = locatorOf(at, rules, none)
        if (locate !== null) rebuild(locate(box, 'none'), name)
      }
    }
    return isDeepStrictEqual(pass(structuredClone(value)), box.value)
  }), { numRuns: 300 })
})

t.test('what a compiled pass does not follow: a union, a tuple, a pattern or a recursion on the way to a change', async t => {
  const Line = { type: 'object', properties: { sku: { type: 'string' } } }
  const [rule] = rulesOf(versionChange({ description: 'x', fields: [{ schema: Line, field: 'sku', renamedFrom: 'code' }] }))?.fields ?? []
  const steps = [{ rules: [rule], name: downName }]
  for (const schema of [
    { anyOf: [Line, { type: 'null' }] },
    { type: 'array', prefixItems: [Line] },
    { type: 'object', patternProperties: { '^l': Line } },
    { type: 'object', additionalProperties: Line }
  ]) t.equal(compileNames(schema, steps, none), null, JSON.stringify(schema))
  const Tree: Schema = { $id: 'Tree', type: 'object', properties: { line: Line, children: { type: 'array', items: { $ref: 'Tree#' } } } }
  t.equal(compileNames({ $ref: 'Tree#' }, steps, () => Tree), null, 'a schema that refers to itself')
  const pass = compileNames({ type: 'object', properties: { n: { anyOf: [{ type: 'string' }] }, line: Line } }, steps, none)
  t.same(pass?.({ n: 'x', line: { sku: 's' } }), { n: 'x', line: { code: 's' } }, 'a union where nothing changes is given as it is')
  t.same(compileNames({ type: 'object', properties: { n: { type: 'string' } } }, steps, none)?.({ n: 1 }), { n: 1 }, 'nothing to change: the value itself')
})

t.test('a compiled pass: one schema in two places once, refs that lead nowhere or round, an own __proto__ renamed, no schema', async t => {
  const Line = { type: 'object', properties: { sku: { type: 'string' }, tag: { type: 'string' } } }
  const [rule, proto] = rulesOf(versionChange({ description: 'x', fields: [{ schema: Line, field: 'sku', renamedFrom: 'code' }, { schema: Line, field: 'tag', renamedFrom: '__proto__' }] }))?.fields ?? []
  const steps = [{ rules: [rule, proto], name: downName }]
  const Order = { type: 'object', properties: { first: Line, second: Line, lost: { $ref: '#/definitions/none' }, round: { $ref: 'Round' } } }
  const Round = { $ref: 'Round' }
  const pass = compileNames(Order, steps, id => id === 'Round' ? Round : undefined) as (value: unknown) => unknown
  const converted = pass({ first: { sku: 'a', tag: 't' }, second: { sku: 'b' }, lost: 1, round: 2 }) as Record<string, Record<string, unknown>>
  t.same(converted.second, { code: 'b' })
  t.equal(Object.getPrototypeOf(converted.first), Object.prototype, 'an own __proto__ stays data')
  t.same(Object.getOwnPropertyDescriptor(converted.first, '__proto__')?.value, 't')
  t.same([converted.lost, converted.round], [1, 2])
  t.equal(compileNames(true, steps, none)?.('as it is'), 'as it is', 'a schema that is a boolean: nothing to change')
})

t.test('a value the interpreted walk finds where its schema admits no object: as it is', async t => {
  const Line = { type: ['object', 'null'], properties: { sku: { type: 'string' } } }
  const [rule] = rulesOf(versionChange({ description: 'x', fields: [{ schema: Line, field: 'sku', renamedFrom: 'code' }] }))?.fields ?? []
  const union = { anyOf: [Line, { type: 'string' }] }
  t.equal(compileNames(union, [{ rules: [rule], name: downName }], none), null, 'a union: interpreted')
  const box = { value: null as unknown }
  rebuild(locatorOf(union, [rule], none)?.(box, 'paths') ?? [], downName)
  t.equal(box.value, null)
})

t.test('a schema without properties that a removed field names: the field dropped, the rest kept', async t => {
  const Open = { type: 'object' }
  const [rule] = rulesOf(versionChange({ description: 'x', fields: [{ schema: Open, field: 'legacy', removed: { schema: { type: 'string' } } }] }))?.fields ?? []
  t.same(compileNames(Open, [{ rules: [rule], name: removedName }], none)?.({ legacy: 'l', other: 1 }), { other: 1 })
})

t.test('up, a field\'s newer name an older client sends anyway is dropped in the loop over the value', async t => {
  const Item = { type: 'object', properties: { a: { type: 'string' } } }
  const [rule] = rulesOf(versionChange({ description: 'x', fields: [{ schema: Item, field: 'b', renamedFrom: 'a' } as never] }))?.fields ?? []
  t.same(compileNames(Item, [{ rules: [rule], name: upName }], none)?.({ b: 'newer', a: 'older', c: 'other' }), { c: 'other', b: 'older' })
})

t.test('a step that names a property the schema has not: mapped in the loop over the value', async t => {
  const Item = { type: 'object', properties: { a: { type: 'string' } } }
  const [rule] = rulesOf(versionChange({ description: 'x', fields: [{ schema: Item, field: 'a', added: true }] }))?.fields ?? []
  const q = { ...rule, field: 'q', renamedFrom: 's' } as FieldRule
  const step: NamesStep = { rules: [rule, q], name: (tasks, key) => key === 'q' ? 'r' : key === 'a' ? null : key }
  t.same(compileNames(Item, [step], none)?.({ a: 1, q: 2, s: 4, z: 3 }), { r: 2, s: 4, z: 3 })
})

// What a serializer that writes only what a schema names writes of a value, or the error it throws.
function writtenWith (schema: unknown, value: unknown): string {
  try {
    return build(schema as Schema)(value)
  } catch (error) {
    return `threw ${(error as Error).message}`
  }
}

t.test('a property: a pass whose value is only written (no loop over the value) writes, with the version\'s schema, what the full pass writes', async t => {
  let compared = 0
  await fc.assert(fc.property(schemas.node, fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 1, maxLength: 4 }), fc.nat(), (schema, picks, seed) => {
    const steps = stepsFor(schema, picks, false)
    const names = steps.map(rules => ({ rules, name: downName }))
    const full = compileNames(schema, names, none)
    const written = compileNames(schema, names, none, true)
    if (full === null || written === null) return full === written
    compared++
    let oldest: unknown = schema
    for (const rules of steps) oldest = deriveSchema(oldest, { version: 'x', rules }, none)
    const value = fc.sample(values(schema), { numRuns: 1, seed })[0]
    return writtenWith(oldest, written(structuredClone(value))) === writtenWith(oldest, full(structuredClone(value)))
  }), { numRuns: 300 })
  t.ok(compared > 250, `${compared} compared`)
})

t.test('a pass whose value is only written: one literal of the named properties; the loop over the value kept where a schema writes more', async t => {
  const Line = { type: 'object', properties: { sku: { type: 'string' }, tag: { type: 'string' } } }
  const [sku, tag] = rulesOf(versionChange({ description: 'x', fields: [{ schema: Line, field: 'sku', renamedFrom: 'code' }, { schema: Line, field: 'tag', renamedFrom: '__proto__' }] }))?.fields ?? []
  const steps = [{ rules: [sku, tag], name: downName }]
  const pass = compileNames(Line, steps, none, true) as (value: unknown) => Record<string, unknown>
  const line = pass({ sku: 's', tag: 't', extra: 1 })
  t.same(Object.keys(line), ['code', '__proto__'], 'the older names only, the extra left out')
  t.equal(Object.getPrototypeOf(line), Object.prototype, 'an own __proto__ stays data')
  t.equal(Object.getOwnPropertyDescriptor(line, '__proto__')?.value, 't')
  t.same(pass({ code: 'older', extra: 1 }), { code: 'older', __proto__: undefined }, 'an older name the value has anyway is read by name, the renamed one winning where it is there')
  t.equal(pass({ sku: 'newer', code: 'older' }).code, 'newer')
  t.same(pass({ toJSON: () => ({ sku: 'given' }) }), { code: 'given', __proto__: undefined }, 'a value with a toJSON: what it gives, as a serializer writes it')
  t.equal(pass({ toJSON: () => 'text' }), 'text', 'a toJSON that gives no object: given as it is')
  for (const more of [{ additionalProperties: true }, { patternProperties: { '^x': { type: 'string' } } }, { allOf: [{ type: 'object', properties: { kept: { type: 'string' } } }] }]) {
    const Open = { ...Line, ...more }
    const rules = rulesOf(versionChange({ description: 'x', fields: [{ schema: Open, field: 'sku', renamedFrom: 'code' }] }))?.fields ?? []
    const open = compileNames(Open, [{ rules, name: downName }], none, true) as (value: unknown) => Record<string, unknown>
    t.same(open({ sku: 's', kept: 'k' }), { kept: 'k', code: 's' }, `${Object.keys(more)[0]}: what the value has beside its named properties is kept`)
  }
})

t.test("which serializers write only what a schema names: Fastify's own compiler's, told without calling it", async t => {
  const app = Fastify()
  let compiler: unknown
  await app.register(async instance => {
    instance.get('/', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } } }, async () => ({ a: 'a' }))
    instance.addHook('onReady', async () => { compiler = instance.serializerCompiler })
  })
  await app.ready()
  t.ok(writesNamedOnly(compiler), "Fastify's own")
  t.notOk(writesNamedOnly(() => (data: unknown) => JSON.stringify(data)), 'an app\'s own compiler')
  t.notOk(writesNamedOnly(undefined), 'none')
})

t.test("an older version's response made in one literal writes what the full pass wrote: a removed field the handler gives, a $ref's keywords beside it, an own toJSON", async t => {
  const Line = { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } } }
  const Order = { type: 'object', properties: { id: { type: 'integer' }, lines: { type: 'array', items: Line } } }
  const Item = { $id: 'Item', type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }
  const renameLine = versionChange({ description: 'quantity (was qty)', fields: [{ schema: Line, field: 'quantity', renamedFrom: 'qty' }] })
  const legacy = versionChange({ description: 'no legacy', fields: [{ schema: Order, field: 'legacy', removed: { schema: { type: 'string' } } }] })
  const renameItem = versionChange({ description: 'name (was title)', fields: [{ schema: 'Item', field: 'name', renamedFrom: 'title' }] })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '3.0', changes: [renameLine, renameItem] }, { version: '2.0', changes: [legacy] }, { version: '1.0' }] })
  app.addSchema(Item)
  app.get('/orders', { versionChanges: true, schema: { response: { 200: Order } } }, async () => ({ id: 1, legacy: 'L-1', lines: [{ sku: 's', quantity: 2 }] }))
  app.get('/items', { versionChanges: true, schema: { response: { 200: { type: 'object', properties: { item: { $ref: 'Item#', additionalProperties: true } } } } } }, async () => ({ item: { id: 1, name: 'n', extra: 'E' } }))
  app.get('/own', { versionChanges: true, schema: { response: { 200: { $ref: 'Item#' } } } }, async () => ({ id: 1, name: 'n', toJSON () { return { id: 99, title: 'from toJSON' } } }))
  await app.ready()
  t.same((await app.inject('/orders?api-version=1.0')).json(), { id: 1, lines: [{ sku: 's', qty: 2 }], legacy: 'L-1' }, 'the removed field 1.0 has, as the handler gave it')
  t.same((await app.inject('/orders?api-version=2.0')).json(), { id: 1, lines: [{ sku: 's', qty: 2 }] })
  t.same((await app.inject('/items?api-version=2.0')).json(), { item: { id: 1, title: 'n', extra: 'E' } }, "additionalProperties beside the $ref: what the value has beside the schema's names")
  t.same((await app.inject('/own?api-version=2.0')).json(), { id: 99, title: 'from toJSON' }, 'the value\'s own toJSON, called')
})

t.test('a value validated by schemas that allow no other property (additionalProperties: false): each object in one literal, no loop over its keys', async t => {
  const Line = { type: 'object', properties: { code: { type: 'string' }, note: { type: 'string' } }, additionalProperties: false }
  const Order = { type: 'object', properties: { ref: { type: 'string' }, lines: { type: 'array', items: Line } }, additionalProperties: false }
  const rules = rulesOf(versionChange({ description: 'x', fields: [{ schema: Order, field: 'number', renamedFrom: 'ref' }, { schema: Line, field: 'sku', renamedFrom: 'code' }] as never }))?.fields ?? []
  const steps = [{ rules, name: upName }]
  const sealed = compileNames(Order, steps, none, false, true) as (value: unknown) => unknown
  t.same(sealed({ ref: 'A', lines: [{ code: 'x', note: 'n' }, { code: 'y' }] }), { number: 'A', lines: [{ sku: 'x', note: 'n' }, { sku: 'y' }] }, 'a property left out: not set')
  t.equal(sealed('no object'), 'no object')
  t.notMatch(String(sealed), /for \(const k in v\)/, 'no loop over keys')
  t.match(String(compileNames(Order, steps, none)), /for \(const k in v\)/, 'not validated: the keys compared')
})
