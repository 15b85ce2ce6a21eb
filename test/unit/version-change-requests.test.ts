import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange } from '../../lib/index.js'
import { logged } from './helpers.js'

// A request of an older version reaches the handler as the newest version says, or not at all.

const Page = Type.Object({ pageSize: Type.Optional(Type.Integer()), q: Type.Optional(Type.String()) })
const renamed = versionChange({ description: "Pages have a 'pageSize' (it was 'size').", fields: [{ schema: Page, field: 'pageSize', renamedFrom: 'size' }] })

async function pages (options: object = {}) {
  const seen: unknown[] = []
  const app = Fastify(options)
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [renamed] }, { version: '1.0' }] })
  app.get('/pages', { versionChanges: true, schema: { querystring: Page } }, async request => { seen.push({ ...request.query as object }); return 'ok' })
  app.post('/pages', { versionChanges: true, schema: { body: Page } }, async request => { seen.push(request.body); return 'ok' })
  return { app, seen }
}

t.test("an older client's query and body: renamed up and coerced; a field's newer name is one its version lacks, dropped", async t => {
  const { app, seen } = await pages()
  await app.inject('/pages?api-version=1.0&size=5')
  await app.inject('/pages?api-version=1.0&pageSize=5')
  await app.inject('/pages?api-version=2.0&pageSize=5')
  t.same(seen.splice(0), [{ 'api-version': '1.0', pageSize: 5 }, { 'api-version': '1.0' }, { 'api-version': '2.0', pageSize: 5 }])
  await app.inject({ method: 'POST', url: '/pages?api-version=1.0', payload: { pageSize: 9, q: 'x' } })
  t.same(seen.splice(0), [{ q: 'x' }], 'in a body too')
})

t.test("both a field's older and newer names: the older one wins, whatever their order", async t => {
  const { app, seen } = await pages()
  await app.inject('/pages?api-version=1.0&size=5&pageSize=7')
  await app.inject('/pages?api-version=1.0&pageSize=7&size=5')
  await app.inject({ method: 'POST', url: '/pages?api-version=1.0', payload: { pageSize: 7, size: 5 } })
  await app.inject({ method: 'POST', url: '/pages?api-version=1.0', payload: { size: 5, pageSize: 7 } })
  t.same(seen, [{ 'api-version': '1.0', pageSize: 5 }, { 'api-version': '1.0', pageSize: 5 }, { pageSize: 5 }, { pageSize: 5 }])
})

t.test('an own __proto__ key stays data: it never becomes the prototype of what the handler gets', async t => {
  const Open = Type.Object({ pageSize: Type.Optional(Type.Integer()) }, { additionalProperties: true })
  const change = versionChange({ description: 'x', fields: [{ schema: Open, field: 'pageSize', renamedFrom: 'size' }] })
  const app = Fastify({ onProtoPoisoning: 'ignore' })
  let body: Record<string, unknown> = {}
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.post('/open', { versionChanges: true, schema: { body: Open } }, async request => { body = request.body as Record<string, unknown>; return 'ok' })
  await app.inject({ method: 'POST', url: '/open?api-version=1.0', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"polluted":true},"size":5}' })
  t.equal(Object.getPrototypeOf(body), Object.prototype)
  t.equal(body.polluted, undefined)
  t.same(Object.getOwnPropertyDescriptor(body, '__proto__')?.value, { polluted: true }, 'an own property, as the client sent it')
  t.equal(body.pageSize, 5)
})

t.test("a migration that leaves a request unlike the newest version's schema is a 500 naming the instructions, never the handler's surprise", async t => {
  const Order = Type.Object({ total: Type.Number(), note: Type.String({ default: 'none' }) })
  const change = versionChange({
    description: 'Totals are numbers (they were texts).',
    fields: [{ schema: Order, field: 'total', changed: { schema: { type: 'string' } } }],
    requests: [{ schema: Order, migrate: request => { const body = request.body as { total: string }; if (body.total !== 'keep') body.total = body.total.replace(',', '.') } }],
    responses: [{ schema: Order, migrate: () => {} }]
  })
  const log = logged()
  const app = Fastify({ logger: { level: 'error', stream: log.stream } })
  const seen: unknown[] = []
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.post('/orders', { versionChanges: true, schema: { body: Order, querystring: Type.Object({ dry: Type.Optional(Type.Boolean()) }, { additionalProperties: false }) } }, async request => { seen.push([request.body, request.query]); return 'ok' })
  t.equal((await app.inject({ method: 'POST', url: '/orders?api-version=1.0&dry=true', payload: { total: '2,5' } })).statusCode, 200)
  t.same(seen, [[{ total: 2.5, note: 'none' }, { 'api-version': '1.0', dry: true }]], 'coerced and completed as the newest schema says; the version parameter kept')
  const res = await app.inject({ method: 'POST', url: '/orders?api-version=1.0', payload: { total: 'keep' } })
  t.equal(res.statusCode, 500)
  t.equal(res.json().code, 'FST_API_VERSIONING_CONVERSION_FAILED')
  t.match(res.json().message, /the request of POST \/orders for version 1\.0, converted up to 2\.0, does not fit the body schema of 2\.0 \(body\/total must be number\); one of these leaves it so: the change of 2\.0, requests\[0\], the change of 2\.0, fields\[0\]/)
  t.equal(seen.length, 1, 'the handler never saw it')
  t.equal(log.lines.filter(line => line.level === 50).length, 1, 'logged')
})

t.test("a validator compiler's other answers, as Fastify takes them: { value }, { error }, a promise", async t => {
  const Order = Type.Object({ total: Type.Number() })
  const change = versionChange({
    description: 'x',
    fields: [{ schema: Order, field: 'total', changed: { schema: { type: 'string' } } }],
    requests: [{ schema: Order, migrate: request => { const body = request.body as { total: unknown }; body.total = Number(body.total) } }]
  })
  const answers: Record<string, (data: { total: unknown }) => unknown> = {
    value: data => ({ value: { ...data, checked: true } }),
    error: data => typeof data.total === 'number' ? { error: new Error('totals must be texts') } : { value: data },
    // @fastify/type-provider-typebox's TypeBoxValidatorCompiler: a list.
    errors: data => typeof data.total === 'number' ? { error: [{ message: 'Expected string', instancePath: '/total' }] } : { value: data },
    promise: data => Promise.resolve(typeof data.total === 'number' && data.total > 0),
    rejected: data => typeof data.total === 'number' ? Promise.reject(new Error('no')) : Promise.resolve(true)
  }
  for (const [kind, answer] of Object.entries(answers)) {
    const app = Fastify()
    const seen: unknown[] = []
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
    app.post('/orders', { versionChanges: true, schema: { body: Order }, validatorCompiler: () => answer as never }, async request => { seen.push(request.body); return 'ok' })
    const res = await app.inject({ method: 'POST', url: '/orders?api-version=1.0', payload: { total: '3' } })
    if (kind === 'value') t.same(seen, [{ total: 3, checked: true }], kind)
    if (kind === 'promise') t.same([res.statusCode, seen], [200, [{ total: 3 }]], kind)
    if (kind === 'error' || kind === 'rejected') t.match([res.statusCode, res.json().message], [500, kind === 'error' ? /body totals must be texts/ : /body no/], kind)
    if (kind === 'errors') t.match([res.statusCode, res.json().message], [500, /\(body\/total Expected string\)/], kind)
    const zero = await app.inject({ method: 'POST', url: '/orders?api-version=1.0', payload: { total: '0' } })
    if (kind === 'promise') t.match([zero.statusCode, zero.json().message], [500, /no reason given/])
  }
})

t.test('a changed field of one type, with no migration, is checked against the newest schema all the same: by an async validator too', async t => {
  const Note = Type.Object({ text: Type.String({ maxLength: 3 }) })
  const change = versionChange({ description: 'Notes are short.', fields: [{ schema: Note, field: 'text', changed: { schema: { type: 'string' } } }] })
  const app = Fastify()
  const seen: unknown[] = []
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  const validator = (schema: { properties?: { text?: { maxLength?: number } } }) => async (data: { text: string }) => data.text.length <= (schema.properties?.text?.maxLength ?? Infinity)
  app.post('/notes', { versionChanges: true, schema: { body: Note }, validatorCompiler: ({ schema }) => validator(schema as never) as never }, async request => { seen.push(request.body); return 'ok' })
  t.equal((await app.inject({ method: 'POST', url: '/notes?api-version=1.0', payload: { text: 'abc' } })).statusCode, 200)
  const long = await app.inject({ method: 'POST', url: '/notes?api-version=1.0', payload: { text: 'abcdef' } })
  t.same([long.statusCode, seen], [500, [{ text: 'abc' }]])
  t.match(long.json().message, /does not fit the body schema of 2\.0 \(no reason given\); one of these leaves it so: the change of 2\.0, fields\[0\]/)
})

t.test("a validator's errors that are no objects, and a migration that returns null for an object", async t => {
  const Order = Type.Object({ total: Type.Number() })
  const change = versionChange({
    description: 'x',
    fields: [{ schema: Order, field: 'total', changed: { schema: { type: 'string' } } }],
    requests: [{ schema: Order, migrate: request => (request.body as { total: string }).total === 'null' ? null : { total: Number((request.body as { total: string }).total) } }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  const compile = () => Object.assign((data: { total: unknown }) => typeof data.total === 'string' || data.total === 1, { errors: ['total is not one'] })
  app.post('/orders', { versionChanges: true, schema: { body: Order }, validatorCompiler: compile as never }, async () => 'ok')
  t.match((await app.inject({ method: 'POST', url: '/orders?api-version=1.0', payload: { total: '2' } })).json().message, /\(body total is not one\)/)
  t.match((await app.inject({ method: 'POST', url: '/orders?api-version=1.0', payload: { total: 'null' } })).json().message, /its migrate returned null, where the request body it converts is an object/)
})

t.test("a schema in a draft-07 tuple (TypeBox's Type.Tuple): each version validated, converted and written as its own", async t => {
  const Named = Type.Object({ name: Type.String() })
  const change = versionChange({ description: "'name' (it was 'title').", fields: [{ schema: Named, field: 'name', renamedFrom: 'title' }] })
  const Pair = Type.Object({ pair: Type.Tuple([Named, Type.String()]), single: Type.Optional(Named) })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  const seen: unknown[] = []
  app.get('/pair', { versionChanges: true, schema: { response: { 200: Pair } } }, async () => ({ pair: [{ name: 'a' }, 's'], single: { name: 'b' } }))
  app.post('/pair', { versionChanges: true, schema: { body: Pair } }, async request => { seen.push(request.body); return 'ok' })
  await app.ready()
  t.same((await app.inject('/pair?api-version=1.0')).json(), { pair: [{ title: 'a' }, 's'], single: { title: 'b' } })
  t.same((await app.inject('/pair?api-version=2.0')).json(), { pair: [{ name: 'a' }, 's'], single: { name: 'b' } })
  t.equal((await app.inject({ method: 'POST', url: '/pair?api-version=1.0', payload: { pair: [{ title: 'a' }, 's'] } })).statusCode, 200)
  t.same(seen, [{ pair: [{ name: 'a' }, 's'] }], 'converted up')
  t.equal((await app.inject({ method: 'POST', url: '/pair?api-version=1.0', payload: { pair: [{ name: 'a' }, 's'] } })).statusCode, 400, "validated by its version's schema")
})

t.test("a schema a route holds as TypeBox's Type.Optional (a copy of it) is converted, validated and written as the schema itself", async t => {
  const Address = Type.Object({ postcode: Type.String() })
  const Status = Type.Union([Type.Literal('open'), Type.Literal('shipped')])
  const change = versionChange({
    description: "'postcode' (it was 'zip'); 'shipped' (it was 'sent').",
    fields: [{ schema: Address, field: 'postcode', renamedFrom: 'zip' }],
    enums: [{ schema: Status, added: ['shipped'] }, { schema: Status, removed: ['sent'] }],
    responses: [{ schema: Status, migrate: response => { if (response.body === 'shipped') response.body = 'sent' } }],
    requests: [{ schema: Status, migrate: request => { if (request.body === 'sent') request.body = 'shipped' } }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  const seen: unknown[] = []
  app.get('/whole', { versionChanges: true, schema: { response: { 200: Type.Object({ address: Address, status: Status }) } } }, async () => ({ address: { postcode: 'P' }, status: 'shipped' }))
  app.get('/optional', { versionChanges: true, schema: { querystring: Type.Object({ status: Type.Optional(Status) }), response: { 200: Type.Object({ address: Type.Optional(Address), status: Type.Optional(Status) }) } } }, async request => {
    seen.push({ ...request.query as object })
    return { address: { postcode: 'P' }, status: 'shipped' }
  })
  await app.ready()
  t.same((await app.inject('/whole?api-version=1.0')).json(), { address: { zip: 'P' }, status: 'sent' })
  t.same((await app.inject('/optional?api-version=1.0&status=sent')).json(), { address: { zip: 'P' }, status: 'sent' })
  t.same(seen, [{ 'api-version': '1.0', status: 'shipped' }], "the version's enum, converted up")
  t.same((await app.inject('/optional?api-version=2.0')).json(), { address: { postcode: 'P' }, status: 'shipped' })
})
