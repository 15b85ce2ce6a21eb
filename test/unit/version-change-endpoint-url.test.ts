import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type EndpointInstruction } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { versionsOfEndpoint } from '../../lib/version-changes/endpoints.js'
import { resolveVersionList } from '../../lib/version-changes/version-list.js'
import { allProblems, documentOf, operations } from './openapi-helpers.js'

// 2.0 moved an order's lines from /bills/:bill/items/:n to /api/orders/:id/lines/:n.
const moved = (url = '/api/bills/:bill/items/:n'): EndpointInstruction => ({ method: 'GET', url: '/api/orders/:id/lines/:n', changed: { url } })

async function service (instruction = moved()) {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, versionChanges: [{ version: '3.0' }, { version: '2.0', changes: [versionChange({ description: 'Lines are under orders.', endpoints: [instruction] })] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, {})
  const seen: unknown[] = []
  await app.register(async api => {
    api.get('/orders/:id/lines/:n', { versionChanges: true, schema: { params: Type.Object({ id: Type.Integer(), n: Type.Integer() }) } }, async request => {
      seen.push(request.params)
      return { line: request.params }
    })
  }, { prefix: '/api' })
  await app.ready()
  const get = async (url: string, version: string) => {
    const reply = await app.inject(`${url}?api-version=${version}`)
    return [reply.statusCode, reply.json()] as const
  }
  return { app, get, seen }
}

t.test('an endpoint at another URL in older versions: each version served at its own, the handler given the newest names', async t => {
  const { app, get, seen } = await service()
  t.same(await get('/api/orders/7/lines/2', '3.0'), [200, { line: { id: 7, n: 2 } }])
  t.same(await get('/api/orders/7/lines/2', '2.0'), [200, { line: { id: 7, n: 2 } }])
  t.same(await get('/api/bills/7/items/2', '1.0'), [200, { line: { id: 7, n: 2 } }], 'the older URL: its parameters by position')
  t.same(seen.at(-1), { id: 7, n: 2 }, 'the handler gets the newest names')
  const [status, problem] = await get('/api/bills/7/items/2', '2.0')
  t.equal(status, 400, 'the older URL with a newer version: an endpoint that version lacks')
  t.match(problem.type, /#unsupported$/)
  t.equal((await get('/api/orders/7/lines/2', '1.0'))[0], 400, 'the newer URL with an older version, too')
  t.equal((await get('/api/bills/x/items/2', '1.0'))[0], 400, "the older URL's parameters validated as the newest's")
  t.same(Object.keys(operations(documentOf(app, '1.0'))), ['GET /api/bills/{bill}/items/{n}'], "each version's document shows its own URL")
  t.same(operations(documentOf(app, '1.0'))['GET /api/bills/{bill}/items/{n}'].parameters.map((p: { name: string }) => p.name).filter((name: string) => name !== 'api-version'), ['bill', 'n'])
  t.same(Object.keys(operations(documentOf(app, '2.0'))), ['GET /api/orders/{id}/lines/{n}'])
  t.same(await allProblems(app), [])
})

t.test('parameters matched by name where the older URL has the same names', async t => {
  const { get } = await service(moved('/api/lines/:n/of/:id'))
  t.same(await get('/api/lines/2/of/7', '1.0'), [200, { line: { id: 7, n: 2 } }])
})

t.test('a route of several methods, one of them moved; parameters without a schema, or a schema without required ones', async t => {
  const app = Fastify()
  const change = versionChange({ description: 'Things were stuff.', endpoints: [{ method: 'GET', url: '/things', changed: { url: '/stuff' } }, { method: 'GET', url: '/things/:id', changed: { url: '/stuff/:key' } }] })
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.route({ method: ['GET', 'POST'], url: '/things', versionChanges: true, handler: async request => request.method })
  app.get('/things/:id', { versionChanges: true, schema: { params: { type: 'object', properties: { id: { type: 'integer' }, other: { type: 'string' } } } } }, async request => request.params)
  await app.ready()
  const status = async (method: 'GET' | 'POST', url: string) => (await app.inject({ method, url: `${url}?api-version=1.0` })).statusCode
  t.same([await status('GET', '/stuff'), await status('POST', '/stuff'), await status('POST', '/things'), await status('GET', '/things')], [200, 404, 200, 400], 'only the method moved')
  t.same((await app.inject('/stuff/7?api-version=1.0')).json(), { id: 7 })
  const wrong = Fastify()
  await wrong.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/things', changed: { url: '/stuff/:id' } }] })] }, { version: '1.0' }] })
  t.throws(() => wrong.get('/things', { versionChanges: true }, async () => 'x'), {
    code: 'FST_API_VERSIONING_INVALID_DECLARATION',
    message: 'fastify-api-versioning: route GET /things: the change of 2.0, endpoints[0], says older versions served it at /stuff/:id, whose parameters (id) are not its own (none); give the older URL as many'
  })
})

t.test("at an older URL of other parameter names, the app's and the route scope's hooks from preParsing on see the route's names (an ownership check cannot be passed by the older URL)", async t => {
  const owners = new Map([[7, 'alice']])
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'Orders are at /orders/:orderId.', endpoints: [{ method: 'GET', url: '/api/orders/:orderId', changed: { url: '/api/order/:id' } }] })] }, { version: '1.0' }] })
  const seen: unknown[] = []
  app.addHook('preValidation', async request => { seen.push(request.params) })
  await app.register(async orders => {
    orders.addHook('preHandler', async (request, reply) => {
      const { orderId } = request.params as { orderId?: number }
      // As guards are often written: a route without the parameter passes.
      if (orderId !== undefined && owners.get(orderId) !== request.headers['x-user']) return await reply.code(403).send({ error: 'not your order' })
    })
    orders.get('/orders/:orderId', { versionChanges: true, schema: { params: Type.Object({ orderId: Type.Integer() }) } }, async request => request.params)
  }, { prefix: '/api' })
  await app.ready()
  for (const [version, url] of [['2.0', '/api/orders/7'], ['1.0', '/api/order/7']]) {
    t.equal((await app.inject({ url: `${url}?api-version=${version}`, headers: { 'x-user': 'mallory' } })).statusCode, 403, `${version}: refused`)
    t.same((await app.inject({ url: `${url}?api-version=${version}`, headers: { 'x-user': 'alice' } })).json(), { orderId: 7 }, `${version}: served`)
  }
  t.same(seen, [{ orderId: '7' }, { orderId: '7' }, { orderId: '7' }, { orderId: '7' }], "the app's preValidation hook, before Fastify's validation, sees the route's names")
  t.equal((await app.inject('/api/order/x?api-version=1.0')).statusCode, 400, "validated with the route's schema")
})

t.test("a wildcard route at an older URL: the handler gets its '*' as the route's own", async t => {
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'Files are at /files/* (they were at /docs/:kind/*).', endpoints: [{ method: 'GET', url: '/files/:type/*', changed: { url: '/docs/:kind/*' } }] })] }, { version: '1.0' }] })
  app.get('/files/:type/*', { versionChanges: true }, async request => request.params)
  await app.ready()
  t.same((await app.inject('/docs/pdf/reports/2024.pdf?api-version=1.0')).json(), { '*': 'reports/2024.pdf', type: 'pdf' })
  t.same((await app.inject('/files/pdf/reports/2024.pdf?api-version=2.0')).json(), { type: 'pdf', '*': 'reports/2024.pdf' })
  const wrong = Fastify()
  await wrong.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/files/*', changed: { url: '/docs' } }] })] }, { version: '1.0' }] })
  t.throws(() => wrong.get('/files/*', { versionChanges: true }, async () => 'x'), { message: /says older versions served it at \/docs, whose parameters \(none\) are not its own \(\*\); give the older URL as many/ })
})

t.test('a URL change is checked: a URL, parameters that fit, no route already there', async t => {
  t.throws(() => versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/a', changed: { url: 'b' } }] }), { message: /endpoints\[0\]\.changed\.url must be the URL older versions served the endpoint at, prefix included, such as '\/bills\/:id'/ })
  await t.rejects(service(moved('/api/bills/:bill')), { message: /route GET \/api\/orders\/:id\/lines\/:n: the change of 2\.0, endpoints\[0\], says older versions served it at \/api\/bills\/:bill, whose parameters \(bill\) are not its own \(id, n\)/ })
  await t.rejects(service(moved('/elsewhere/:id/:n')), { message: /the change of 2\.0, endpoints\[0\], says older versions served it at \/elsewhere\/:id\/:n, which is not under the prefix \/api of its route/ })
  // A route where the older URL is, in those versions too (nothing says it was added later), in either order.
  for (const order of [['/stuff', '/things'], ['/things', '/stuff']]) {
    const taken = Fastify()
    await taken.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/things', changed: { url: '/stuff' } }] })] }, { version: '1.0' }] })
    t.throws(() => { for (const url of order) taken.get(url, { versionChanges: true }, async () => url) }, {
      code: 'FST_API_VERSIONING_INVALID_OPTION',
      message: "fastify-api-versioning: versionChanges: the change of 2.0, endpoints[0], moved GET /things off /stuff, where older versions served it; GET /stuff is another endpoint, which cannot be in those versions too: say in which version it was added (endpoints: [{ method: 'GET', url: '/stuff', added: true }]), or declare it at another URL"
    }, `refused, naming the move and the fix (${order.join(' then ')})`)
  }
  // An ordinary route of the app at the older URL, of the versions it served there.
  const ordinary = Fastify()
  await ordinary.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/things', changed: { url: '/stuff' } }] })] }, { version: '1.0' }] })
  ordinary.get('/stuff', { apiVersions: ['1.0'] }, async () => 'stuff')
  t.throws(() => ordinary.get('/things', { versionChanges: true }, async () => 'things'), {
    code: 'FST_API_VERSIONING_ROUTE_CONFLICT',
    message: 'fastify-api-versioning: route GET /things: the change of 2.0, endpoints[0], says older versions served it at /stuff, where it cannot be declared: route GET /stuff declares API version 1.0, which another GET /stuff route already declares'
  }, 'a route where the older URL is: refused, naming the instruction')
  const removedOnly = Fastify()
  await removedOnly.register(apiVersioning, { versionChanges: [{ version: '3.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/stuff', removed: true }] })] }, { version: '2.0', changes: [versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/things', changed: { url: '/stuff' } }] })] }, { version: '1.0' }] })
  t.throws(() => removedOnly.get('/stuff', { versionChanges: true }, async () => 'stuff'), { message: /the change of 2\.0, endpoints\[0\], moved GET \/things off \/stuff.*say in which version it was added/ }, 'one said to be removed later, never added')
  const list = resolveVersionList([{ version: '2.0', changes: [versionChange({ description: 'x', endpoints: [moved()] })] }, { version: '1.0' }]) as NonNullable<ReturnType<typeof resolveVersionList>>
  t.same(versionsOfEndpoint(list, 'GET', '/api/orders/:id/lines/:n'), [true, false], 'the newer URL from the change on')
  t.same(versionsOfEndpoint(list, 'GET', '/api/bills/:bill/items/:n', 0), [false, true], 'the older one before it, for the route the change made there')
  t.throws(() => versionsOfEndpoint(list, 'GET', '/api/bills/:bill/items/:n'), { code: 'FST_API_VERSIONING_INVALID_OPTION' }, 'a route declared at the older URL is another endpoint, which cannot be where the moved one was')
})

t.test('a chain of moves: each version at the URL it had', async t => {
  const app = Fastify()
  await app.register(apiVersioning, {
    versionChanges: [
      { version: '3.0', changes: [versionChange({ description: 'Orders.', endpoints: [{ method: 'GET', url: '/orders/:id', changed: { url: '/bills/:id' } }] })] },
      { version: '2.0', changes: [versionChange({ description: 'Bills.', endpoints: [{ method: 'GET', url: '/bills/:id', changed: { url: '/invoices/:n' } }] })] },
      { version: '1.0' }
    ]
  })
  app.get('/orders/:id', { versionChanges: true }, async request => request.params)
  await app.ready()
  const status = async (url: string) => { const reply = await app.inject(url); return reply.statusCode === 200 ? reply.json() : reply.statusCode }
  t.same(await Promise.all(['/orders/1?api-version=3.0', '/bills/2?api-version=2.0', '/invoices/3?api-version=1.0'].map(status)), [{ id: '1' }, { id: '2' }, { id: '3' }])
  t.same(await Promise.all(['/orders/1?api-version=2.0', '/bills/2?api-version=1.0', '/bills/2?api-version=3.0', '/invoices/3?api-version=2.0'].map(status)), [400, 400, 400, 400])
})

t.test("a moved endpoint's other instructions and route migrations, named as declared or by the URL of their time, run at each of its older URLs", async t => {
  // 3.0 moved orders from /bills (2.0), which 2.0 had moved from /invoices; 2.0 answered 200 (now 201), sent a count as text, got a legacy flag.
  async function service (older: string, newer: string) {
    const seen: unknown[] = []
    const app = Fastify()
    await app.register(apiVersioning, {
      versionChanges: [
        {
          version: '3.0',
          changes: [versionChange({
            description: 'Orders are placed at /orders, answered 201, with a count of a number.',
            endpoints: [{ method: 'POST', url: '/orders', changed: { url: '/bills' } }, { method: 'POST', url: newer, changed: { status: 200, summary: 'Place a bill' } }],
            requests: [{ route: `POST ${newer}`, migrate: request => { (request.body as { count: unknown }).count = Number((request.body as { count: unknown }).count) } }],
            responses: [{ route: `POST ${newer}`, migrate: response => { (response.body as { legacy?: boolean }).legacy = true } }]
          })]
        },
        {
          version: '2.0',
          changes: [versionChange({
            description: 'Bills.',
            endpoints: [{ method: 'POST', url: '/bills', changed: { url: '/invoices' } }, { method: 'POST', url: older, changed: { summary: 'Place an invoice' } }, { method: 'POST', url: older, deprecated: { link: 'https://example.com/bills' } }],
            responses: [{ route: `POST ${older}`, migrate: response => { (response.body as { old?: boolean }).old = true } }]
          })]
        },
        { version: '1.0' }
      ]
    })
    await app.register(apiVersioningOpenApi, {})
    app.post('/orders', { versionChanges: true, schema: { summary: 'Place an order', response: { 201: Type.Object({ count: Type.Number() }, { additionalProperties: true }) } } }, async (request, reply) => {
      seen.push(request.body)
      return reply.code(201).send({ count: (request.body as { count: number }).count })
    })
    await app.ready()
    const post = async (url: string, version: string, count: unknown) => {
      const reply = await app.inject({ method: 'POST', url: `${url}?api-version=${version}`, payload: { count } })
      return [reply.statusCode, reply.json(), reply.headers.link ?? null]
    }
    return { app, post, seen }
  }
  for (const [form, older, newer] of [['as declared', '/orders', '/orders'], ['by the URL of their time', '/invoices', '/bills']]) {
    const { app, post, seen } = await service(older, newer)
    const link = '<https://example.com/bills>; rel="deprecation"'
    t.same(await post('/orders', '3.0', 5), [201, { count: 5 }, link], form)
    t.same(await post('/bills', '2.0', '5'), [200, { count: 5, legacy: true }, link], `${form}: 2.0 at /bills`)
    t.same(await post('/invoices', '1.0', '5'), [200, { count: 5, legacy: true, old: true }, null], `${form}: 1.0 at /invoices`)
    t.same(seen, [{ count: 5 }, { count: 5 }, { count: 5 }], `${form}: the handler gets the newest's body`)
    const summaries = ['3.0', '2.0', '1.0'].map(version => Object.values(operations(documentOf(app, version))).map(operation => [operation.summary, operation.deprecated ?? false, Object.keys(operation.responses).filter(status => status.startsWith('2'))]))
    t.same(summaries, [[['Place an order', true, ['201']]], [['Place a bill', true, ['200']]], [['Place an invoice', false, ['200']]]], `${form}: each version's document`)
  }
  // An instruction naming a URL the endpoint had in neither version of its change names no endpoint.
  await t.rejects(service('/invoices', '/invoices'), /the change of 3\.0, requests\[0\], names the route POST \/invoices, which no route declared with versionChanges: true is/)
})

t.test("a moved GET's HEAD route is named by either URL, as the GET is, unless the move lists HEAD itself", async t => {
  for (const name of ['/bills', '/orders']) {
    const app = Fastify()
    await app.register(apiVersioning, {
      versionChanges: [
        {
          version: '2.0',
          changes: [versionChange({
            description: 'Orders.',
            endpoints: [{ method: 'GET', url: '/orders', changed: { url: '/bills' } }],
            responses: [{ route: `HEAD ${name}`, migrate: response => { response.headers['x-head'] = 'old' } }]
          })]
        },
        { version: '1.0' }
      ]
    })
    app.get('/orders', { versionChanges: true }, async () => ({ ok: true }))
    const head = async (url: string, version: string) => (await app.inject({ method: 'HEAD', url: `${url}?api-version=${version}` })).headers['x-head'] ?? null
    t.same([await head('/bills', '1.0'), await head('/orders', '2.0')], ['old', null], name)
    t.equal((await app.inject('/bills?api-version=1.0')).headers['x-head'], undefined, `${name}: the GET is another route`)
  }
})

t.test('a URL an endpoint moved off, given to another endpoint later or in the same version: each route serves its own versions there', async t => {
  // 2.0 moved the orders list to /purchases; a new endpoint took /orders in `newAt` (3.0, or 2.0 itself).
  const build = async (newAt: '3.0' | '2.0') => {
    const app = Fastify()
    const added: EndpointInstruction[] = [{ method: 'GET', url: '/orders', added: true }, { method: 'GET', url: '/orders', deprecated: { link: 'https://example.com/orders' } }]
    const moves: EndpointInstruction[] = [{ method: 'GET', url: '/purchases', changed: { url: '/orders' } }]
    await app.register(apiVersioning, {
      versionChanges: [
        { version: '3.0', changes: newAt === '3.0' ? [versionChange({ description: 'New orders.', endpoints: added })] : [] },
        { version: '2.0', changes: [versionChange({ description: 'Purchases.', endpoints: newAt === '2.0' ? [...moves, ...added] : moves })] },
        { version: '1.0' }
      ]
    })
    await app.register(apiVersioningOpenApi, {})
    app.get('/purchases', { versionChanges: true }, async () => 'purchases')
    app.get('/orders', { versionChanges: true }, async () => 'orders')
    await app.ready()
    const answer = async (url: string, version: string) => {
      const reply = await app.inject(`${url}?api-version=${version}`)
      return reply.statusCode === 200 ? `${reply.body}${reply.headers.link === undefined ? '' : ' (deprecated)'}` : reply.statusCode
    }
    return { app, answer }
  }
  const later = await build('3.0')
  t.same(await Promise.all([['/orders', '3.0'], ['/orders', '2.0'], ['/orders', '1.0'], ['/purchases', '3.0'], ['/purchases', '2.0'], ['/purchases', '1.0']].map(([url, version]) => later.answer(url, version))),
    ['orders (deprecated)', 400, 'purchases', 'purchases', 'purchases', 400])
  t.same(Object.keys(operations(documentOf(later.app, '1.0'))), ['GET /orders'])
  t.same(operations(documentOf(later.app, '3.0'))['GET /orders'].deprecated, true)
  t.same(await allProblems(later.app), [])
  const same = await build('2.0')
  t.same(await Promise.all([['/orders', '3.0'], ['/orders', '2.0'], ['/orders', '1.0'], ['/purchases', '2.0'], ['/purchases', '1.0']].map(([url, version]) => same.answer(url, version))),
    ['orders (deprecated)', 'orders (deprecated)', 'purchases', 'purchases', 400])
})

t.test('a URL an endpoint moved off, another endpoint moved onto; an endpoint moved back; two that swap URLs: each version served by its own', async t => {
  const serve = async (versions: Array<[string, EndpointInstruction[]]>, urls: string[], asked: Array<[string, string]>) => {
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: versions.map(([version, endpoints]) => ({ version, changes: endpoints.length === 0 ? [] : [versionChange({ description: 'Moves.', endpoints })] })) })
    for (const url of urls) app.get(url, { versionChanges: true }, async () => url)
    await app.ready()
    return await Promise.all(asked.map(async ([url, version]) => { const reply = await app.inject(`${url}?api-version=${version}`); return reply.statusCode === 200 ? reply.body : reply.statusCode }))
  }
  const moveA: EndpointInstruction = { method: 'GET', url: '/purchases', changed: { url: '/orders' } }
  const moveB: EndpointInstruction = { method: 'GET', url: '/orders', changed: { url: '/old' } }
  t.same(await serve([['3.0', [moveB]], ['2.0', [moveA]], ['1.0', []]], ['/purchases', '/orders'], [['/orders', '3.0'], ['/old', '2.0'], ['/old', '1.0'], ['/orders', '1.0'], ['/orders', '2.0'], ['/purchases', '2.0']]),
    ['/orders', '/orders', '/orders', '/purchases', 400, '/purchases'], 'moved onto in a later version')
  t.same(await serve([['2.0', [moveA, moveB]], ['1.0', []]], ['/purchases', '/orders'], [['/orders', '2.0'], ['/old', '1.0'], ['/orders', '1.0'], ['/purchases', '2.0']]),
    ['/orders', '/orders', '/purchases', '/purchases'], 'in the same version')
  t.same(await serve([['3.0', [{ method: 'GET', url: '/a', changed: { url: '/b' } }]], ['2.0', [{ method: 'GET', url: '/b', changed: { url: '/a' } }]], ['1.0', []]], ['/a'], [['/a', '3.0'], ['/b', '2.0'], ['/a', '1.0'], ['/a', '2.0'], ['/b', '1.0']]),
    ['/a', '/a', '/a', 400, 400], 'moved back to a URL it had')
  t.same(await serve([['2.0', [{ method: 'GET', url: '/a', changed: { url: '/b' } }, { method: 'GET', url: '/b', changed: { url: '/a' } }]], ['1.0', []]], ['/a', '/b'], [['/a', '2.0'], ['/b', '1.0'], ['/b', '2.0'], ['/a', '1.0']]),
    ['/a', '/a', '/b', '/b'], 'two endpoints that swap URLs')
})
