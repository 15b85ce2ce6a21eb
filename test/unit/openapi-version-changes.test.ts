import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import type { ReleaseGate } from '../../lib/changes/release-gate.js'
import { kState, type ApiVersioningState } from '../../lib/state.js'
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
    '**Breaking changes**\n\n- `GET /orders/{id}`: response 200: property `createdAt` renamed from `created`')
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

t.test('a rename versionChanges declares is one change, as breaking as the older name removed; through a version retired between, the names followed', async t => {
  const Line = Type.Object({ sku: Type.String(), quantity: Type.Integer() })
  const Order = Type.Object({ code: Type.String(), note: Type.Optional(Type.String()), lines: Type.Array(Line) })
  const Filter = Type.Object({ pageSize: Type.Optional(Type.Integer()) })
  const app = Fastify()
  await app.register(apiVersioning, {
    versionChanges: [
      { version: '3.0', changes: [versionChange({ description: 'Codes are references; lines count their quantity.', fields: [{ schema: Order, field: 'code', renamedFrom: 'ref' }, { schema: Line, field: 'quantity', renamedFrom: 'count' }] })] },
      { version: '2.0', changes: [versionChange({ description: 'Orders have a reference; pages a size.', fields: [{ schema: Order as object, field: 'ref', renamedFrom: 'id' }, { schema: Filter, field: 'pageSize', renamedFrom: 'limit' }] })] },
      { version: '1.0' }
    ],
    // 2.0 is retired: 1.0 is followed by 3.0, and `id` became `code` in two steps.
    policies: { '2.0': { sunset: { date: '2020-01-01', enforce: true } } }
  })
  await app.register(apiVersioningOpenApi, {})
  app.post('/orders', { versionChanges: true, schema: { body: Order, querystring: Filter, response: { 200: Order } } }, async () => ({ code: 'a', lines: [] }))
  await app.ready()
  const [pair] = app.apiVersionChanges()
  t.same([pair.from, pair.to], ['1.0', '3.0'])
  t.same(pair.changed.map(change => change.details), [[
    { change: 'query parameter `pageSize` renamed from `limit`', breaking: true },
    { change: 'request body: property `code` renamed from `id`', breaking: true },
    { change: 'request body: property `lines[].quantity` renamed from `count`', breaking: true },
    { change: 'response 200: property `code` renamed from `id`', breaking: true },
    { change: 'response 200: property `lines[].quantity` renamed from `count`', breaking: true }
  ]])

  // The release gate compares a version's saved document with its own current one: a rename there (declared for
  // the version itself) is no change from a version before, but a property removed and another added.
  const gate = (app as unknown as Record<symbol, ApiVersioningState>)[kState].releaseGate as ReleaseGate
  const [older, newer] = app.apiVersionDocuments()
  t.same(gate.compare({ ...newer, document: older.document }, newer).changed.map(change => change.details)[0].filter(detail => detail.change.includes('`code`')), [
    { change: 'request body: required property `code` added', breaking: true },
    { change: 'response 200: required property `code` added', breaking: false }
  ])
})

t.test('a change of behaviour alone (a description, no instruction) is in the documents and their changes as any change is', async t => {
  const words = versionChange({ description: 'Searches match whole words.' })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '3.0', changes: [renamed] }, { version: '2.0', changes: [words] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, { openapi: { info: { title: 'Search', version: 'x', description: 'The search API.' } } })
  app.get('/orders/:id', { versionChanges: true, schema: { response: { 200: Order } } }, async request => ({ id: 1, createdAt: String(words.isAppliedTo(request)), status: 'open' }))
  await app.ready()
  const [pair, next] = app.apiVersionChanges()
  t.same([pair.from, pair.to, pair.descriptions, pair.changed, pair.added, pair.removed], ['1.0', '2.0', ['Searches match whole words.'], [], [], []], 'its description, and nothing the documents show')
  t.same(next.descriptions, ["Orders call their creation time 'createdAt' (it was 'created')."])
  t.equal(documentOf(app, '2.0').info.description, 'The search API.\n\n### Changes since 1.0\n\nSearches match whole words.\n\nNo operation changed.')
  t.same((await app.inject('/openapi/changes.json')).json()[0].descriptions, ['Searches match whole words.'])
  t.same(await allProblems(app), [])
  t.same((await app.inject('/orders/1?api-version=1.0')).json(), { id: 1, created: 'false', status: 'open' })
  t.same((await app.inject('/orders/1?api-version=2.0')).json(), { id: 1, created: 'true', status: 'open' })
})

t.test("a shared schema's name in older versions' documents: its component (of the version's shape where a change changed it), the references to it", async t => {
  const Line = { $id: 'Line', type: 'object', properties: { sku: { type: 'string' } } }
  const Order = { $id: 'Order', type: 'object', properties: { total: { type: 'number' }, line: { $ref: 'Line#' }, sku: { $ref: 'Line#/properties/sku' }, note: { type: 'string', 'x-note': null }, default: { $ref: 'Line#' }, example: { type: 'object', title: 'Order' } }, example: { title: 'Order', line: { title: 'Order' } }, discriminator: { propertyName: 'kind', mapping: { line: '#/components/schemas/Line', other: 'Other' } } }
  for (const openapi of ['3.0.3', '3.1.0']) {
    await t.test(`OpenAPI ${openapi}`, async t => {
      const app = Fastify()
      await app.register(apiVersioning, {
        versionChanges: [
          { version: '3.0', changes: [versionChange({ description: 'Orders are called orders (they were invoices).', schemas: [{ schema: 'Order', renamedFrom: 'Invoice' }] })] },
          { version: '2.0', changes: [versionChange({ description: 'Invoices have a total (it was sum); lines are lines.', fields: [{ schema: 'Order', field: 'total', renamedFrom: 'sum' }], schemas: [{ schema: Order, renamedFrom: 'Bill' }, { schema: 'Line', renamedFrom: 'Item' }] })] },
          { version: '1.0' }
        ]
      })
      await app.register(apiVersioningOpenApi, { openapi: { openapi, info: { title: 'Order', version: 'x' } } })
      app.addSchema(Line)
      app.addSchema(Order)
      app.get('/orders/:id', { versionChanges: true, schema: { response: { 200: { $ref: 'Order#' } } } }, async () => ({ total: 1 }))
      app.get('/lines', { versionChanges: true, schema: { response: { default: { $ref: 'Line#' } } } }, async () => ({ sku: 's' }))
      app.get('/first', { versionChanges: true, schema: { response: { 200: { allOf: [{ $ref: 'Order#' }] } } } }, async () => ({ total: 1 }))
      await app.ready()
      const response = (version: string) => operations(documentOf(app, version))['GET /orders/{id}'].responses['200'].content['application/json'].schema
      const components = (version: string) => Object.keys(documentOf(app, version).components?.schemas ?? {}).filter(name => !/Problem|Error/.test(name)).sort()
      t.same([components('3.0'), response('3.0')], [['Line', 'Order'], { $ref: '#/components/schemas/Order' }], 'the newest: as added')
      t.same([components('2.0'), response('2.0')], [['Invoice', 'Line'], { $ref: '#/components/schemas/Invoice' }], "2.0: 3.0's older name")
      t.same([components('1.0'), response('1.0')], [['Bill', 'Item'], { $ref: '#/components/schemas/Bill' }], "1.0: 2.0's names, the changed schema a component of 1.0's shape (a generated client names its type)")
      t.match(documentOf(app, '1.0').components?.schemas?.Bill, { title: 'Bill', properties: { sum: { type: 'number' }, line: { $ref: '#/components/schemas/Item' }, sku: { $ref: '#/components/schemas/Item/properties/sku' }, default: { $ref: '#/components/schemas/Item' }, example: { title: 'Bill' } }, example: { title: 'Order', line: { title: 'Order' } }, discriminator: { mapping: { line: '#/components/schemas/Item', other: 'Other' } } })
      t.same(operations(documentOf(app, '1.0'))['GET /lines'].responses.default.content['application/json'].schema, { $ref: '#/components/schemas/Item' }, 'the catch-all status of responses')
      t.same(operations(documentOf(app, '1.0'))['GET /first'].responses['200'].content['application/json'].schema, { allOf: [{ $ref: '#/components/schemas/Bill' }] }, 'wherever the copy is')
      t.equal(documentOf(app, '1.0').info.title, 'Order', "the document's own title is no schema's")
      t.same(await allProblems(app), [])
      t.same(app.apiVersionChanges().map(c => [c.to, c.descriptions.length, c.changed.length]), [['2.0', 1, 2], ['3.0', 1, 0]], 'a name alone changes nothing of the data')
      t.same((await app.inject('/orders/1?api-version=1.0')).json(), { sum: 1 })
    })
  }

  // Refused at start-up: a name another schema of the documents has (a shared one, the plugin's error schemas, one
  // of the base document's), two schemas given one name, a schema no document has. Two schemas may swap names.
  const started = async (schemas: Array<{ schema: string, renamedFrom: string }>) => {
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', schemas })] }, { version: '1.0' }] })
    await app.register(apiVersioningOpenApi, { openapi: { components: { schemas: { Money: { type: 'number' } } } } })
    app.addSchema(Line)
    app.addSchema(Order)
    app.get('/orders/:id', { versionChanges: true, schema: { response: { 200: { $ref: 'Order#' } } } }, async () => ({ total: 1 }))
    await app.ready()
    return app
  }
  for (const [taken, other] of [['Line', 'Line'], ['ProblemDetails', 'ProblemDetails'], ['FastifyError', 'FastifyError'], ['Money', 'Money']]) {
    await t.rejects(started([{ schema: 'Order', renamedFrom: taken }]), { code: 'FST_API_VERSIONING_INVALID_OPTION', message: `fastify-api-versioning: versionChanges: the change of 2.0, schemas[0], names the schema 'Order' '${taken}' in the document of 1.0, where the schema '${other}' has that name; give it a name of its own` }, taken)
  }
  await t.rejects(started([{ schema: 'Order', renamedFrom: 'Thing' }, { schema: 'Line', renamedFrom: 'Thing' }]), { message: /the change of 2\.0, schemas\[1\], names the schema 'Line' 'Thing' in the document of 1\.0, where the schema 'Order' has that name/ }, 'two of one name')
  await t.rejects(started([{ schema: 'Ordr', renamedFrom: 'Bill' }]), { message: /the change of 2\.0, schemas\[0\], names the schema 'Ordr', which no document has \(their schemas: .*Order.*\); name a schema added with app\.addSchema where the openapi entry is registered, by its \$id/ }, 'a $id mistyped')
  const swapped = await started([{ schema: 'Order', renamedFrom: 'Line' }, { schema: 'Line', renamedFrom: 'Order' }])
  t.same(Object.keys(documentOf(swapped, '1.0').components?.schemas ?? {}).filter(name => name === 'Line' || name === 'Order').sort(), ['Line', 'Order'], 'two schemas may swap names')
  t.match(documentOf(swapped, '1.0').components?.schemas?.Line, { properties: { total: {} } }, "Order's shape, named Line")
})

t.test("a shared schema whose $id is no component name (a URL): older versions' documents hold its shape where it is, and its changes are read", async t => {
  for (const $id of ['http://example.com/money.json', 'schemas/money']) {
    const Money = { $id, type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'number' }, currency: { type: 'string' } } }
    const app = Fastify()
    app.addSchema(Money)
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'Money has a currency.', fields: [{ schema: Money, field: 'currency', added: true }] })] }, { version: '1.0' }] })
    await app.register(apiVersioningOpenApi, {})
    app.get('/price', { versionChanges: true, schema: { response: { 200: { $ref: `${$id}#` } } } }, async () => ({ amount: 1, currency: 'EUR' }))
    await app.ready()
    t.same(await allProblems(app), [], $id)
    const response = operations(documentOf(app, '1.0'))['GET /price'].responses['200'].content['application/json'].schema
    t.same(Object.keys(response.properties), ['amount'], `${$id}: 1.0's shape, in place`)
    t.same(app.apiVersionChanges()[0].changed.map(change => change.changes), [['response 200: required property `currency` added']], $id)
    t.same((await app.inject('/price?api-version=1.0')).json(), { amount: 1 })
  }
})

t.test('an endpoint hidden from a version on: served, but in no document of it or later, and no change removed it', async t => {
  const app = Fastify()
  const hide = versionChange({ description: 'Exports are internal.', endpoints: [{ method: ['GET', 'POST'], url: '/api/v:apiVersion/exports/:id', hidden: true }] })
  await app.register(apiVersioning, { versionReader: { urlSegment: 'apiVersion' }, versionChanges: [{ version: '3.0' }, { version: '2.0', changes: [hide] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, {})
  app.get('/api/v:apiVersion/exports/:id', { versionChanges: true }, async () => 'export')
  app.post('/api/v:apiVersion/exports/:id', { versionChanges: true }, async () => 'made')
  app.get('/api/v:apiVersion/orders', { versionChanges: true }, async () => [])
  await app.ready()
  t.same(Object.keys(operations(documentOf(app, '1.0'))), ['GET /api/v1.0/exports/{id}', 'POST /api/v1.0/exports/{id}', 'GET /api/v1.0/orders'])
  t.same(Object.keys(operations(documentOf(app, '2.0'))), ['GET /api/v2.0/orders'], 'left out, path and all')
  t.same(Object.keys(operations(documentOf(app, '3.0'))), ['GET /api/v3.0/orders'], 'and from then on')
  for (const version of ['1.0', '2.0', '3.0']) t.equal((await app.inject(`/api/v${version}/exports/7`)).body, 'export', `served at ${version}`)
  const [from1, from2] = app.apiVersionChanges()
  t.same([from1.removed, from1.hidden, from1.descriptions], [[], ['GET /api/v1.0/exports/{id}', 'POST /api/v1.0/exports/{id}'], ['Exports are internal.']], 'hidden, not removed: no client breaks')
  t.same([from2.removed, from2.hidden], [[], []])
  t.notMatch(documentOf(app, '2.0').info.description ?? '', /exports/, 'nor does the document say so')
  t.same(await allProblems(app), [])
})

t.test("an endpoint's documentation in older versions (summary, description, tags, operationId), and deprecated from a version on", async t => {
  const app = Fastify()
  await app.register(apiVersioning, {
    versionChanges: [
      { version: '3.0', changes: [versionChange({ description: 'Orders are read one by one.', endpoints: [{ method: 'GET', url: '/api/orders/:id', changed: { summary: 'Read an invoice', tags: ['invoices'], operationId: 'readInvoice' } }, { method: 'DELETE', url: '/api/orders/:id', deprecated: true }] })] },
      { version: '2.0', changes: [versionChange({ description: 'Invoices have a description.', endpoints: [{ method: 'GET', url: '/api/orders/:id', changed: { summary: 'Read a bill', description: 'A bill, by its number.' } }] })] },
      { version: '1.0' }
    ]
  })
  await app.register(apiVersioningOpenApi, {})
  await app.register(async api => {
    api.get('/orders/:id', { versionChanges: true, schema: { summary: 'Read an order', tags: ['orders'], operationId: 'readOrder', response: { 200: Order } } }, async () => ({ id: 1, createdAt: 'now', status: 'open' }))
    api.delete('/orders/:id', { versionChanges: true }, async (request, reply) => reply.code(204).send())
  }, { prefix: '/api' })
  await app.ready()
  const documented = (version: string) => {
    const ops = operations(documentOf(app, version))
    const read = ops['GET /api/orders/{id}']
    return [read.summary, read.description, read.tags, read.operationId, ops['DELETE /api/orders/{id}'].deprecated ?? false]
  }
  t.same(documented('3.0'), ['Read an order', undefined, ['orders'], 'readOrder', true], 'the newest: as declared; deprecated from 3.0 on')
  t.same(documented('2.0'), ['Read an invoice', undefined, ['invoices'], 'readInvoice', false], "3.0's older documentation")
  t.same(documented('1.0'), ['Read a bill', 'A bill, by its number.', ['invoices'], 'readInvoice', false], "2.0's, over 3.0's where it says otherwise")
  t.same(await allProblems(app), [])
  t.same(app.apiVersionChanges().at(-1)?.deprecated, ['DELETE /api/orders/{id}'])
  await t.rejects(async () => {
    const wrong = Fastify()
    await wrong.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/orders/:id', deprecated: true }] })] }, { version: '1.0' }] })
    wrong.get('/orders', { versionChanges: true }, async () => [])
    await wrong.ready()
  }, { code: 'FST_API_VERSIONING_INVALID_OPTION', message: /names the endpoint GET \/orders\/:id, which no route declared with versionChanges: true is/ })
})

t.test("a route at a prefix's root is documented at one path in every version, as @fastify/swagger documents it: its changes are its shape's", async t => {
  // Endpoint instructions name it as Fastify's onRoute hooks are told it, '/api', whether it was declared '/' or ''.
  const summary = versionChange({ description: 'Orders were read as bills.', endpoints: [{ method: 'GET', url: '/api', changed: { summary: 'Read bills' } }] })
  for (const [declared, path] of [['/', '/api/'], ['', '/api']] as const) {
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [renamed, summary] }, { version: '1.0' }] })
    await app.register(apiVersioningOpenApi, {})
    await app.register(async api => {
      api.route({ method: ['GET', 'POST'], url: declared, versionChanges: true, schema: { response: { 200: Order } }, handler: async () => ({ id: 1, createdAt: 'now', status: 'open' }) })
    }, { prefix: '/api' })
    await app.ready()
    for (const version of ['1.0', '2.0']) t.same(Object.keys(operations(documentOf(app, version))).sort(), [`GET ${path}`, `POST ${path}`], `${declared || "''"}: ${version}`)
    const [pair] = app.apiVersionChanges()
    t.same([pair.added, pair.removed], [[], []], `${declared || "''"}: nothing added or removed`)
    t.same(pair.changed.map(change => change.operation).sort(), [`GET ${path}`, `POST ${path}`])
    t.same(['1.0', '2.0'].map(version => operations(documentOf(app, version))[`GET ${path}`].summary), ['Read bills', undefined])
    t.same(await allProblems(app), [])
  }
  // Fastify's HEAD route of one declared '/' is at '/api/': a GET instruction naming that is no name of the GET route.
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/api/', hidden: true }] })] }, { version: '1.0' }] })
  await app.register(async api => { api.get('/', { versionChanges: true }, async () => ({})) }, { prefix: '/api' })
  await t.rejects(async () => { await app.ready() }, { code: 'FST_API_VERSIONING_INVALID_OPTION', message: /names the endpoint GET \/api\/, which no route declared with versionChanges: true is; name it as declared, method and URL with its prefix \(GET \/api, HEAD \/api, HEAD \/api\/\)/ })
  // Declared at '/api/' alone (prefixTrailingSlash: 'slash'), it is named so, as its HEAD route is.
  const slash = Fastify()
  await slash.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/api/', hidden: true }] })] }, { version: '1.0' }] })
  await slash.register(apiVersioningOpenApi, {})
  await slash.register(async api => { api.get('/', { versionChanges: true, prefixTrailingSlash: 'slash' }, async () => ({})) }, { prefix: '/api' })
  await slash.ready()
  t.same(['1.0', '2.0'].map(version => Object.keys(operations(documentOf(slash, version)))), [['GET /api/'], []])
})

t.test('a version of versionChanges that no route serves (its endpoints all removed) has its document, and its changes are compared', async t => {
  const app = Fastify()
  await app.register(apiVersioning, {
    versionChanges: [
      { version: '4.0', changes: [versionChange({ description: 'Orders are back.', endpoints: [{ method: 'GET', url: '/orders/:id', added: true }] })] },
      { version: '3.0', changes: [versionChange({ description: 'Orders are withdrawn.', endpoints: [{ method: 'GET', url: '/orders/:id', removed: true }] })] },
      { version: '2.0', deprecated: true },
      { version: '1.0' }
    ]
  })
  await app.register(apiVersioningOpenApi)
  app.get('/orders/:id', { versionChanges: true }, async () => ({}))
  await app.ready()
  t.same(app.apiVersionDocuments().map(d => [d.version, d.deprecated]), [['1.0', false], ['2.0', true], ['3.0', false], ['4.0', false]])
  t.same(Object.keys(operations(documentOf(app, '3.0'))), [])
  t.equal((await app.inject('/openapi/3.0.json')).statusCode, 200)
  t.same(app.apiVersionChanges().map(c => [c.from, c.to, c.descriptions, c.added, c.removed]), [
    ['1.0', '2.0', [], [], []],
    ['2.0', '3.0', ['Orders are withdrawn.'], [], ['GET /orders/{id}']],
    ['3.0', '4.0', ['Orders are back.'], ['GET /orders/{id}'], []]
  ])
})
