import t from 'tap'
import Fastify, { type FastifyReply } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type VersionChange } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { allProblems, documentOf, operations } from './openapi-helpers.js'

// POST /orders answers 201 from 2.0 on; 1.0 answered 200.
const Order = Type.Object({ id: Type.Integer(), total: Type.Number() })
const created = versionChange({ description: 'A new order is 201 Created (it was 200).', endpoints: [{ method: 'POST', url: '/orders', changed: { status: 200 } }] })

async function service (changes: VersionChange[] = [created], response: Record<string, unknown> = { 201: Order, 400: Type.Object({ message: Type.String() }) }) {
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '3.0' }, { version: '2.0', changes }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, {})
  app.post('/orders', { versionChanges: true, schema: { body: Type.Object({ total: Type.Number() }), response } }, async (request, reply) => {
    const { total } = request.body as { total: number }
    if (total < 0) return reply.code(400).send({ message: 'a total is not negative', extra: 1 })
    return reply.code(201).send({ id: 7, total, extra: 1 })
  })
  await app.ready()
  const post = async (version: string, total = 12.5) => {
    const reply = await app.inject({ method: 'POST', url: `/orders?api-version=${version}`, payload: { total } })
    return [reply.statusCode, reply.json()] as const
  }
  return { app, post }
}

t.test("an endpoint's success status in older versions: converted on their responses, and shown in their documents", async t => {
  const { app, post } = await service()
  t.same(await post('3.0'), [201, { id: 7, total: 12.5 }])
  t.same(await post('2.0'), [201, { id: 7, total: 12.5 }], 'from the version that changed it on')
  t.same(await post('1.0'), [200, { id: 7, total: 12.5 }], "older versions: their status, written with that status's schema")
  t.same(await post('1.0', -1), [400, { message: 'a total is not negative' }], 'an error keeps its status')
  const statuses = (version: string) => Object.keys(operations(documentOf(app, version))['POST /orders'].responses)
  t.same(statuses('2.0').filter(status => status.startsWith('2')), ['201'])
  t.same(statuses('1.0').filter(status => status.startsWith('2')), ['200'])
  t.same(app.apiVersionChanges()[0].changed[0].changes.filter(line => /20[01]/.test(line)), ['response 200 removed', 'response 201 added'])
  t.same(await allProblems(app), [])
})

t.test("a status change that cannot be said of the route's schema fails at start-up, and one that is not a success status where the change is made", async t => {
  await t.rejects(service([created], { 200: Order, 201: Type.Object({ id: Type.Integer() }) }), {
    code: 'FST_API_VERSIONING_INVALID_DECLARATION',
    message: 'fastify-api-versioning: route POST /orders: the change of 2.0, endpoints[0], says older versions answered 200, but the route declares several success responses (200, 201) with other schemas, which one status cannot hold; declare one, or give them one schema'
  })
  for (const status of [199, 300, 200.5, '200']) {
    t.throws(() => versionChange({ description: 'x', endpoints: [{ method: 'POST', url: '/orders', changed: { status } as never }] }), { code: 'FST_API_VERSIONING_INVALID_OPTION', message: /endpoints\[0\]\.changed\.status must be a success status, an integer from 200 to 299/ }, String(status))
  }
  const { post } = await service([created], { 201: Order })
  t.same(await post('1.0'), [200, { id: 7, total: 12.5 }], 'a route of one success response')
  const { post: unwritten } = await service([created], {})
  t.same(await unwritten('1.0'), [200, { id: 7, total: 12.5, extra: 1 }], 'a route without response schemas: its status alone')
})

t.test('a field renamed in a version older than a status change is converted on the responses of the versions before it', async t => {
  const renamed = versionChange({ description: "An order's 'total' (it was 'amount').", fields: [{ schema: Order, field: 'total', renamedFrom: 'amount' }] })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '3.0', changes: [created] }, { version: '2.0', changes: [renamed] }, { version: '1.0' }] })
  app.post('/orders', { versionChanges: true, schema: { response: { 201: Order } } }, async (request, reply) => reply.code(201).send({ id: 7, total: 12.5 }))
  await app.ready()
  const post = async (version: string) => {
    const reply = await app.inject({ method: 'POST', url: `/orders?api-version=${version}` })
    return [reply.statusCode, reply.json()] as const
  }
  t.same(await post('2.0'), [200, { id: 7, total: 12.5 }])
  t.same(await post('1.0'), [200, { id: 7, amount: 12.5 }], 'renamed, under the status 2.0 answers')
})

t.test("a migration that answers another status with that status's body: the same change's renames read it at the status it answers", async t => {
  // 2.0 answers a missing thing 404 { code }; 1.0 answered 410 { why }, which 2.0 calls `reason`.
  for (const optional of [false, true]) {
    const NotFound = Type.Object({ code: Type.String() })
    const Gone = Type.Object({ reason: optional ? Type.Optional(Type.String()) : Type.String() })
    const change = versionChange({
      description: 'A missing thing is a 404 { code } (it was a 410 { why }).',
      fields: [{ schema: Gone, field: 'reason', renamedFrom: 'why' }],
      responses: [{ route: 'GET /things/:id', errors: true, migrate: response => { if (response.statusCode === 404) { response.statusCode = 410; return { reason: (response.body as { code: string }).code } } } }]
    })
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
    app.get('/things/:id', { versionChanges: true, schema: { response: { 404: NotFound, 410: Gone } } }, async (request, reply) => {
      return (request.params as { id: string }).id === 'deleted' ? reply.code(410).send({ reason: 'deleted' }) : reply.code(404).send({ code: 'missing' })
    })
    await app.ready()
    const get = async (id: string, version: string) => {
      const reply = await app.inject(`/things/${id}?api-version=${version}`)
      return [reply.statusCode, reply.json()]
    }
    t.same(await get('missing', '1.0'), [410, { why: 'missing' }], optional ? 'optional: not an empty body' : 'required: not a 500')
    t.same(await get('deleted', '1.0'), [410, { why: 'deleted' }])
    t.same(await get('missing', '2.0'), [404, { code: 'missing' }])
  }
})

t.test('a status change moves the success responses the route declares, never a 204 (it has no content), nor an undeclared success status', async t => {
  const app = Fastify()
  const endpoints = ['/orders', '/carts', '/bare'].map(url => ({ method: 'POST', url, changed: { status: 200 } }) as const)
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'A new order is 201 Created (it was 200).', endpoints })] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, {})
  const answer = async (request: { body: unknown }, reply: FastifyReply) => {
    const { mode } = request.body as { mode: string }
    if (mode === 'none') return reply.code(204).send()
    if (mode === 'later') return reply.code(202).send({ queued: true })
    return reply.code(201).send({ id: 7, total: 1 })
  }
  app.post('/orders', { versionChanges: true, schema: { body: Type.Object({ mode: Type.String() }), response: { 201: Order } } }, answer)
  app.post('/carts', { versionChanges: true, schema: { body: Type.Object({ mode: Type.String() }), response: { 201: Order, 204: Type.Null() } } }, answer)
  app.post('/bare', { versionChanges: true, schema: { body: Type.Object({ mode: Type.String() }) } }, answer)
  await app.ready()
  const post = async (url: string, mode: string) => {
    const reply = await app.inject({ method: 'POST', url: `${url}?api-version=1.0`, payload: { mode } })
    return [reply.statusCode, reply.body] as const
  }
  t.same(await post('/orders', 'create'), [200, '{"id":7,"total":1}'])
  t.same(await post('/orders', 'none'), [204, ''], 'an undeclared 204')
  t.same(await post('/orders', 'later'), [202, '{"queued":true}'], 'an undeclared 202')
  t.same(await post('/carts', 'none'), [204, ''], 'a declared 204')
  t.same(await post('/carts', 'create'), [200, '{"id":7,"total":1}'])
  t.same(await post('/bare', 'none'), [204, ''], 'a route without response schemas')
  t.same(await post('/bare', 'create'), [200, '{"id":7,"total":1}'])
  const statuses = (route: string) => Object.keys(operations(documentOf(app, '1.0'))[route].responses).filter(status => status.startsWith('2'))
  t.same(statuses('POST /carts'), ['200', '204'])
})
