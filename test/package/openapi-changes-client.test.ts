import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import type { OpenApiDocument } from '../../lib/openapi/index.js'
import { appWithPackage, root } from './packed.js'
import { problemsOf } from '../unit/openapi-helpers.js'

// A service written once for 3.0 that declares every kind of change a version change may (fields, enums, endpoint
// documentation, status, URL, deprecation and hiding, schema names, webhooks, a change of behaviour), run on the packed
// package: each version's document is valid, and the client generated from it has that version's types.
const SERVICE = `import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange } from 'fastify-api-versioning'
import apiVersioningOpenApi from 'fastify-api-versioning/openapi'

const Status = Type.Union([Type.Literal('open'), Type.Literal('shipped')])
const Order = Type.Object({ id: Type.Integer(), total: Type.Number(), status: Status }, { $id: 'Order' })
const NewOrder = Type.Object({ total: Type.Number() })
const Paid = Type.Object({ id: Type.Integer(), total: Type.Number() })

const v3 = versionChange({
  description: "Totals are 'total' (they were 'amount'); a status 'shipped' (it was 'sent'); exports are internal.",
  fields: [{ schema: Order, field: 'total', renamedFrom: 'amount' }, { schema: NewOrder, field: 'total', renamedFrom: 'amount' }, { schema: Paid, field: 'total', renamedFrom: 'amount' }],
  enums: [{ schema: Status, added: ['shipped'] }, { schema: Status, removed: ['sent'] }],
  responses: [{ schema: Order, migrate: response => { if (response.body.status === 'shipped') response.body.status = 'sent' } }],
  endpoints: [{ method: 'GET', url: '/exports', hidden: true }, { method: 'DELETE', url: '/orders/:id', deprecated: { date: '2026-01-01', link: 'https://example.com/kept' } }]
})
const v2 = versionChange({
  description: 'Orders are orders (they were bills); a new one is 201; paid orders are told.',
  schemas: [{ schema: 'Order', renamedFrom: 'Bill' }],
  endpoints: [{ method: 'POST', url: '/orders', changed: { status: 200, summary: 'Place a bill' } }, { method: 'GET', url: '/orders/:id', changed: { url: '/bills/:bill' } }],
  webhooks: [{ name: 'order.paid', added: true }]
})
const app = Fastify()
app.addSchema(Order)
await app.register(apiVersioning, {
  versionChanges: [{ version: '3.0', changes: [v3] }, { version: '2.0', changes: [v2] }, { version: '1.0' }],
  webhooks: { 'order.paid': { schema: Paid, description: 'An order was paid.' } },
  servedApiVersionHeader: 'api-version-served'
})
await app.register(apiVersioningOpenApi, { openapi: { openapi: '3.1.0', info: { title: 'Orders', version: 'x' } } })
const order = { id: 7, total: 12.5, status: 'shipped' }
app.get('/orders/:id', { versionChanges: true, schema: { operationId: 'getOrder', params: Type.Object({ id: Type.Integer() }), response: { 200: Type.Ref(Order) } } }, async () => order)
app.post('/orders', { versionChanges: true, schema: { operationId: 'placeOrder', summary: 'Place an order', body: NewOrder, response: { 201: Type.Ref(Order) } } }, async (request, reply) => reply.code(201).send({ ...order, total: request.body.total }))
app.delete('/orders/:id', { versionChanges: true, schema: { operationId: 'deleteOrder', params: Type.Object({ id: Type.Integer() }) } }, async (request, reply) => reply.code(204).send())
app.get('/exports', { versionChanges: true, schema: { operationId: 'exports' } }, async request => v3.isAppliedTo(request) ? 'new' : 'old')
await app.ready()
const got = async (method, url, payload) => {
  const reply = await app.inject({ method, url, payload })
  return { status: reply.statusCode, body: reply.body, served: reply.headers['api-version-served'], deprecation: reply.headers.deprecation }
}
console.log(JSON.stringify({
  documents: app.apiVersionDocuments(),
  changes: app.apiVersionChanges(),
  replies: {
    get1: await got('GET', '/bills/7?api-version=1.0'),
    get1new: await got('GET', '/orders/7?api-version=1.0'),
    post1: await got('POST', '/orders?api-version=1.0', { amount: 3 }),
    post3: await got('POST', '/orders?api-version=3.0', { total: 3 }),
    delete3: await got('DELETE', '/orders/7?api-version=3.0'),
    delete2: await got('DELETE', '/orders/7?api-version=2.0')
  },
  paid2: await app.convertToApiVersion({ webhook: 'order.paid', value: { id: 7, total: 12.5 }, version: '2.0' })
}))
await app.close()
`

// What each version's generated types must say, checked by tsc --strict: a type that differs fails to compile.
const CLIENT = `import type * as V1 from './generated/1.0.js'
import type * as V2 from './generated/2.0.js'
import type * as V3 from './generated/3.0.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
const expect = <T extends true>(): T => true as T
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never

// Each version's order: its field names and its status members, at its URL, its type named as that version names it.
expect<Equal<Json<V1.paths['/bills/{bill}']['get']['responses'][200]>, V1.components['schemas']['Bill']>>()
expect<Equal<V1.components['schemas']['Bill'], { id: number, amount: number, status: 'open' | 'sent' }>>()
expect<Equal<V2.components['schemas']['Order'], { id: number, amount: number, status: 'open' | 'sent' }>>()
expect<Equal<V1.paths['/bills/{bill}']['get']['parameters']['path'], { bill: number }>>()
expect<Equal<Json<V3.paths['/orders/{id}']['get']['responses'][200]>, V3.components['schemas']['Order']>>()
expect<Equal<V3.components['schemas']['Order'], { id: number, total: number, status: 'open' | 'shipped' }>>()
// A new order: 200 in 1.0, 201 from 2.0 on, its body in each version's names.
expect<Equal<Json<V1.paths['/orders']['post']['responses'][200]>, { id: number, amount: number, status: 'open' | 'sent' }>>()
expect<Equal<201 extends keyof V1.paths['/orders']['post']['responses'] ? true : false, false>>()
expect<Equal<200 extends keyof V2.paths['/orders']['post']['responses'] ? true : false, false>>()
expect<Equal<Json<V2.paths['/orders']['post']['responses'][201]>, { id: number, amount: number, status: 'open' | 'sent' }>>()
expect<Equal<Json<V1.paths['/orders']['post']['requestBody']>, { amount: number }>>()
// Hidden from 3.0 on: served, not documented.
expect<Equal<'/exports' extends keyof V2.paths ? true : false, true>>()
expect<Equal<'/exports' extends keyof V3.paths ? true : false, false>>()
// Webhooks: from 2.0 on, each version's payload.
expect<Equal<Json<V2.webhooks['order.paid']['post']['requestBody']>, { id: number, amount: number }>>()
expect<Equal<Json<V3.webhooks['order.paid']['post']['requestBody']>, { id: number, total: number }>>()
expect<Equal<keyof V1.webhooks, string>>()
`

interface Reply { status: number, body: string, served: string, deprecation?: string }

t.test('a service of every kind of change: each version\'s document valid, its generated client typed for that version, and served so', async t => {
  const { dir, link, write, node } = appWithPackage(t.teardown)
  for (const dep of ['fastify', 'fast-json-stringify', '@fastify/swagger', '@sinclair/typebox']) link(dep)
  write('service.mjs', SERVICE)
  const run = JSON.parse(node('service.mjs')) as { documents: Array<{ version: string, document: OpenApiDocument }>, changes: Array<{ to: string, descriptions: string[], hidden: string[], removed: string[] }>, replies: Record<string, Reply>, paid2: unknown }
  t.same(run.documents.map(d => d.version), ['1.0', '2.0', '3.0'])
  mkdirSync(join(dir, 'generated'))
  for (const { version, document } of run.documents) {
    t.same(await problemsOf(document), [], `${version}: a valid document`)
    writeFileSync(join(dir, 'generated', `${version}.ts`), astToString(await openapiTS(document as never)))
  }
  write('client.ts', CLIENT)
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', join(dir, 'client.ts')
  ], { cwd: dir, encoding: 'utf8', timeout: 900_000 })
  t.equal(tsc.stdout + tsc.stderr, '', 'tsc --noEmit --strict: each version\'s types as declared')

  const { replies } = run
  t.same([replies.get1.status, JSON.parse(replies.get1.body), replies.get1.served], [200, { id: 7, amount: 12.5, status: 'sent' }, '1.0'])
  t.equal(replies.get1new.status, 400, "1.0's order is at its own URL")
  t.same([replies.post1.status, JSON.parse(replies.post1.body)], [200, { id: 7, amount: 3, status: 'sent' }])
  t.same([replies.post3.status, JSON.parse(replies.post3.body)], [201, { id: 7, total: 3, status: 'shipped' }])
  t.same([replies.delete3.status, replies.delete3.deprecation, replies.delete2.deprecation], [204, `@${Date.UTC(2026, 0, 1) / 1000}`, undefined])
  t.same(run.paid2, { id: 7, amount: 12.5 })
  t.same(run.changes.map(c => [c.to, c.hidden, c.removed]), [['2.0', [], ['GET /bills/{bill}']], ['3.0', ['GET /exports'], []]], 'a URL moved: the older one removed for its clients; a hidden endpoint: not')
})
