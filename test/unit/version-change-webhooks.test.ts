import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type VersionChangesEntry } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { rulesOf } from '../../lib/version-changes/version-change.js'
import { allProblems, documentOf } from './openapi-helpers.js'

// The orders service sends two events: order.paid (its order's total was 'amount' before 3.0) and, from 2.0 on,
// order.shipped; order.created was sent only before 3.0.
const Customer = Type.Object({ id: Type.Integer(), name: Type.String() }, { $id: 'Customer' })
const Paid = Type.Object({ id: Type.Integer(), total: Type.Number(), customer: Type.Ref(Customer) })
const Shipped = Type.Object({ id: Type.Integer(), carrier: Type.String() })
const Created = Type.Object({ id: Type.Integer() })
const webhooks = {
  'order.paid': { schema: Paid, description: 'An order was paid.' },
  'order.shipped': { schema: Shipped },
  'order.created': { schema: Created }
}
const renamed = versionChange({ description: "A paid order's total is 'total' (it was 'amount'); no more order.created.", fields: [{ schema: Paid, field: 'total', renamedFrom: 'amount' }], webhooks: [{ name: 'order.created', removed: true }] })
const shipped = versionChange({ description: 'Shipped orders are told.', webhooks: [{ name: 'order.shipped', added: true }] })
const LIST: VersionChangesEntry[] = [{ version: '3.0', changes: [renamed] }, { version: '2.0', changes: [shipped] }, { version: '1.0' }]

async function service (openapi = '3.1.0', list = LIST, more: Record<string, unknown> = webhooks) {
  const app = Fastify()
  app.addSchema(Customer)
  await app.register(apiVersioning, { versionChanges: list, webhooks: more as typeof webhooks })
  await app.register(apiVersioningOpenApi, { openapi: { openapi, info: { title: 'Orders', version: 'x' } } })
  app.get('/orders', { versionChanges: true }, async () => [])
  await app.ready()
  return app
}

t.test('a webhook instruction and the webhooks option are checked, naming what is wrong', async t => {
  t.same(rulesOf(versionChange({ description: 'x', webhooks: [{ name: 'a', added: true }, { name: 'b', removed: true }] }))?.webhooks, [{ name: 'a', kind: 'added', at: 'webhooks[0]' }, { name: 'b', kind: 'removed', at: 'webhooks[1]' }])
  const rules: Array<[unknown, RegExp]> = [
    [[null], /webhooks\[0\] must be \{ name, added: true \} or \{ name, removed: true \}/],
    [[{ name: '', added: true }], /webhooks\[0\]\.name must be the webhook's name/],
    [[{ name: 'a' }], /webhooks\[0\] must say one of added: true and removed: true \(got none\)/],
    [[{ name: 'a', added: 1 }], /webhooks\[0\]\.added must be true/],
    [[{ name: 'a', added: true, removed: true }], /webhooks\[0\] must say one of added: true and removed: true \(got added, removed\)/],
    [[{ name: 'a', added: true, event: 'x' }], /webhooks\[0\] has the unknown key "event"; its keys are name, added, removed/]
  ]
  for (const [given, message] of rules) t.throws(() => versionChange({ description: 'x', webhooks: given as never }), { code: 'FST_API_VERSIONING_INVALID_OPTION', message }, String(message))
  const options: Array<[unknown, RegExp]> = [
    [[], /webhooks must be an object of \{ \[name\]: \{ schema, description\? \} \}/],
    [{ '': { schema: {} } }, /webhooks has a webhook without a name/],
    [{ a: 1 }, /webhooks\["a"\] must be \{ schema, description\? \}/],
    [{ a: { schema: {}, payload: {} } }, /webhooks\["a"\] has an unknown option "payload"; a webhook has schema and description/],
    [{ a: { schema: 'Customer' } }, /webhooks\["a"\]\.schema must be the payload's schema object \(got Customer\)/],
    [{ a: { schema: {}, description: 1 } }, /webhooks\["a"\]\.description must be a text/]
  ]
  for (const [given, message] of options) await t.rejects(async () => { await Fastify().register(apiVersioning, { webhooks: given as never }) }, { code: 'FST_API_VERSIONING_INVALID_OPTION', message }, String(message))
  await t.rejects(service('3.1.0', [{ version: '2.0', changes: [versionChange({ description: 'x', webhooks: [{ name: 'order.refunded', added: true }] })] }, { version: '1.0' }]), {
    message: 'fastify-api-versioning: versionChanges: the change of 2.0, webhooks[0], names the webhook "order.refunded", which the webhooks option of the plugin does not declare ("order.paid", "order.shipped", "order.created"); declare it there, with its payload\'s schema'
  })
  const none = Fastify()
  await none.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', webhooks: [{ name: 'a', removed: true }] })] }, { version: '1.0' }] })
  await t.rejects(async () => { await none.ready() }, { message: /names the webhook "a", which the webhooks option of the plugin does not declare \(it declares none\)/ })
  await t.rejects(none.convertToApiVersion({ webhook: 5 as never, value: {}, version: '2.0' }), { message: 'fastify-api-versioning: convertToApiVersion: webhook 5 is not one of the webhooks option (none is declared)' })
  const added = () => versionChange({ description: 'x', webhooks: [{ name: 'order.paid', added: true }] })
  await t.rejects(service('3.1.0', [{ version: '3.0', changes: [added()] }, { version: '2.0', changes: [added()] }, { version: '1.0' }]), {
    message: 'fastify-api-versioning: versionChanges: the change of 3.0, webhooks[0], says the webhook "order.paid" was added, but it exists in the version before already'
  })
})

t.test('convertToApiVersion({ webhook }): the payload as the receivers of a version get it', async t => {
  const app = await service()
  const paid = { id: 7, total: 12.5, customer: { id: 1, name: 'Ada' } }
  t.same(await app.convertToApiVersion({ webhook: 'order.paid', value: paid, version: '3.0' }), paid)
  t.same(await app.convertToApiVersion({ webhook: 'order.paid', value: paid, version: '2.0' }), { id: 7, amount: 12.5, customer: { id: 1, name: 'Ada' } })
  t.same(await app.convertToApiVersion({ webhook: 'order.created', value: { id: 7 }, version: '1.0' }), { id: 7 })
  await t.rejects(app.convertToApiVersion({ webhook: 'order.shipped', value: { id: 7, carrier: 'x' }, version: '1.0' }), { message: 'fastify-api-versioning: convertToApiVersion: the webhook "order.shipped" is not in version 1.0, whose receivers get no such event' })
  await t.rejects(app.convertToApiVersion({ webhook: 'order.created', value: { id: 7 }, version: '3.0' }), { message: /the webhook "order\.created" is not in version 3\.0/ })
  await t.rejects(app.convertToApiVersion({ webhook: 'order.lost', value: {}, version: '3.0' }), { message: 'fastify-api-versioning: convertToApiVersion: webhook order.lost is not one of the webhooks option (order.paid, order.shipped, order.created)' })
  await t.rejects(app.convertToApiVersion({ webhook: 'order.paid', schema: Paid, value: {}, version: '3.0' } as never), { message: /needs a schema or a webhook, one of them/ })
  await t.rejects(app.convertToApiVersion({ value: {}, version: '3.0' } as never), { message: /needs a schema or a webhook, one of them/ })
})

t.test('convertToApiVersion of a shared schema itself, then of one that refers to it: each written as the app writes it', async t => {
  const app = await service('3.1.0', LIST, { ...webhooks, 'customer.updated': { schema: Customer } })
  const customer = { id: 1, name: 'Ada' }
  for (const version of ['3.0', '1.0']) {
    t.same(await app.convertToApiVersion({ webhook: 'customer.updated', value: customer, version }), customer, version)
    t.same(await app.convertToApiVersion({ webhook: 'order.paid', value: { id: 7, total: 1, customer }, version }), version === '3.0' ? { id: 7, total: 1, customer } : { id: 7, amount: 1, customer }, version)
    t.same(await app.convertToApiVersion({ schema: Customer, value: customer, version }), customer, `${version}, by the schema`)
  }
})

t.test("each OpenAPI 3.1 document has its version's webhooks; a 3.0 document holds them as x-webhooks and says so", async t => {
  const app = await service()
  const hooks = (version: string) => documentOf(app, version).webhooks as Record<string, any>
  t.same(Object.keys(hooks('3.0')), ['order.paid', 'order.shipped'])
  t.same(Object.keys(hooks('2.0')), ['order.paid', 'order.shipped', 'order.created'])
  t.same(Object.keys(hooks('1.0')), ['order.paid', 'order.created'])
  const payload = (version: string) => hooks(version)['order.paid'].post.requestBody.content['application/json'].schema
  t.same(Object.keys(payload('3.0').properties), ['id', 'total', 'customer'])
  t.same(Object.keys(payload('2.0').properties), ['id', 'amount', 'customer'], "each version's payload")
  t.same(payload('2.0').properties.customer, { $ref: '#/components/schemas/Customer' }, 'shared schemas as components')
  t.ok(documentOf(app, '2.0').components?.schemas?.Customer)
  t.equal(hooks('3.0')['order.paid'].post.description, 'An order was paid.')
  t.same(await allProblems(app), [])
  const old = await service('3.0.3')
  t.equal(documentOf(old, '3.0').webhooks, undefined)
  t.match(documentOf(old, '3.0').info.description, /The service also sends webhooks \(order\.paid, order\.shipped, order\.created\), which an OpenAPI 3\.0\.3 document has no place for: they are under x-webhooks here, and under webhooks in its OpenAPI 3\.1 documents\./)
  const extension = (version: string) => (documentOf(old, version) as any)['x-webhooks']
  t.same(Object.keys(extension('3.0')), Object.keys(hooks('3.0')), 'an OpenAPI 3.0 document holds them as x-webhooks')
  t.same(extension('2.0')['order.paid'].post.requestBody.content['application/json'].schema.properties.customer, { $ref: '#/components/schemas/Customer' })
  const webhookChanges = (server: typeof app) => server.apiVersionChanges().map(c => [...c.added, ...c.removed, ...c.changed.map(o => o.operation)].filter(operation => operation.startsWith('webhook')))
  t.same(webhookChanges(old), [['webhook order.shipped'], ['webhook order.created', 'webhook order.paid']], 'and the changes between versions read them as in 3.1')
  t.same(webhookChanges(old), webhookChanges(app))
  t.same(await allProblems(old), [])
  const unlisted = Fastify()
  unlisted.addSchema(Customer)
  await unlisted.register(apiVersioning, { webhooks })
  await unlisted.register(apiVersioningOpenApi, { openapi: { openapi: '3.1.0', info: { title: 'Orders', version: 'x' } } })
  unlisted.get('/orders', { apiVersions: ['1.0', '2.0'] }, async () => [])
  await unlisted.ready()
  for (const version of ['1.0', '2.0']) t.same(Object.keys(documentOf(unlisted, version).webhooks as object), ['order.paid', 'order.shipped', 'order.created'], `without versionChanges: every webhook, as written (${version})`)
})

t.test('what a document has of webhooks: refs of every form, a version the list lacks, a 3.0 description, what transformObject leaves', async t => {
  const app = Fastify()
  app.addSchema(Customer)
  const Refund = { $id: 'Refund', type: 'object', properties: { by: { $ref: 'Customer' }, of: { $ref: 'Customer#/properties/id' }, again: { $ref: '#/properties/by' } }, examples: [{ $id: 'r-1' }] }
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0' }, { version: '1.0' }], webhooks: { 'order/refunded~': { schema: Refund } } })
  await app.register(apiVersioningOpenApi, {
    openapi: { openapi: '3.1.0', info: { title: 'Orders', version: 'x' } },
    // Webhooks the app writes itself, of any shape: compared as far as they go.
    transformObject: ({ document, version }) => version === '2.0' ? { ...document, webhooks: { ...document.webhooks as object, bare: {}, empty: { post: {} } } } : document
  })
  app.get('/orders', { versionChanges: true }, async () => [])
  app.get('/legacy', { apiVersions: '0.5' }, async () => [])
  await app.ready()
  const refunded = (documentOf(app, '2.0').webhooks as Record<string, any>)['order/refunded~'].post
  t.same(refunded.requestBody.content['application/json'].schema, {
    type: 'object',
    properties: { by: { $ref: '#/components/schemas/Customer' }, of: { $ref: '#/components/schemas/Customer/properties/id' }, again: { $ref: '#/webhooks/order~1refunded~0/post/requestBody/content/application~1json/schema/properties/by' } },
    examples: [{ $id: 'r-1' }]
  }, 'without $id; a local $ref where the schema is; an example\'s $id kept')
  t.same(await allProblems(app), [], 'every $ref resolves')
  t.notOk('description' in refunded)
  t.equal(documentOf(app, '0.5').webhooks, undefined, 'a version the list lacks: no payload of it')
  t.same(app.apiVersionChanges().at(-1)?.added, ['webhook empty'])
  const old = Fastify()
  await old.register(apiVersioning, { webhooks })
  await old.register(apiVersioningOpenApi, { openapi: { openapi: '3.0.3', info: { title: 'Orders', version: 'x', description: 'The orders API.' } } })
  await old.ready()
  t.match(documentOf(old, '1.0').info.description, /^The orders API\.\n\nThe service also sends webhooks/)
})

t.test('apiVersionChanges() compares the webhooks, a change that breaks a receiver breaking', async t => {
  const app = await service()
  const [from1, from2] = app.apiVersionChanges()
  t.same([from1.added, from1.removed], [['webhook order.shipped'], []])
  t.same([from2.added, from2.removed], [[], ['webhook order.created']])
  t.same(from2.changed.map(change => [change.operation, change.details]), [['webhook order.paid', [{ change: 'payload: property `total` renamed from `amount`', breaking: true }]]])
  t.match(documentOf(app, '3.0').info.description, /`webhook order\.created` removed/)
})
