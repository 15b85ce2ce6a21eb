import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { allProblems, documentOf, operations } from './openapi-helpers.js'

const Order = Type.Object({ id: Type.Integer(), createdAt: Type.String(), status: Type.String() })
const renamed = versionChange({ description: "Orders call their creation time 'createdAt' (it was 'created').", fields: [{ schema: Order, field: 'createdAt', renamedFrom: 'created' }] })
const status = versionChange({ description: 'Orders have a status.', fields: [{ schema: Order, field: 'status', added: true }] })
const lines = versionChange({ description: 'Orders have lines of their own.', endpoints: [{ method: 'GET', url: '/orders/:id/lines', added: true }] })

t.test('one document per version of versionChanges, with its schemas; its changes say what the version changed, first', async t => {
  const app = Fastify()
  await app.register(apiVersioning, {
    problemDetails: true,
    versionChanges: [{ version: '3.0', changes: [renamed] }, { version: '2.0', changes: [status, lines] }, { version: '1.0', deprecated: true }]
  })
  await app.register(apiVersioningOpenApi, { openapi: { info: { title: 'Orders', version: 'x', description: 'The orders API.' } } })
  app.get('/orders/:id', { versionChanges: true, schema: { response: { 200: Order } } }, async () => ({ id: 1, createdAt: 'now', status: 'open' }))
  app.get('/orders/:id/lines', { versionChanges: true }, async () => [])
  await app.ready()
  t.same(app.apiVersionDocuments().map(d => [d.version, d.deprecated]), [['1.0', true], ['2.0', false], ['3.0', false]])
  const properties = (version: string) => Object.keys(operations(documentOf(app, version))['GET /orders/{id}'].responses['200'].content['application/json'].schema.properties)
  t.same(properties('3.0'), ['id', 'createdAt', 'status'])
  t.same(properties('2.0'), ['id', 'created', 'status'])
  t.same(properties('1.0'), ['id', 'created'])
  t.same(Object.keys(operations(documentOf(app, '1.0'))), ['GET /orders/{id}'], 'the lines came in 2.0')
  t.same(Object.keys(operations(documentOf(app, '2.0'))), ['GET /orders/{id}', 'GET /orders/{id}/lines'])
  t.same(await allProblems(app), [])

  const changes = app.apiVersionChanges()
  t.same(changes.map(c => [c.from, c.to, c.descriptions]), [
    ['1.0', '2.0', ['Orders have a status.', 'Orders have lines of their own.']],
    ['2.0', '3.0', ["Orders call their creation time 'createdAt' (it was 'created')."]]
  ])
  t.ok(Object.isFrozen(changes[0].descriptions))
  t.same(changes[0].added, ['GET /orders/{id}/lines'])
  t.equal(documentOf(app, '3.0').info.description, "The orders API.\n\n### Changes since 2.0\n\nOrders call their creation time 'createdAt' (it was 'created').\n\n" +
    '**Breaking changes**\n\n- `GET /orders/{id}`: response 200: property `created` removed\n\n**Other changes**\n\n- `GET /orders/{id}`: response 200: required property `createdAt` added')
  t.match(documentOf(app, '2.0').info.description, /^The orders API\.\n\n### Changes since 1\.0\n\nOrders have a status\.\n\nOrders have lines of their own\.\n\n\*\*Other changes\*\*/)
  t.notMatch(documentOf(app, '1.0').info.description, /Changes since/)
  t.same((await app.inject('/openapi/changes.json')).json()[1].descriptions, ["Orders call their creation time 'createdAt' (it was 'created')."])
})

t.test('a change of schemas alone shows in the documents and their changes, as a change of data does', async t => {
  const NewUser = Type.Object({ fullName: Type.String(), email: Type.Optional(Type.String()) })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'Users may give an email.', fields: [{ schema: NewUser, field: 'email', added: true }] })] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, {})
  app.post('/users', { versionChanges: true, schema: { body: NewUser } }, async () => 'ok')
  await app.ready()
  const [pair] = app.apiVersionChanges()
  t.same([pair.from, pair.to, pair.descriptions], ['1.0', '2.0', ['Users may give an email.']])
  t.same(pair.changed.map(change => [change.operation, change.changes]), [['POST /users', ['request body: property `email` added']]])
})
