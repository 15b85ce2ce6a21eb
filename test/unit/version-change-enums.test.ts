import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type EnumInstruction, type VersionChangesEntry } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { deriveSchema } from '../../lib/version-changes/schemas.js'
import { enumNeeds } from '../../lib/version-changes/migration-needs.js'
import { rulesOf } from '../../lib/version-changes/version-change.js'
import { documentOf, operations } from './openapi-helpers.js'

type Schema = Record<string, any>
const none = (): undefined => undefined
const step = (enums: EnumInstruction[], version = '2.0') => {
  const rules = rulesOf(versionChange({ description: 'x', enums })) as NonNullable<ReturnType<typeof rulesOf>>
  return { version, rules: rules.fields, enums: rules.enums }
}
// The members an enum schema admits: its `enum`, or the `const` of each member of its `anyOf` (an OpenAPI 3.0
// document's `enum` of one).
const members = (schema: Schema): unknown[] => schema.enum ?? schema.anyOf.map((member: Schema) => member.const ?? member.enum[0])

t.test('an enum instruction is checked when the change is made, naming it', async t => {
  const Status = { type: 'string', enum: ['open', 'paid'] }
  t.same(rulesOf(versionChange({ description: 'x', enums: [{ schema: Status, added: ['paid'] }, { schema: 'Kind', removed: ['old', 2, true, null] }] }))?.enums, [
    { schema: Status, id: null, kind: 'added', members: ['paid'], at: 'enums[0]' },
    { schema: 'Kind', id: 'Kind', kind: 'removed', members: ['old', 2, true, null], at: 'enums[1]' }
  ])
  const rows: Array<[unknown, RegExp]> = [
    ['x', /enums must be an array \(got x\)/],
    [[null], /enums\[0\] must be \{ schema, added: \[\.\.\.\] \} or \{ schema, removed: \[\.\.\.\] \}/],
    [[{ schema: Status }], /enums\[0\] must say one of added and removed \(got none\)/],
    [[{ schema: Status, added: ['a'], removed: ['b'] }], /enums\[0\] must say one of added and removed \(got added, removed\)/],
    [[{ schema: Status, added: [] }], /enums\[0\]\.added must be a non-empty array of members/],
    [[{ schema: Status, removed: 'a' }], /enums\[0\]\.removed must be a non-empty array of members/],
    [[{ schema: Status, added: [{ a: 1 }] }], /enums\[0\]\.added\[0\] must be a text, a number, a boolean or null \(got an object\)/],
    [[{ schema: Status, added: [NaN] }], /enums\[0\]\.added\[0\] must be a text, a number, a boolean or null \(got NaN\)/],
    [[{ schema: Status, added: ['a', 'a'] }], /enums\[0\]\.added names "a" twice/],
    [[{ schema: Status, added: ['a'], member: 'b' }], /enums\[0\] has the unknown key "member"; its keys are schema, added, removed/],
    [[{ schema: 3, added: ['a'] }], /enums\[0\]\.schema must be a schema object or the \$id of a shared schema \(got 3\)/]
  ]
  for (const [enums, message] of rows) t.throws(() => versionChange({ description: 'x', enums } as never), { code: 'FST_API_VERSIONING_INVALID_OPTION', message }, String(message))
})

t.test('each kind of enum instruction, as the version before sees the schema: a JSON enum, a TypeBox union of literals, Type.Enum', async t => {
  const Json = { type: 'string', enum: ['open', 'paid', 'express'] }
  const Union = Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('express')])
  const Enum = Type.Enum({ Open: 'open', Paid: 'paid', Express: 'express' })
  for (const [name, schema] of [['JSON enum', Json], ['union of literals', Union], ['Type.Enum', Enum]] as const) {
    const frozen = JSON.stringify(schema)
    t.same(members(deriveSchema(schema, step([{ schema, added: ['express'] }]), none) as Schema), ['open', 'paid'], `${name}: added`)
    const older = deriveSchema(schema, step([{ schema, removed: ['legacy', 3] }]), none) as Schema
    t.same(members(older), ['open', 'paid', 'express', 'legacy', 3], `${name}: removed`)
    if (older.anyOf !== undefined) t.same(older.anyOf.slice(3), [{ type: 'string', const: 'legacy' }, { type: 'number', const: 3 }], `${name}: a member as a literal of its type`)
    t.same(members(deriveSchema(schema, step([{ schema, added: ['express'] }, { schema, removed: ['legacy'] }]), none) as Schema), ['open', 'paid', 'legacy'], `${name}: both`)
    t.equal(JSON.stringify(schema), frozen, `${name}: the app's schema is never changed`)
  }
  const Order = Type.Object({ id: Type.Integer(), status: Union, history: Type.Array(Union) })
  const older = deriveSchema(Order, step([{ schema: Union, added: ['express'] }]), none) as Schema
  t.same(members(older.properties.status), ['open', 'paid'], 'found wherever a schema holds it')
  t.same(members(older.properties.history.items), ['open', 'paid'])
  t.equal(older.properties.id, Order.properties.id, 'what did not change is shared')
  const Shared = { $id: 'Status', type: 'string', enum: ['a', 'b'] }
  t.same(deriveSchema(Shared, step([{ schema: 'Status', added: ['b'] }]), none), { title: 'Status', type: 'string', enum: ['a'] }, 'by $id; the copy without it')
})

t.test('an enum instruction that does not fit its schema fails, naming the version and the instruction', async t => {
  const Status = { title: 'Status', type: 'string', enum: ['open', 'paid'] }
  const rows: Array<[EnumInstruction, string]> = [
    [{ schema: Status, added: ['express'] }, 'enums[0] says the schema "Status" added the member "express", which it does not have in 2.0; its members there: "open", "paid"'],
    [{ schema: Status, removed: ['paid'] }, 'enums[0] says the schema "Status" removed the member "paid", but it has it in 2.0: name a member of older versions only'],
    [{ schema: Status, added: ['open', 'paid'] }, 'enums[0] says the schema "Status" added every member it has in 2.0, so older versions would take no value; say what older versions had instead (removed), or remove the field that holds it (fields)'],
    [{ schema: { title: 'Name', type: 'string' }, added: ['a'] }, 'enums[0] names the schema "Name", which is not an enum: an enum list, or anyOf of const members (a TypeBox union of literals, Type.Enum)'],
    [{ schema: { title: 'Either', anyOf: [{ const: 'a' }, { type: 'number' }] }, removed: ['b'] }, 'enums[0] names the schema "Either", which is not an enum: an enum list, or anyOf of const members (a TypeBox union of literals, Type.Enum)']
  ]
  for (const [instruction, message] of rows) {
    const schema = instruction.schema as Schema
    t.throws(() => deriveSchema(schema, step([instruction]), none), { code: 'FST_API_VERSIONING_INVALID_OPTION', message: `fastify-api-versioning: versionChanges: the change of 2.0, ${message}` })
  }
})

t.test('what an enum instruction needs of a route that holds its schema: a migration the way its members do not go', async t => {
  const rows: Array<[EnumInstruction, ReturnType<typeof enumNeeds>]> = [
    [{ schema: 'S', added: ['a'] }, { request: null, response: 'older versions lack the member "a", which this one may give' }],
    [{ schema: 'S', added: ['a', 2] }, { request: null, response: 'older versions lack the members "a", 2, which this one may give' }],
    [{ schema: 'S', removed: [null] }, { request: 'older versions may send the member null, which this one does not take', response: null }]
  ]
  for (const [instruction, needs] of rows) t.same(enumNeeds(rulesOf(versionChange({ description: 'x', enums: [instruction] }))?.enums[0] as never), needs)
})

// The orders service: 3.0 added the status 'express' (older clients neither send nor get it), 2.0 dropped 'legacy'
// (1.0 clients may still send it).
const Status = Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('express')])
const NewOrder = Type.Object({ status: Status })
const Order = Type.Object({ id: Type.Integer(), status: Status })
const express = versionChange({ description: "Orders may be 'express'.", enums: [{ schema: Status, added: ['express'] }] })
const legacy = versionChange({ description: "Orders are no longer 'legacy'.", enums: [{ schema: Status, removed: ['legacy'] }] })
const toPaid = versionChange({ description: "Express orders show as 'paid' to older clients.", responses: [{ schema: Order, migrate: response => { const order = response.body as { status: string }; if (order.status === 'express') order.status = 'paid' } }] })
const fromLegacy = versionChange({ description: "A 'legacy' order is an open one.", requests: [{ schema: NewOrder, migrate: request => { const order = request.body as { status: string }; if (order.status === 'legacy') order.status = 'open' } }] })

async function orders (list: VersionChangesEntry[], response = true) {
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: list })
  await app.register(apiVersioningOpenApi, {})
  const received: unknown[] = []
  app.post('/orders', { versionChanges: true, schema: { body: NewOrder, ...response ? { response: { 201: Order } } : {} } }, async (request, reply) => {
    received.push(request.body)
    return reply.code(201).send({ id: 7, status: (request.body as { status: string }).status === 'open' ? 'express' : 'paid' })
  })
  await app.ready()
  const post = async (version: string, status: string) => {
    const reply = await app.inject({ method: 'POST', url: `/orders?api-version=${version}`, payload: { status } })
    return [reply.statusCode, reply.json()] as const
  }
  return { app, post, received }
}

t.test('a route holds an enum a version changed: each version validates its own members, and the documents list them', async t => {
  const { app, post, received } = await orders([{ version: '3.0', changes: [express, toPaid] }, { version: '2.0', changes: [legacy, fromLegacy] }, { version: '1.0' }])
  t.same(await post('3.0', 'open'), [201, { id: 7, status: 'express' }], 'the newest version gives the new member')
  t.same(await post('2.0', 'open'), [201, { id: 7, status: 'paid' }], 'older ones get it through the response migration')
  const [status, problem] = await post('2.0', 'express')
  t.equal(status, 400, "an older client cannot send a member its version lacks: its version's validation")
  t.match(problem.message, /body\/status/)
  t.same(await post('1.0', 'legacy'), [201, { id: 7, status: 'paid' }], 'a member older versions had: converted up by the request migration')
  t.same(received.at(-1), { status: 'open' }, 'the handler gets the newest members only')
  t.equal((await post('2.0', 'legacy'))[0], 400)
  const body = (version: string) => operations(documentOf(app, version))['POST /orders'].requestBody.content['application/json'].schema.properties.status
  t.same(members(body('3.0')), ['open', 'paid', 'express'])
  t.same(members(body('2.0')), ['open', 'paid'])
  t.same(members(body('1.0')), ['open', 'paid', 'legacy'])
  const [from1, from2] = app.apiVersionChanges()
  t.same(from2.changed.map(change => change.details), [[
    { change: 'response 201: value `"express"` added to the enum of `status`', breaking: true },
    { change: 'request body: value `"express"` added to the enum of `status`', breaking: false }
  ]], 'apiVersionChanges() reports them, a member a response may give breaking')
  t.same(from1.changed.map(change => change.details), [[
    { change: 'request body: value `"legacy"` removed from the enum of `status`', breaking: true },
    { change: 'response 201: value `"legacy"` removed from the enum of `status`', breaking: false }
  ]])
})

t.test('start-up refuses an enum change a route cannot serve: a member older versions lack in its responses, or one they send in its requests, without a migration', async t => {
  await t.rejects(orders([{ version: '2.0', changes: [express] }, { version: '1.0' }]), {
    code: 'FST_API_VERSIONING_INVALID_DECLARATION',
    message: 'fastify-api-versioning: route POST /orders: the change of 2.0, enums[0]: older versions lack the member "express", which this one may give, so its response 201 needs a response migration (by this route, or by the schema) to convert it for the version before; add it to that change'
  })
  await t.rejects(orders([{ version: '2.0', changes: [legacy] }, { version: '1.0' }]), {
    message: /the change of 2\.0, enums\[0\]: older versions may send the member "legacy", which this one does not take, so a request of the version before needs a request migration \(by this route, or by the schema in its body\) to convert it/
  })
  const { post } = await orders([{ version: '2.0', changes: [express] }, { version: '1.0' }], false)
  t.equal((await post('1.0', 'express'))[0], 400, 'in requests alone, an added member needs no migration')
  const routeMigration = versionChange({ description: 'x', responses: [{ route: 'POST /orders', migrate: response => { (response.body as { status: string }).status = 'paid' } }] })
  const { post: posted } = await orders([{ version: '2.0', changes: [express, routeMigration] }, { version: '1.0' }])
  t.same(await posted('1.0', 'open'), [201, { id: 7, status: 'paid' }], "the route's own migration covers it")
})

t.test('an enum instruction no route holds is checked at start-up, and a route that is not versionChanges must not hold it', async t => {
  const Kind = { type: 'string', enum: ['a', 'b'] }
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', enums: [{ schema: Kind, added: ['c'] }] })] }, { version: '1.0' }] })
  await t.rejects(async () => { await app.ready() }, { message: /the change of 2\.0, enums\[0\] says the schema added the member "c", which it does not have in 2\.0; its members there: "a", "b"/ })
  const other = Fastify()
  await other.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', enums: [{ schema: Kind, removed: ['c'] }] })] }, { version: '1.0' }] })
  other.get('/kinds', { schema: { querystring: Type.Object({ kind: Kind as never }) } }, async () => 'x')
  await t.rejects(async () => { await other.ready() }, { code: 'FST_API_VERSIONING_INVALID_DECLARATION', message: /route GET \/kinds holds a schema that the change of 2\.0, enums\[0\], changes, but declares no version/ })
  const warned: string[] = []
  const typo = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { warned.push(JSON.parse(line).msg) } } } })
  await typo.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', enums: [{ schema: 'Kinds', removed: ['c'] }] })] }, { version: '1.0' }] })
  await typo.ready()
  t.match(warned.join('\n'), /the change of 2\.0, enums\[0\], names the schema 'Kinds', which no route holds and app\.addSchema did not add/)
})

t.test('an enum of a shared schema, reached by $ref; and one for convertToApiVersion alone, whose added member needs a response migration', async t => {
  const app = Fastify()
  app.addSchema({ $id: 'Size', type: 'string', enum: ['s', 'm', 'l'] })
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'Size l.', enums: [{ schema: 'Size', added: ['l'] }] })] }, { version: '1.0' }] })
  app.post('/shirts', { versionChanges: true, schema: { body: { type: 'object', properties: { size: { $ref: 'Size#' } } } } }, async request => request.body)
  await app.ready()
  t.equal((await app.inject({ method: 'POST', url: '/shirts?api-version=2.0', payload: { size: 'l' } })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: '/shirts?api-version=1.0', payload: { size: 'l' } })).statusCode, 400)
  t.same((await app.inject({ method: 'POST', url: '/shirts?api-version=1.0', payload: { size: 'm' } })).json(), { size: 'm' })

  const Shirt = Type.Object({ size: Type.Union([Type.Literal('s'), Type.Literal('xl')]) })
  const added = versionChange({ description: 'Size xl.', enums: [{ schema: Shirt.properties.size, added: ['xl'] }] })
  const alone = Fastify()
  await alone.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [added] }, { version: '1.0' }] })
  await t.rejects(async () => { await alone.ready() }, { message: 'fastify-api-versioning: versionChanges: the change of 2.0, enums[0]: older versions lack the member "xl", which this one may give, so convertToApiVersion needs a response migration by the schema (no route holds it) to convert it for the version before; add one to that change' })
  const migrated = Fastify()
  const small = versionChange({ description: 'xl is s to older clients.', responses: [{ schema: Shirt, migrate: response => { (response.body as { size: string }).size = 's' } }] })
  await migrated.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [added, small] }, { version: '1.0' }] })
  await migrated.ready()
  t.same(await migrated.convertToApiVersion({ schema: Shirt, value: { size: 'xl' }, version: '1.0' }), { size: 's' })
})

t.test("a response migration by an enum schema runs for its values, not for the null or number of a union's other member", async t => {
  const Level = Type.Union([Type.Literal('low'), Type.Literal('urgent')])
  const seen: unknown[] = []
  const change = versionChange({
    description: "Level 'urgent' (it was 'high').",
    enums: [{ schema: Level, added: ['urgent'] }, { schema: Level, removed: ['high'] }],
    responses: [{ schema: Level, migrate: response => { seen.push(response.body); return response.body === 'urgent' ? 'high' : response.body } }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.get('/tasks', { versionChanges: true, schema: { response: { 200: Type.Array(Type.Object({ priority: Type.Union([Level, Type.Null()]), rank: Type.Union([Level, Type.Integer()]) })) } } }, async () => [{ priority: null, rank: 5 }, { priority: 'urgent', rank: 'urgent' }])
  await app.ready()
  t.same((await app.inject('/tasks?api-version=1.0')).json(), [{ priority: null, rank: 5 }, { priority: 'high', rank: 'high' }])
  t.same(seen, ['urgent', 'urgent'])
  // The same where the union names the enum by its $id, and the enum is an `enum` keyword of its own.
  const Shared = { $id: 'Level', enum: ['low', 'urgent'] }
  const byId = versionChange({ description: "Level 'urgent' (it was 'high').", enums: [{ schema: Shared, added: ['urgent'] }, { schema: Shared, removed: ['high'] }], responses: [{ schema: Shared, migrate: response => response.body === 'urgent' ? 'high' : 9 }] })
  const shared = Fastify()
  shared.addSchema(Shared)
  await shared.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [byId] }, { version: '1.0' }] })
  shared.get('/tasks', { versionChanges: true, schema: { response: { 200: Type.Array(Type.Object({ rank: Type.Unsafe({ anyOf: [{ $ref: 'Level' }, { type: 'integer' }, { type: 'null' }] }) })) } } }, async () => [{ rank: 5 }, { rank: null }, { rank: 'urgent' }])
  await shared.ready()
  t.same((await shared.inject('/tasks?api-version=1.0')).json(), [{ rank: 5 }, { rank: null }, { rank: 'high' }])
})

t.test('a copy of an enum schema that adds a default (a query parameter\'s) is that schema: its instruction applies', async t => {
  const Sort = Type.Union([Type.Literal('date'), Type.Literal('relevance')])
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: "Searches sort by 'relevance'.", enums: [{ schema: Sort, added: ['relevance'] }] })] }, { version: '1.0' }] })
  app.get('/search', { versionChanges: true, schema: { querystring: Type.Object({ sort: { ...Sort, default: 'date' } }) } }, async request => request.query)
  await app.ready()
  t.equal((await app.inject('/search?sort=relevance&api-version=1.0')).statusCode, 400)
  t.match((await app.inject('/search?api-version=1.0')).json(), { sort: 'date' })
  t.match((await app.inject('/search?sort=relevance&api-version=2.0')).json(), { sort: 'relevance' })
})

t.test('a member removed from an enum a path parameter holds: start-up asks for a request migration, which converts the parameter', async t => {
  const Status = Type.Union([Type.Literal('open'), Type.Literal('shipped')])
  const removed: EnumInstruction = { schema: Status, removed: ['sent'] }
  const bare = Fastify()
  await bare.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: "'sent' is 'shipped'.", enums: [removed] })] }, { version: '1.0' }] })
  t.throws(() => bare.get('/orders/:status', { versionChanges: true, schema: { params: Type.Object({ status: Status }) } }, async request => request.params), { message: /enums\[0\].*needs a request migration \(by this route, or by the schema in its params\)/ })
  const app = Fastify()
  const change = versionChange({ description: "'sent' is 'shipped'.", enums: [removed], requests: [{ schema: Status, migrate: request => request.body === 'sent' ? 'shipped' : request.body }] })
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi)
  app.get('/orders/:status', { versionChanges: true, schema: { params: Type.Object({ status: Status }) } }, async request => request.params)
  await app.ready()
  t.same((await app.inject('/orders/sent?api-version=1.0')).json(), { status: 'shipped' })
  t.same((await app.inject('/orders/open?api-version=1.0')).json(), { status: 'open' })
  t.equal((await app.inject('/orders/sent?api-version=2.0')).statusCode, 400)
  t.match(JSON.stringify((await documentOf(app, '1.0')).paths['/orders/{status}']), /"sent"/)
  // A migration that gives what the newest schema refuses is the server's bug, as in a body: a 500 naming it.
  const typo = Fastify()
  await typo.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: "'sent' is 'shipped'.", enums: [removed], requests: [{ schema: Status, migrate: request => request.body === 'sent' ? 'SHIPPED' : request.body }] })] }, { version: '1.0' }] })
  typo.get('/orders/:status', { versionChanges: true, schema: { params: Type.Object({ status: Status }) } }, async request => request.params)
  await typo.ready()
  const failed = await typo.inject('/orders/sent?api-version=1.0')
  t.same([failed.statusCode, failed.json().code], [500, 'FST_API_VERSIONING_CONVERSION_FAILED'])
})
