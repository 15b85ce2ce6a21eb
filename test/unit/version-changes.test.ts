import t from 'tap'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type ApiVersioningOptions } from '../../lib/index.js'
import { logged, problem } from './helpers.js'

// One orders service, written for 2024-06-01, serving four versions from the changes that led to it.
const Line = Type.Object({ sku: Type.String(), quantity: Type.Integer() })
const Order = Type.Object({
  id: Type.Integer(),
  createdAt: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('shipped')]),
  total: Type.Number(),
  lines: Type.Array(Line)
}, { $id: 'Order' })
const NewOrder = Type.Object({ lines: Type.Array(Line), total: Type.Number(), note: Type.Optional(Type.String()) })
const ListQuery = Type.Object({ createdAfter: Type.Optional(Type.String()) })

const renames = versionChange({
  description: "Orders call their creation time 'createdAt' (it was 'created'), and a line's count 'quantity' (it was 'qty').",
  fields: [
    { schema: Order, field: 'createdAt', renamedFrom: 'created' },
    { schema: Line, field: 'quantity', renamedFrom: 'qty' },
    { schema: ListQuery, field: 'createdAfter', renamedFrom: 'since' }
  ]
})
const statuses = versionChange({
  description: 'Orders have a status; their lines have an endpoint of their own.',
  endpoints: [{ method: 'GET', url: '/orders/:id/lines', added: true }],
  fields: [{ schema: Order, field: 'status', added: true }]
})
const legacy = versionChange({
  description: "Orders no longer carry a 'legacy' code; a new order's note replaces it.",
  fields: [
    { schema: Order, field: 'legacy', removed: { schema: { type: 'string' }, required: true } },
    { schema: NewOrder, field: 'legacy', removed: { schema: { type: 'string' } } }
  ],
  requests: [{ route: 'POST /orders', migrate: request => { const body = request.body as Record<string, unknown>; if (body.legacy !== undefined) body.note = `legacy ${String(body.legacy)}` } }],
  responses: [{ schema: Order, migrate: async response => { (response.body as Record<string, unknown>).legacy = `L-${String((response.body as { id: number }).id)}` } }]
})
const cents = versionChange({
  description: 'Totals are numbers (they were texts such as "12.50").',
  endpoints: [{ method: 'DELETE', url: '/orders/:id', removed: true }],
  fields: [
    { schema: Order, field: 'total', changed: { schema: { type: 'string' } } },
    { schema: NewOrder, field: 'total', changed: { schema: { type: 'string' } } }
  ],
  requests: [{ schema: NewOrder, migrate: request => { const body = request.body as { total: unknown }; body.total = Number(body.total) } }],
  responses: [{ schema: Order, migrate: response => { const body = response.body as { total: unknown }; body.total = Number(body.total).toFixed(2) } }]
})

const VERSIONS: NonNullable<ApiVersioningOptions['versionChanges']> = [
  { version: '2024-06-01', changes: [renames] },
  { version: '2024-01-01', changes: [statuses, legacy] },
  { version: '2023-06-01', changes: [cents] },
  { version: '2023-01-01', deprecated: true }
]

const order = (id: number) => ({ id, createdAt: '2024-07-01', status: 'open', total: 12.5, lines: [{ sku: 'tea', quantity: 2 }] })

async function service (seen: unknown[] = [], server = Fastify(), watch: (app: FastifyInstance) => void = () => {}): Promise<FastifyInstance> {
  await server.register(apiVersioning, { problemDetails: true, reportApiVersions: true, versionChanges: VERSIONS })
  watch(server)
  server.get('/orders/:id', { versionChanges: true, schema: { response: { 200: Order } } }, async (request, reply) => {
    reply.header('x-served-as', String(request.apiVersion))
    return order(Number((request.params as { id: string }).id))
  })
  server.get('/orders', { versionChanges: true, schema: { querystring: ListQuery, response: { 200: Type.Array(Order) } } }, async request => {
    seen.push(request.query)
    return [order(1), order(2)]
  })
  server.post('/orders', { versionChanges: true, schema: { body: NewOrder, response: { 201: Order } } }, async (request, reply) => {
    seen.push(request.body)
    const body = request.body as { lines: Array<{ sku: string, quantity: number }>, total: number }
    return reply.code(201).send({ id: 3, createdAt: '2024-07-02', status: 'open', total: body.total, lines: body.lines })
  })
  server.get('/orders/:id/lines', { versionChanges: true, schema: { response: { 200: Type.Array(Line) } } }, async () => order(1).lines)
  server.delete('/orders/:id', { versionChanges: true }, async (request, reply) => reply.code(204).send())
  // An ordinary versioned route beside them.
  server.get('/health', { apiVersions: ['2024-06-01', '9.0'] }, async () => 'ok')
  await server.ready()
  return server
}

t.test('one handler serves every version: responses go down through each change, newest first', async t => {
  const app = await service()
  const get = async (version: string) => {
    const res = await app.inject(`/orders/7?api-version=${version}`)
    return [res.statusCode, res.json(), res.headers['x-served-as']]
  }
  t.same(await get('2024-06-01'), [200, order(7), '2024-06-01'], 'the newest: the handler\'s own')
  t.same(await get('2024-01-01'), [200, { id: 7, created: '2024-07-01', status: 'open', total: 12.5, lines: [{ sku: 'tea', qty: 2 }] }, '2024-01-01'], 'renamed, nested and in arrays too')
  t.same(await get('2023-06-01'), [200, { id: 7, created: '2024-07-01', total: 12.5, lines: [{ sku: 'tea', qty: 2 }], legacy: 'L-7' }, '2023-06-01'], 'no status; the removed field from a migration')
  t.same(await get('2023-01-01'), [200, { id: 7, created: '2024-07-01', total: '12.50', lines: [{ sku: 'tea', qty: 2 }], legacy: 'L-7' }, '2023-01-01'], 'a changed type, from a migration')
  t.same(await get('2024-01'), [400, problem('invalid'), undefined])
  t.same(await get('2022-01-01'), [400, problem('unsupported'), undefined])
  const res = await app.inject('/orders/7?api-version=2023-01-01')
  t.equal(res.headers['api-supported-versions'], '2023-06-01, 2024-01-01, 2024-06-01')
  t.equal(res.headers['api-deprecated-versions'], '2023-01-01', 'a version listed deprecated is reported so')
  const list = (await app.inject('/orders?api-version=2023-01-01')).json()
  t.same(list.map((o: Record<string, unknown>) => [o.created, o.total, o.legacy]), [['2024-07-01', '12.50', 'L-1'], ['2024-07-01', '12.50', 'L-2']], 'each object of an array')
  t.equal((await app.inject('/health?api-version=2024-06-01')).body, 'ok', 'ordinary versioned routes work beside')
  t.equal((await app.inject('/health?api-version=2024-01-01')).statusCode, 400)
})

t.test('requests go up through each change, oldest first, after validation against the client\'s version', async t => {
  const seen: unknown[] = []
  const app = await service(seen)
  const post = async (version: string, payload: unknown) => {
    const res = await app.inject({ method: 'POST', url: `/orders?api-version=${version}`, payload })
    return [res.statusCode, res.json()]
  }
  t.same(await post('2024-06-01', { lines: [{ sku: 'jam', quantity: 1 }], total: 3 }), [201, { id: 3, createdAt: '2024-07-02', status: 'open', total: 3, lines: [{ sku: 'jam', quantity: 1 }] }])
  t.same(await post('2024-01-01', { lines: [{ sku: 'jam', qty: 1 }], total: 3 }), [201, { id: 3, created: '2024-07-02', status: 'open', total: 3, lines: [{ sku: 'jam', qty: 1 }] }])
  t.same(await post('2023-06-01', { lines: [{ sku: 'jam', qty: 1 }], total: 3, legacy: 'X1' }), [201, { id: 3, created: '2024-07-02', total: 3, lines: [{ sku: 'jam', qty: 1 }], legacy: 'L-3' }])
  t.same(await post('2023-01-01', { lines: [{ sku: 'jam', qty: 4 }], total: '7.25' }), [201, { id: 3, created: '2024-07-02', total: '7.25', lines: [{ sku: 'jam', qty: 4 }], legacy: 'L-3' }])
  t.same(seen, [
    { lines: [{ sku: 'jam', quantity: 1 }], total: 3 },
    { lines: [{ sku: 'jam', quantity: 1 }], total: 3 },
    { lines: [{ sku: 'jam', quantity: 1 }], total: 3, note: 'legacy X1' },
    { lines: [{ sku: 'jam', quantity: 4 }], total: 7.25 }
  ], 'the handler sees the newest version only')
  // Validated against the client's version: its own names and types.
  t.equal((await post('2024-01-01', { lines: [{ sku: 'jam', quantity: 1 }], total: 3 }))[0], 400, 'the newest name is not the 2024-01-01 one')
  t.equal((await post('2023-01-01', { lines: [], total: { cents: 3 } }))[0], 400, '2023-01-01 takes a text total')
  t.equal((await post('2024-06-01', { lines: [], total: { cents: 3 } }))[0], 400, 'and the newest a number')
  t.equal((await post('2024-06-01', { lines: [], total: '3' }))[0], 201, 'Fastify coerces as it validates, as ever')

  seen.length = 0
  t.equal((await app.inject('/orders?api-version=2024-01-01&since=2024-05-01')).statusCode, 200)
  t.equal((await app.inject('/orders?api-version=2024-06-01&createdAfter=2024-05-01')).statusCode, 200)
  t.match(seen, [{ createdAfter: '2024-05-01' }, { createdAfter: '2024-05-01' }], 'a query string renamed too')
  t.notOk('since' in (seen[0] as object))
})

t.test('endpoints exist where their instructions say; elsewhere a version of theirs is Unsupported', async t => {
  const app = await service()
  const lines = await app.inject('/orders/7/lines?api-version=2023-06-01')
  t.same(lines.json(), problem('unsupported'), 'added in 2024-01-01')
  t.equal(lines.headers['api-supported-versions'], '2024-01-01, 2024-06-01', 'the versions where it is')
  t.same((await app.inject('/orders/7/lines?api-version=2024-01-01')).json(), [{ sku: 'tea', qty: 2 }])
  t.equal((await app.inject({ method: 'DELETE', url: '/orders/7?api-version=2023-01-01' })).statusCode, 204, 'removed in 2023-06-01: there before it')
  const gone = await app.inject({ method: 'DELETE', url: '/orders/7?api-version=2023-06-01' })
  t.same(gone.json(), problem('unsupported'))
  // The version headers are the path's, all its methods (GET /orders/:id is in every version).
  t.equal(gone.headers['api-deprecated-versions'], '2023-01-01')
  t.equal(gone.headers['api-supported-versions'], '2023-06-01, 2024-01-01, 2024-06-01')
})

t.test('the newest version runs no conversion code: one route a shape, the newest the app\'s own', async t => {
  // What each route of the router is, as the onRoute hooks after the plugin's see it.
  const routes: string[] = []
  const names = (hooks: unknown) => ([] as Array<{ name: string }>).concat((hooks ?? []) as never).map(hook => hook.name).filter(name => name.startsWith('apiVersion'))
  await service([], Fastify(), app => app.addHook('onRoute', route => {
    const options = route as unknown as Record<string, unknown>
    if (route.method !== 'HEAD' && (options.apiVersions !== undefined || options.deprecatedApiVersions !== undefined)) {
      routes.push(`${String(route.method)} ${route.url} ${JSON.stringify([options.apiVersions ?? null, options.deprecatedApiVersions ?? null])} ${[...names(route.preHandler), ...names(route.preSerialization)].join(' ')}`.trim())
    }
  }))
  t.same(routes.filter(route => route.startsWith('GET /orders/:id ') || route.startsWith('DELETE')).sort(), [
    'DELETE /orders/:id [null,["2023-01-01"]]',
    'GET /orders/:id [["2023-06-01"],null] apiVersionResponseChanges',
    'GET /orders/:id [["2024-01-01"],null] apiVersionResponseChanges',
    'GET /orders/:id [["2024-06-01"],null]',
    'GET /orders/:id [null,["2023-01-01"]] apiVersionResponseChanges'
  ], 'the newest is the app\'s route, without a hook of this stage')
  t.same(routes.filter(route => route.startsWith('GET /orders/:id/lines')), [
    'GET /orders/:id/lines [["2024-01-01"],null] apiVersionResponseChanges',
    'GET /orders/:id/lines [["2024-06-01"],null]'
  ])
  // Versions of one shape share a route: a route with no data has one route for all its versions.
  const bare = Fastify()
  await bare.register(apiVersioning, { versionChanges: VERSIONS.map(({ version, deprecated }) => ({ version, deprecated })) })
  const seen: string[] = []
  bare.addHook('onRoute', route => {
    const { apiVersions, deprecatedApiVersions } = route as { apiVersions?: unknown, deprecatedApiVersions?: unknown }
    if (route.method === 'GET' && (apiVersions ?? deprecatedApiVersions) !== undefined) seen.push(JSON.stringify([apiVersions ?? null, deprecatedApiVersions ?? null]))
  })
  bare.get('/ping', { versionChanges: true }, async () => 'pong')
  t.same(seen, ['[["2024-06-01","2024-01-01","2023-06-01"],["2023-01-01"]]'])
  t.same((await bare.inject('/ping?api-version=2023-01-01')).body, 'pong')
})

t.test('the route\'s own hooks see the newest version; request.apiVersion is the client\'s', async t => {
  const app = Fastify()
  const seen: unknown[] = []
  await app.register(apiVersioning, { versionChanges: [{ version: '2024-06-01', changes: [renames] }, { version: '2024-01-01' }] })
  app.post('/orders', {
    versionChanges: true,
    schema: { body: NewOrder, response: { 201: Order } },
    preHandler: async request => { seen.push(['preHandler', String(request.apiVersion), request.body]) },
    preSerialization: async (request, reply, payload) => { seen.push(['preSerialization', payload]); return payload }
  }, async (request, reply) => reply.code(201).send({ ...order(3), lines: (request.body as { lines: unknown }).lines }))
  const res = await app.inject({ method: 'POST', url: '/orders?api-version=2024-01-01', payload: { lines: [{ sku: 'a', qty: 1 }], total: 1 } })
  t.same(res.json().lines, [{ sku: 'a', qty: 1 }])
  t.same(seen, [
    ['preHandler', '2024-01-01', { lines: [{ sku: 'a', quantity: 1 }], total: 1 }],
    ['preSerialization', { ...order(3), lines: [{ sku: 'a', quantity: 1 }] }]
  ])
})
