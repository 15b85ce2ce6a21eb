import t from 'tap'
import { Ajv } from 'ajv'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type VersionChangesEntry } from '../../lib/index.js'
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import { trustBody } from '../../lib/version-changes/trusted-body.js'

// An older version's request is validated by its own schemas, then converted up; Fastify then validates the route's
// own schemas, the newest's. A body that conversion only renamed and dropped fields of is one that validation leaves
// as it is: it is validated once. Where the newest's validation may change it (a field's default), it runs.

const Line = Type.Object({ sku: Type.String(), quantity: Type.Integer() })
const NewOrder = Type.Object({ number: Type.String(), lines: Type.Array(Line) })
const renamed = versionChange({
  description: "Orders have a 'number' (it was 'ref'); lines a 'sku' (it was 'code').",
  fields: [{ schema: NewOrder, field: 'number', renamedFrom: 'ref' }, { schema: Line, field: 'sku', renamedFrom: 'code' }]
})

// Fastify's default Ajv options, counting each validation of the schemas named.
function countingCompiler (named: Map<object, string>, counted: string[]) {
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false })
  return ({ schema }: { schema: object }) => {
    const validate = ajv.compile(schema)
    const name = named.get(schema)
    if (name === undefined) return validate
    const counting = Object.assign((data: unknown) => {
      counted.push(name)
      const valid = validate(data)
      counting.errors = validate.errors
      return valid
    }, { errors: validate.errors })
    return counting
  }
}

async function app (list: VersionChangesEntry[], named: Map<object, string>, counted: string[], declare: (server: FastifyInstance, seen: unknown[]) => void): Promise<{ server: FastifyInstance, seen: unknown[] }> {
  const server = Fastify()
  server.setValidatorCompiler(countingCompiler(named, counted))
  await server.register(apiVersioning, { versionChanges: list })
  const seen: unknown[] = []
  declare(server, seen)
  await server.ready()
  return { server, seen }
}

const post = async (server: FastifyInstance, url: string, payload: unknown, type = 'application/json') =>
  await server.inject({ method: 'POST', url, payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': type } })

t.test('a body an older version validated and conversion renamed: not validated again as the newest', async t => {
  const counted: string[] = []
  const { server, seen } = await app([{ version: '2.0', changes: [renamed] }, { version: '1.0' }], new Map([[NewOrder, 'newest']]), counted, (server, seen) => {
    server.post('/orders', { versionChanges: true, schema: { body: NewOrder } }, async request => { seen.push(request.body); return 'ok' })
  })
  t.equal((await post(server, '/orders?api-version=1.0', { ref: 'A', lines: [{ code: 'x', quantity: '2' }], note: 'kept' })).statusCode, 200)
  t.same(seen.pop(), { number: 'A', lines: [{ sku: 'x', quantity: 2 }], note: 'kept' }, 'coerced by its own schema, renamed up, what no schema names kept')
  t.same(counted.splice(0), [], 'the newest schema validated nothing')
  t.equal((await post(server, '/orders?api-version=2.0', { number: 'B', lines: [] })).statusCode, 200)
  t.same(counted.splice(0), ['newest'], 'the newest version: validated by Fastify')
  const invalid = await post(server, '/orders?api-version=1.0', { number: 'C', lines: [] })
  t.same([invalid.statusCode, invalid.json().message], [400, "body must have required property 'ref'"], 'an older body that fails its own schema: its own error')
  t.same(counted.splice(0), [])
  // The newest's validation has its own answer for what it validates (a body of the newest version's).
  const newestInvalid = await post(server, '/orders?api-version=2.0', { number: 'D', lines: [{ sku: 'x', quantity: 'many' }] })
  t.same([newestInvalid.statusCode, newestInvalid.json().message], [400, 'body/lines/0/quantity must be integer'])
  t.same(counted.splice(0), ['newest'])
  const empty = await server.inject({ method: 'POST', url: '/orders?api-version=2.0' })
  t.same([empty.statusCode, empty.json().message], [400, 'body must be object'], 'no body (Fastify validates null): never passed for a trusted one')
  t.same(counted.splice(0), ['newest'])
})

t.test('a field the newest body added: its default given by the newest validation, which runs', async t => {
  const Order = Type.Object({ number: Type.String(), rush: Type.Optional(Type.Boolean({ default: false })) })
  const added = versionChange({ description: 'Orders may be rushed.', fields: [{ schema: Order, field: 'rush', added: true }] })
  const counted: string[] = []
  const { server, seen } = await app([{ version: '2.0', changes: [added] }, { version: '1.0' }], new Map([[Order, 'newest']]), counted, (server, seen) => {
    server.post('/orders', { versionChanges: true, schema: { body: Order } }, async request => { seen.push(request.body); return 'ok' })
  })
  t.equal((await post(server, '/orders?api-version=1.0', { number: 'A', rush: 'sent by a 1.0 client' })).statusCode, 200)
  t.same(seen.pop(), { number: 'A', rush: false }, "the field 1.0 lacks dropped, then the newest's default")
  t.same(counted.splice(0), ['newest'])
})

t.test("a request migration: the body checked against the newest's schemas once, by the plugin's check", async t => {
  const Order = Type.Object({ number: Type.String(), currency: Type.String() })
  const migrated = versionChange({
    description: 'Orders name their currency.',
    fields: [{ schema: Order, field: 'currency', added: true }],
    requests: [{ schema: Order, migrate: async request => { (request.body as { currency?: string }).currency = 'EUR' } }]
  })
  const counted: string[] = []
  const { server, seen } = await app([{ version: '2.0', changes: [migrated] }, { version: '1.0' }], new Map([[Order, 'newest']]), counted, (server, seen) => {
    server.post('/orders', { versionChanges: true, schema: { body: Order } }, async request => { seen.push(request.body); return 'ok' })
  })
  t.equal((await post(server, '/orders?api-version=1.0', { number: 'A' })).statusCode, 200)
  t.same(seen.pop(), { number: 'A', currency: 'EUR' })
  t.same(counted.splice(0), ['newest'], 'once, where it was twice')
})

t.test('a body by media type: each validated once', async t => {
  const counted: string[] = []
  const Text = Type.String({ maxLength: 5 })
  const { server, seen } = await app([{ version: '2.0', changes: [renamed] }, { version: '1.0' }], new Map<object, string>([[NewOrder, 'json'], [Text, 'text']]), counted, (server, seen) => {
    server.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => { done(null, body) })
    server.post('/orders', { versionChanges: true, schema: { body: { content: { 'application/json': { schema: NewOrder }, 'text/plain': { schema: Text } } } } }, async request => { seen.push(request.body); return 'ok' })
  })
  t.equal((await post(server, '/orders?api-version=1.0', { ref: 'A', lines: [] })).statusCode, 200)
  t.same([seen.pop(), counted.splice(0)], [{ number: 'A', lines: [] }, []])
  t.equal((await post(server, '/orders?api-version=1.0', 'short', 'text/plain')).statusCode, 200)
  t.same(counted.splice(0), ['text', 'text'], 'a text (the same schema in both versions) is no object to trust: validated by its version, then by Fastify')
  t.equal((await post(server, '/orders?api-version=2.0', { number: 'B', lines: [] })).statusCode, 200)
  t.same(counted.splice(0), ['json'])
})

t.test("a preValidation hook another plugin adds after the route's: it runs before the older request's validation, which sees what it made", async t => {
  const counted: string[] = []
  const { server } = await app([{ version: '2.0', changes: [renamed] }, { version: '1.0' }], new Map([[NewOrder, 'newest']]), counted, server => {
    // A plugin that adds its hook to every route, after those the route declares.
    server.addHook('onRoute', route => {
      route.preValidation = [...[route.preValidation ?? []].flat(), async (request: FastifyRequest) => { (request.body as { ref: unknown }).ref = { not: 'a text' } }]
    })
    server.post('/orders', { versionChanges: true, schema: { body: NewOrder } }, async () => 'ok')
  })
  const res = await post(server, '/orders?api-version=1.0', { ref: 'A', lines: [] })
  t.same([res.statusCode, res.json().message], [400, 'body/ref must be string'], 'what that hook made of it is checked, by its version\'s schema')
  t.same(counted.splice(0), [])
})

t.test('a route whose query string changes and whose body has no schema: the body is no schema\'s to trust', async t => {
  const Query = Type.Object({ limit: Type.Optional(Type.Integer()) })
  const change = versionChange({ description: "'limit' (it was 'max').", fields: [{ schema: Query, field: 'limit', renamedFrom: 'max' }] })
  const { server, seen } = await app([{ version: '2.0', changes: [change] }, { version: '1.0' }], new Map(), [], (server, seen) => {
    server.post('/orders', { versionChanges: true, schema: { querystring: Query } }, async request => { seen.push([request.query, request.body]); return 'ok' })
  })
  t.equal((await post(server, '/orders?api-version=1.0&max=3', { any: 'thing' })).statusCode, 200)
  t.same(seen.pop(), [{ 'api-version': '1.0', limit: 3 }, { any: 'thing' }])
})

t.test('trustBody without a route context of Fastify\'s, or with one it does not know: nothing trusted', async t => {
  t.doesNotThrow(() => { trustBody({ body: {} } as unknown as FastifyRequest, 'hook') })
  const context = { preValidation: null }
  t.doesNotThrow(() => { trustBody({ body: {}, [Symbol('fastify.context')]: context } as unknown as FastifyRequest, 'hook') })
  t.same(Object.getOwnPropertySymbols(context), [], 'nothing kept on the context: a property added there changes its hidden class, which every request of the route pays for')
  const validate = (): boolean => true
  const key = Symbol('body-schema')
  const hooked = { preValidation: [{ name: 'bound other' }], [key]: validate }
  trustBody({ body: {}, [Symbol('fastify.context')]: hooked } as unknown as FastifyRequest, 'hook')
  t.equal(hooked[key], validate, 'another hook last: its body validator left as it is')
})

t.test("with TypeBox's validator compiler, whose answers are { value } and { error }: an older body trusted, a newest one still checked", async t => {
  const server = Fastify().setValidatorCompiler(TypeBoxValidatorCompiler)
  await server.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [renamed] }, { version: '1.0' }] })
  const seen: unknown[] = []
  server.post('/orders', { versionChanges: true, schema: { body: NewOrder } }, async request => { seen.push(request.body); return 'ok' })
  t.equal((await post(server, '/orders?api-version=1.0', { ref: 'A', lines: [{ code: 'x', quantity: 2 }] })).statusCode, 200)
  t.same(seen.pop(), { number: 'A', lines: [{ sku: 'x', quantity: 2 }] })
  t.equal((await post(server, '/orders?api-version=2.0', { number: 'B', lines: [{ sku: 'x', quantity: 'many' }] })).statusCode, 400, "the newest's body: TypeBox's error")
  t.equal((await post(server, '/orders?api-version=2.0', { number: 'B', lines: [] })).statusCode, 200)
})

t.test('a body of schemas with additionalProperties: false, as validated: made with no loop over its keys, its query string kept whole', async t => {
  const SealedLine = Type.Object({ sku: Type.String() }, { additionalProperties: false })
  const Sealed = Type.Object({ number: Type.String(), lines: Type.Array(SealedLine) }, { additionalProperties: false })
  const Query = Type.Object({ limit: Type.Optional(Type.Integer()) }, { additionalProperties: false })
  const change = versionChange({
    description: 'x',
    fields: [{ schema: Sealed, field: 'number', renamedFrom: 'ref' }, { schema: SealedLine, field: 'sku', renamedFrom: 'code' }, { schema: Query, field: 'limit', renamedFrom: 'max' }]
  })
  const { server, seen } = await app([{ version: '2.0', changes: [change] }, { version: '1.0' }], new Map(), [], (server, seen) => {
    server.post('/orders', { versionChanges: true, schema: { body: Sealed, querystring: Query } }, async request => { seen.push([request.body, request.query]); return 'ok' })
  })
  t.equal((await post(server, '/orders?api-version=1.0&max=2', { ref: 'A', number: 'sent anyway', lines: [{ code: 'x', extra: 1 }], extra: true })).statusCode, 200)
  t.same(seen.pop(), [{ number: 'A', lines: [{ sku: 'x' }] }, { 'api-version': '1.0', limit: 2 }], 'what its schema does not name removed by its validation; the version parameter kept')
})

t.test("where the older versions have a route of their own (a host constraint): their requests validated by the newest's schemas once converted, as on one route", async t => {
  const Order = Type.Object({ number: Type.String(), rush: Type.Optional(Type.Boolean({ default: false })) })
  const added = versionChange({ description: 'Orders may be rushed.', fields: [{ schema: Order, field: 'rush', added: true }] })
  for (const constraints of [undefined, { host: 'shop.example' }]) {
    const counted: string[] = []
    const { server, seen } = await app([{ version: '2.0', changes: [added] }, { version: '1.0' }], new Map([[Order, 'newest']]), counted, (server, seen) => {
      server.post('/orders', { versionChanges: true, constraints, schema: { body: Order } }, async request => { seen.push(request.body); return 'ok' })
    })
    const where = constraints === undefined ? 'no other constraint' : 'a host constraint'
    const res = await server.inject({ method: 'POST', url: '/orders?api-version=1.0', headers: { host: 'shop.example' }, payload: { number: 'A' } })
    t.equal(res.statusCode, 200, where)
    t.same(seen.pop(), { number: 'A', rush: false }, `${where}: the newest's default`)
    t.same(counted.splice(0), ['newest'], where)
  }
})

t.test("a trusting route's body validator: another body is the given validator's to answer, its errors read through", async t => {
  const given = Object.assign((data: unknown) => {
    given.errors = data === 'bad' ? [{ message: 'bad' }] : null
    return data !== 'bad'
  }, { errors: null as unknown })
  const key = Symbol('body-schema')
  const context: Record<string | symbol, unknown> = { preValidation: [{ name: 'bound hook' }], [key]: given }
  const body = { trusted: true }
  trustBody({ body, [Symbol('fastify.context')]: context } as unknown as FastifyRequest, 'hook')
  const validate = context[key] as typeof given
  t.not(validate, given, 'wrapped')
  t.equal(validate(body), true, 'the trusted body passes')
  t.equal(validate('bad'), false)
  t.same(validate.errors, [{ message: 'bad' }], "the given validator's errors")
})
