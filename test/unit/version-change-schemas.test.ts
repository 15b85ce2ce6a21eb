import t from 'tap'
import { Type } from '@sinclair/typebox'
import { versionChange } from '../../lib/index.js'
import { deriveSchema } from '../../lib/version-changes/schemas.js'
import { names, noteShared, originOf, sameShape } from '../../lib/version-changes/schema-identity.js'
import { rulesOf, type FieldInstruction } from '../../lib/version-changes/version-change.js'

type Schema = Record<string, any>
const none = (): undefined => undefined
const step = (fields: FieldInstruction[], version = '2.0') => ({ version, rules: rulesOf(versionChange({ description: 'x', fields }))?.fields ?? [] })

t.test('each kind of field instruction, as the version before sees the schema', async t => {
  const Order = Type.Object({ id: Type.Integer(), createdAt: Type.String(), status: Type.String(), note: Type.Optional(Type.String()) })
  const frozen = JSON.stringify(Order)
  const rows: Array<[FieldInstruction, Schema]> = [
    [{ schema: Order, field: 'createdAt', renamedFrom: 'created' }, { properties: ['id', 'created', 'status', 'note'], required: ['id', 'created', 'status'] }],
    [{ schema: Order, field: 'status', added: true }, { properties: ['id', 'createdAt', 'note'], required: ['id', 'createdAt'] }],
    [{ schema: Order, field: 'legacy', removed: { schema: { type: 'string' } } }, { properties: ['id', 'createdAt', 'status', 'note', 'legacy'], required: ['id', 'createdAt', 'status'] }],
    [{ schema: Order, field: 'legacy', removed: { schema: { type: 'string' }, required: true } }, { properties: ['id', 'createdAt', 'status', 'note', 'legacy'], required: ['id', 'createdAt', 'status', 'legacy'] }],
    [{ schema: Order, field: 'id', changed: { schema: { type: 'string' } } }, { properties: ['id', 'createdAt', 'status', 'note'], required: ['id', 'createdAt', 'status'] }],
    [{ schema: Order, field: 'note', changed: { required: true } }, { properties: ['id', 'createdAt', 'status', 'note'], required: ['id', 'createdAt', 'status', 'note'] }],
    [{ schema: Order, field: 'status', changed: { required: false } }, { properties: ['id', 'createdAt', 'status', 'note'], required: ['id', 'createdAt'] }]
  ]
  for (const [instruction, expected] of rows) {
    const older = deriveSchema(Order, step([instruction]), none) as Schema
    const label = JSON.stringify(instruction, (key, value) => key === 'schema' && value === Order ? 'Order' : value)
    t.same(Object.keys(older.properties), expected.properties, label)
    t.same(older.required, expected.required, label)
    t.not(older, Order, 'a copy')
    t.equal(originOf(older), Order, 'which stands for the app\'s schema')
  }
  t.same((deriveSchema(Order, step([rows[4][0]]), none) as Schema).properties.id, { type: 'string' })
  t.equal((deriveSchema(Order, step([rows[0][0]]), none) as Schema).properties.created, Order.properties.createdAt, 'what did not change is shared')
  t.equal(JSON.stringify(Order), frozen, "the app's schema is never changed")
  // Every field required no more: no `required` at all, as a schema without required fields writes it.
  const One = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }
  t.notOk('required' in (deriveSchema(One, step([{ schema: One, field: 'a', added: true }]), none) as Schema))
  t.equal(deriveSchema(Order, { version: '2.0', rules: [] }, none), Order, 'no instruction: the same schema')
})

t.test('the schemas an instruction names are found wherever a schema holds them, and copied up to it', async t => {
  const Line = Type.Object({ sku: Type.String() })
  const Other = Type.Object({ sku: Type.String() })
  const Order = Type.Object({
    lines: Type.Array(Line),
    first: Line,
    either: Type.Union([Line, Type.Null()]),
    both: Type.Intersect([Line, Type.Object({ n: Type.Integer() })]),
    byName: Type.Record(Type.String(), Line),
    other: Other,
    pair: Type.Unsafe({ type: 'array', prefixItems: [Line, { type: 'integer' }] }),
    tuple: Type.Tuple([Line, Type.Integer()]),
    rest: Type.Unsafe({ type: 'array', items: [{ type: 'integer' }], additionalItems: Line }),
    open: Type.Unsafe({ anyOf: [true, Line] })
  })
  const older = deriveSchema(Order, step([{ schema: Line, field: 'sku', renamedFrom: 'code' }]), none) as Schema
  t.same(Object.keys(older.properties.lines.items.properties), ['code'], 'array items')
  t.same(Object.keys(older.properties.first.properties), ['code'], 'a property')
  t.same(Object.keys(older.properties.either.anyOf[0].properties), ['code'], 'a member of anyOf')
  t.equal(older.properties.either.anyOf[1], Order.properties.either.anyOf[1])
  t.same(Object.keys(older.properties.both.allOf[0].properties), ['code'], 'a member of allOf')
  t.same(Object.keys(older.properties.byName.patternProperties['^(.*)$'].properties), ['code'], 'patternProperties')
  t.same(Object.keys(older.properties.pair.prefixItems[0].properties), ['code'], 'a tuple')
  t.same(Object.keys(older.properties.tuple.items[0].properties), ['code'], "a draft-07 tuple (TypeBox's Type.Tuple)")
  t.equal(older.properties.tuple.items[1], Order.properties.tuple.items[1])
  t.same(Object.keys(older.properties.rest.additionalItems.properties), ['code'], 'the items after a draft-07 tuple')
  t.same(older.properties.open.anyOf[0], true, 'a schema that is a boolean is no object to change')
  t.equal(older.properties.other, Order.properties.other, 'another schema of the same shape is another schema')
  t.equal(originOf(older.properties.lines.items), Line)
  t.ok(names({ schema: Line, id: null }, older.properties.first), 'the copy is named by what names the original')
  t.notOk(names({ schema: Line, id: null }, older.properties.other))
  // Derived again (an older version still), the copies are found as the app's schema.
  const oldest = deriveSchema(older, step([{ schema: Line, field: 'code', renamedFrom: 'ref' }], '1.0'), none) as Schema
  t.same(Object.keys(oldest.properties.first.properties), ['ref'])
  t.same(Object.keys(oldest.properties.lines.items.properties), ['ref'])
})

t.test('shared schemas: by $id, followed through $ref, the changed ones copied in its place', async t => {
  const Address = { $id: 'Address', type: 'object', properties: { street: { type: 'string' } }, required: ['street'] }
  const Customer = { $id: 'Customer', type: 'object', properties: { name: { type: 'string' }, address: { $ref: 'Address#' } } }
  const Untouched = { $id: 'Untouched', type: 'object', properties: { x: { type: 'string' } } }
  const Pair = { $id: 'Pair', type: 'array', prefixItems: [{ type: 'string' }, { $ref: 'Address#' }] }
  const shared: Record<string, unknown> = { Address, Customer, Untouched, Pair }
  const lookup = (id: string): unknown => shared[id]
  const Order = {
    type: 'object',
    properties: {
      customer: { $ref: 'Customer#', description: 'who ordered' },
      street: { $ref: 'Customer#/properties/address' },
      second: { $ref: 'Pair#/prefixItems/1' },
      untouched: { $ref: 'Untouched' },
      local: { $ref: '#/definitions/x' },
      lost: { $ref: 'Nowhere#' },
      wrong: { $ref: 'Customer#/properties/nothing' },
      named: { $ref: 'Customer#address' }
    }
  }
  const older = deriveSchema(Order, step([{ schema: 'Address', field: 'street', renamedFrom: 'line1' }]), lookup) as Schema
  const customer = older.properties.customer
  t.equal(customer.description, 'who ordered', 'what stands beside the $ref stays')
  t.notOk('$ref' in customer)
  t.equal(customer.title, 'Customer', 'the copy is named by a title, not an $id, which would clash with the shared one')
  t.notOk('$id' in customer)
  t.same(Object.keys(customer.properties.address.properties), ['line1'])
  t.same(customer.properties.address.required, ['line1'])
  t.same(Object.keys(older.properties.street.properties), ['line1'], 'a JSON pointer into a shared schema')
  t.same(Object.keys(older.properties.second.properties), ['line1'], 'one through an array')
  for (const name of ['untouched', 'local', 'lost', 'wrong', 'named']) t.equal(older.properties[name], Order.properties[name as keyof typeof Order.properties], `${name}: left as it is`)
  t.equal(Address.properties.street.type, 'string')
  // An object with that $id names the shared schema too: Fastify may keep a copy of what addSchema was given.
  const given = { ...Address }
  const byObject = deriveSchema(Order, step([{ schema: given, field: 'street', added: true }]), lookup) as Schema
  t.same(Object.keys(byObject.properties.customer.properties.address.properties), [])

  // A recursive shared schema: one that no instruction changes stays a $ref; one that changes cannot be copied in.
  const Node = { $id: 'Node', type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: 'Node#' } } } }
  const Tree = { type: 'object', properties: { root: { $ref: 'Node#' } } }
  const trees = (id: string): unknown => id === 'Node' ? Node : undefined
  t.equal(deriveSchema(Tree, step([{ schema: Address, field: 'street', added: true }]), trees), Tree)
  t.throws(() => deriveSchema(Tree, step([{ schema: 'Node', field: 'name', added: true }]), trees),
    { code: 'FST_API_VERSIONING_INVALID_OPTION', message: /the changes of 2\.0 change the schema "Node#", which refers to itself; a recursive schema cannot be derived for older versions/ })
})

t.test('an instruction that does not fit its schema fails, naming the version, the instruction and the fields', async t => {
  const Order = Type.Object({ id: Type.Integer(), createdAt: Type.String() }, { $id: 'Order' })
  const Plain = { type: 'object' }
  const cases: Array<[FieldInstruction, object, RegExp]> = [
    [{ schema: Order, field: 'created', renamedFrom: 'creationTime' }, Order, /versionChanges: the change of 2\.0, fields\[0\] names the field "created", which the schema "Order" does not have in 2\.0; its fields there: "id", "createdAt"/],
    [{ schema: Order, field: 'createdAt', renamedFrom: 'id' }, Order, /fields\[0\] renames "createdAt" from "id", but the schema "Order" has a field "id" in 2\.0 already; rename or remove that one too, in a change of 2\.0/],
    [{ schema: Order, field: 'id', removed: { schema: {} } }, Order, /fields\[0\] says the schema "Order" removed the field "id", but the schema "Order" has it in 2\.0: name a field of older versions only/],
    [{ schema: Plain, field: 'x', added: true }, Plain, /fields\[0\] names the field "x", which the schema does not have in 2\.0; its fields there: none/]
  ]
  for (const [instruction, schema, message] of cases) {
    t.throws(() => deriveSchema(schema, step([instruction]), none), { code: 'FST_API_VERSIONING_INVALID_OPTION', message }, String(message))
  }
})

t.test('the rules of one version name fields as that version does, in any order; one that says what is so already fails', async t => {
  const Order = Type.Object({ id: Type.Integer(), total: Type.Number(), a: Type.String(), b: Type.String(), note: Type.Optional(Type.String()) }, { $id: 'Order' })
  const renamed = { schema: Order, field: 'total', renamedFrom: 'amount' } as const
  const changed = { schema: Order, field: 'total', changed: { schema: { type: 'string' }, required: false } } as const
  for (const order of [[renamed, changed], [changed, renamed]]) {
    const older = deriveSchema(Order, step([...order]), none) as Schema
    t.same(Object.keys(older.properties), ['id', 'amount', 'a', 'b', 'note'], 'renamed and changed, either order')
    t.same(older.properties.amount, { type: 'string' })
    t.same(older.required, ['id', 'a', 'b'])
  }
  const swapped = deriveSchema(Order, step([{ schema: Order, field: 'a', renamedFrom: 'b' }, { schema: Order, field: 'b', renamedFrom: 'a' }]), none) as Schema
  t.same(Object.keys(swapped.properties), ['id', 'total', 'b', 'a', 'note'], 'two fields that swapped names')
  t.equal(swapped.properties.b, Order.properties.a)
  const cases: Array<[FieldInstruction[], RegExp]> = [
    [[renamed, { schema: Order, field: 'total', renamedFrom: 'sum' }], /fields\[1\] and fields\[0\] both say what the schema "Order" changed in its field "total" in 2\.0: a field is renamed, added, removed or changed once a version/],
    [[{ schema: Order, field: 'note', added: true }, { schema: Order, field: 'note', changed: { required: true } }], /fields\[1\] and fields\[0\] both say/],
    [[{ schema: Order, field: 'a', renamedFrom: 'x' }, { schema: Order, field: 'x', removed: { schema: {} } }], /fields\[0\] renames "a" from "x", but fields\[1\] says the schema "Order" had a field "x" that 2\.0 removed; one name is one field/],
    [[{ schema: Order, field: 'a', renamedFrom: 'x' }, { schema: Order, field: 'b', renamedFrom: 'x' }], /fields\[1\] renames "b" from "x", but the schema "Order" has a field "x" in 2\.0 already/],
    [[{ schema: Order, field: 'a', renamedFrom: 'b' }], /fields\[0\] renames "a" from "b", but the schema "Order" has a field "b" in 2\.0 already/],
    [[{ schema: Order, field: 'total', changed: { schema: { type: 'number' } } }], /fields\[0\] says the schema "Order" had its field "total" with another schema before 2\.0, but gives the schema it has in 2\.0: say what older versions had, or leave changed\.schema out/],
    [[{ schema: Order, field: 'note', changed: { required: false } }], /fields\[0\] says the field "note" of the schema "Order" was optional before 2\.0, as it is in 2\.0/],
    [[{ schema: Order, field: 'id', changed: { schema: { type: 'string' }, required: true } }], /was required before 2\.0, as it is in 2\.0/]
  ]
  for (const [instructions, message] of cases) {
    t.throws(() => deriveSchema(Order, step(instructions), none), { code: 'FST_API_VERSIONING_INVALID_OPTION', message }, String(message))
  }
})

t.test('in a shared schema (Fastify deep-copies it), a schema is recognised by its shape; elsewhere by identity alone', async t => {
  const Line = { type: 'object', properties: { sku: { type: 'string' } } }
  const copy = JSON.parse(JSON.stringify({ $id: 'Order', type: 'object', properties: { line: Line } }))
  t.notOk(names({ schema: Line, id: null }, copy.properties.line), 'not yet known as a shared schema')
  noteShared(copy)
  t.ok(names({ schema: Line, id: null }, copy.properties.line), 'a copy in a shared schema')
  t.notOk(names({ schema: { type: 'object' }, id: null }, copy.properties.line), 'of another shape')
  t.notOk(names({ schema: copy.properties.line, id: null }, JSON.parse(JSON.stringify(Line))), 'a look-alike outside shared schemas is another schema')
  const Loop: Record<string, unknown> = { type: 'object' }
  Loop.properties = { self: Loop }
  t.notOk(names({ schema: Loop, id: null }, copy.properties.line), 'a schema that holds itself has no shape to match')
  t.ok(sameShape(true, true))
  t.notOk(sameShape({ type: 'string' }, true), 'a schema and a boolean schema')
  t.notOk(sameShape(Loop, { ...Loop }))
})

t.test("a copy one level deep (TypeBox's Optional and Readonly, a spread adding a description) is the schema it copies", async t => {
  const Line = Type.Object({ sku: Type.String() })
  const Status = Type.Union([Type.Literal('open'), Type.Literal('shipped')])
  const rule = (schema: unknown) => ({ schema, id: null })
  t.ok(names(rule(Line), Type.Optional(Line)), 'Type.Optional')
  t.ok(names(rule(Line), Type.Readonly(Line)), 'Type.Readonly')
  t.ok(names(rule(Status), Type.Optional(Status)), 'a union, by its very members')
  t.ok(names(rule(Line), { ...Line, description: 'the first line', title: 'Line' }), 'with annotations')
  t.ok(names(rule(Line), { ...Line, headers: { 'x-total': { type: 'integer' } } }), "with @fastify/swagger's response headers beside it")
  t.notOk(names(rule(Line), { ...Line, minProperties: 1 }), 'with a rule of its own: another schema')
  t.notOk(names(rule(Line), { ...Line, default: { sku: 'x' } }), 'with a default, in the names of one version')
  t.ok(names(rule(Status), { ...Status, default: 'open' }), "with a scalar's default, which names no field")
  t.notOk(names(rule(Status), { ...Status, default: null, minLength: 1 }), 'with a default and a rule of its own')
  t.notOk(names(rule(Line), Type.Object({ sku: Type.String() })), 'built again: another schema')
  t.notOk(names(rule(Line), { type: 'object' }), 'lacking a keyword')
  const Name = { type: 'string', maxLength: 9 }
  t.notOk(names(rule(Name), { ...Name, description: 'x' }), 'a schema of scalars alone: by identity')
})
