import t from 'tap'
import { Readable } from 'node:stream'
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type VersionChangesEntry } from '../../lib/index.js'

// Every older version of a versionChanges route is one route of the router, which validates and serializes a request
// by its version's schemas as Fastify would on a route of them.

const Thing = Type.Object({ id: Type.Integer(), name: Type.String() })
const renamed = versionChange({ description: "Things have a 'name' (it was 'title').", fields: [{ schema: Thing, field: 'name', renamedFrom: 'title' }] })
const VERSIONS: VersionChangesEntry[] = [{ version: '2.0', changes: [renamed] }, { version: '1.0' }]

async function app (routes: (app: FastifyInstance) => void, options: object = {}): Promise<FastifyInstance> {
  const server = Fastify(options)
  await server.register(apiVersioning, { versionChanges: VERSIONS })
  routes(server)
  await server.ready()
  return server
}

t.test('each part of an older request validated as Fastify validates a route\'s: params, body by media type, query string, headers', async t => {
  const seen: unknown[] = []
  const server = await app(server => {
    server.post('/things/:id', {
      versionChanges: true,
      schema: {
        params: Type.Object({ id: Type.Integer() }),
        body: { content: { 'application/json': { schema: Thing }, 'text/plain': { schema: Type.String({ maxLength: 3 }) } } },
        querystring: Type.Object({ dry: Type.Optional(Type.Boolean()) }),
        headers: { type: 'object', properties: { 'X-Tenant': { type: 'string', pattern: '^t' } }, required: ['X-Tenant'] }
      }
    }, async request => { seen.push([request.params, request.body, request.query]); return 'ok' })
    server.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => done(null, body))
  })
  const post = async (url: string, payload: string, type = 'application/json', tenant = 'tea') => await server.inject({ method: 'POST', url, payload, headers: { 'content-type': type, 'x-tenant': tenant } })
  t.equal((await post('/things/1?api-version=1.0&dry=true', '{"id":1,"title":"a"}')).statusCode, 200)
  t.same(seen.pop(), [{ id: 1 }, { id: 1, name: 'a' }, { 'api-version': '1.0', dry: true }], 'coerced as Fastify coerces, converted up')
  const cases: Array<[string, string, string, string, RegExp]> = [
    ['/things/x?api-version=1.0', '{"id":1,"title":"a"}', 'application/json', 'tea', /^params\/id must be integer$/],
    ['/things/1?api-version=1.0', '{"id":1,"name":"a"}', 'application/json', 'tea', /^body must have required property 'title'$/],
    ['/things/1?api-version=1.0', 'long', 'text/plain', 'tea', /^body must NOT have more than 3 characters$/],
    ['/things/1?api-version=1.0&dry=7', '{"id":1,"title":"a"}', 'application/json', 'tea', /^querystring\/dry must be boolean$/],
    ['/things/1?api-version=1.0', '{"id":1,"title":"a"}', 'application/json', 'coffee', /^headers\/x-tenant must match pattern "\^t"$/]
  ]
  for (const [url, payload, type, tenant, message] of cases) {
    const res = await post(url, payload, type, tenant)
    t.same([res.statusCode, res.json().code], [400, 'FST_ERR_VALIDATION'], String(message))
    t.match(res.json().message, message)
  }
  t.equal((await post('/things/1?api-version=1.0', 'ok', 'text/plain')).statusCode, 200, 'a media type of its own')
  t.equal((await post('/things/1?api-version=1.0', '{}', 'application/x-other')).statusCode, 415, 'a media type with no parser, as Fastify answers it')
})

t.test('attachValidation, a route\'s and a server\'s schemaErrorFormatter, a validator that throws', async t => {
  const errors: unknown[] = []
  const server = await app(server => {
    server.post('/attached', { versionChanges: true, attachValidation: true, schema: { body: Thing } }, async request => {
      errors.push(request.validationError?.message)
      return 'handled'
    })
    server.post('/formatted', { versionChanges: true, schema: { body: Thing }, schemaErrorFormatter: (errors, dataVar) => new Error(`route: ${dataVar} ${errors.length}`) }, async () => 'ok')
    server.post('/server', { versionChanges: true, schema: { body: Thing } }, async () => 'ok')
    server.post('/throws', { versionChanges: true, schema: { body: Thing }, validatorCompiler: () => () => { throw new Error('the validator broke') } }, async () => 'ok')
  }, { schemaErrorFormatter: (errors: unknown[], dataVar: string) => new Error(`server: ${dataVar}`) })
  const post = async (url: string) => await server.inject({ method: 'POST', url: `${url}?api-version=1.0`, payload: { id: 'x' } })
  t.same([(await post('/attached')).body, errors], ['handled', ['server: body']], 'given to the handler')
  t.equal((await post('/formatted')).json().message, 'route: body 1')
  t.equal((await post('/server')).json().message, 'server: body')
  const thrown = await post('/throws')
  t.same([thrown.statusCode, thrown.json().message], [500, 'the validator broke'])
})

t.test('an async validator of an older version: the request it takes is served, the one it rejects answered 400', async t => {
  const seen: unknown[] = []
  const server = await app(server => {
    // As an Ajv `$async` schema's validator: resolves with the data, rejects with the error (Fastify's types want
    // its SafePromiseLike).
    const validatorCompiler = (({ schema }: { schema: { properties: object } }) => {
      // Its version's name of the field (a request of 1.0 is validated as 1.0's, then as the newest's once converted).
      const field = Object.keys(schema.properties).find(name => name !== 'id') as string
      return Object.assign(async (data: Record<string, unknown> | null) => {
        if (typeof data?.[field] !== 'string') throw Object.assign(new Error(`body/${field} must be a string`), { validation: [] })
        return data
      }, { $async: true })
    }) as never
    server.post('/later', { versionChanges: true, schema: { body: Thing }, validatorCompiler }, async request => {
      seen.push(request.body)
      return 'ok'
    })
    server.post('/attached-later', { versionChanges: true, attachValidation: true, schema: { body: Thing }, validatorCompiler }, async request => request.validationError?.message ?? 'none')
  })
  const post = async (url: string, payload: object) => await server.inject({ method: 'POST', url: `${url}?api-version=1.0`, payload })
  const taken = await post('/later', { id: 1, title: 'old' })
  t.same([taken.statusCode, taken.body, seen], [200, 'ok', [{ id: 1, name: 'old' }]], 'validated, then converted up')
  const rejected = await post('/later', { id: 1, title: 5 })
  t.same([rejected.statusCode, rejected.json().message], [400, 'body/title must be a string'])
  t.equal((await post('/attached-later', { id: 1 })).body, 'body/title must be a string', 'given to the handler')
})

t.test('an older response written with its version\'s schema: by status, class and media type; an error Fastify writes, shaped as the newest writes it', async t => {
  const Missing = Type.Object({ code: Type.String(), message: Type.String() })
  const server = await app(server => {
    server.setErrorHandler((error, request, reply) => { reply.send(error) })
    server.get('/things/:how', {
      versionChanges: true,
      schema: {
        response: {
          200: Thing,
          '2xx': { content: { 'application/vnd.thing+json': { schema: Thing }, '*/*': { schema: Type.Object({ other: Type.Boolean() }) } } },
          404: Missing
        }
      }
    }, async (request, reply) => {
      const how = (request.params as { how: string }).how
      if (how === 'vendor') return reply.code(201).type('application/vnd.thing+json').send({ id: 1, name: 'v', extra: true })
      if (how === 'any') return reply.code(202).type('application/json').send({ other: true, extra: true })
      if (how === 'missing') throw Object.assign(new Error('none'), { statusCode: 404, code: 'NONE' })
      if (how === 'stream') return reply.code(404).send(Readable.from(['{}']))
      return { id: 1, name: 'n', extra: true }
    })
  })
  const get = async (how: string, version = '1.0') => {
    const res = await server.inject(`/things/${how}?api-version=${version}`)
    return [res.statusCode, res.body]
  }
  t.same(await get('plain'), [200, '{"id":1,"title":"n"}'], 'what the schema does not declare left out')
  t.same(await get('vendor'), [201, '{"id":1,"title":"v"}'], 'a media type of its class')
  t.same(await get('any'), [202, '{"other":true}'], 'the catch-all media type')
  t.same(await get('missing'), [404, '{"code":"NONE","message":"none"}'], 'as the newest route writes it')
  t.same(await get('missing', '2.0'), [404, '{"code":"NONE","message":"none"}'])
  t.same((await get('stream'))[0], 404, 'a stream of an error, as it is')
})

t.test('a route declaring `query`, and a thrown error where a schema migration has another status', async t => {
  const Query = Type.Object({ name: Type.Optional(Type.String()) })
  const change = versionChange({
    description: 'x',
    fields: [{ schema: Query, field: 'name', renamedFrom: 'title' }],
    responses: [{ schema: Thing, errors: true, migrate: response => { (response.body as { id: number }).id = -1 } }]
  })
  const seen: unknown[] = []
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  server.get('/q', { versionChanges: true, schema: { query: Query, response: { 200: Thing } } }, async request => {
    seen.push({ ...request.query as object })
    if ((request.query as { name?: string }).name === 'x') throw Object.assign(new Error('no'), { statusCode: 404 })
    return { id: 1, name: 'n' }
  })
  t.same((await server.inject('/q?api-version=1.0&title=a')).json(), { id: -1, name: 'n' })
  t.same(seen.pop(), { 'api-version': '1.0', name: 'a' })
  t.equal((await server.inject('/q?api-version=1.0&title=x')).statusCode, 404, 'no schema of that status: as it is')
})

t.test('200 versions, each changing the route\'s schemas: one route serves them all, each converted through every step', async t => {
  const Order = Type.Object({ id: Type.Integer(), n0: Type.String() })
  const list: VersionChangesEntry[] = []
  for (let v = 200; v >= 1; v--) {
    // Version v named the field n{200 - v}; the one before it, n{201 - v}.
    const field = `n${200 - v}`
    list.push({ version: `${v}.0`, changes: v === 1 ? [] : [versionChange({ description: `v${v}`, fields: [{ schema: Order as object, field, renamedFrom: `n${201 - v}` }] })] })
  }
  const server = Fastify()
  const seen: unknown[] = []
  await server.register(apiVersioning, { versionChanges: list })
  const routes: string[] = []
  server.addHook('onRoute', route => {
    const versions = (route as { apiVersions?: string[] }).apiVersions
    if (route.method === 'POST' && versions !== undefined) routes.push(String(versions.length))
  })
  server.post('/orders', { versionChanges: true, schema: { body: Order, response: { 200: Order } } }, async request => { seen.push(request.body); return { id: 7, n0: 'served' } })
  await server.ready()
  t.same(routes, ['200'], 'one route for the 200 versions')
  for (const version of [1, 2, 100, 199, 200]) {
    const field = `n${200 - version}`
    const res = await server.inject({ method: 'POST', url: `/orders?api-version=${version}.0`, payload: { id: 1, [field]: `sent ${version}` } })
    t.same(res.json(), { id: 7, [field]: 'served' }, `${version}.0: down through ${200 - version} steps`)
    t.same(seen.pop(), { id: 1, n0: `sent ${version}` }, `${version}.0: up through them`)
  }
  t.same(await server.convertToApiVersion({ schema: Order, value: { id: 1, n0: 'x' }, version: '1.0' }), { id: 1, n199: 'x' })
})

t.test('versions of one route whose requests are converted up and versions whose are not; a body by media type checked after a migration', async t => {
  const Note = Type.Object({ text: Type.String(), tag: Type.Optional(Type.String()) })
  const Shown = Type.Object({ text: Type.String(), size: Type.Integer() })
  const third = versionChange({ description: 'Notes show a size.', fields: [{ schema: Shown, field: 'size', added: true }] })
  const second = versionChange({
    description: 'Notes are tagged.',
    fields: [{ schema: Note, field: 'tag', added: true }],
    requests: [{ schema: Note, migrate: request => { (request.body as { tag?: string }).tag = (request.body as { text: string }).text === 'bad' ? { not: 'a text' } as never : 'old' } }]
  })
  const server = Fastify()
  const seen: unknown[] = []
  await server.register(apiVersioning, { versionChanges: [{ version: '3.0', changes: [third] }, { version: '2.0', changes: [second] }, { version: '1.0' }] })
  server.post('/notes', { versionChanges: true, schema: { body: { content: { 'application/json': { schema: Note } } }, response: { 200: Shown } } }, async request => {
    seen.push(request.body)
    return { text: (request.body as { text: string }).text, size: 1 }
  })
  const post = async (version: string, text: string) => await server.inject({ method: 'POST', url: `/notes?api-version=${version}`, payload: { text } })
  t.same((await post('2.0', 'a')).json(), { text: 'a' }, '2.0: its response converted, its request not')
  t.same((await post('1.0', 'b')).json(), { text: 'b' })
  t.same(seen, [{ text: 'a' }, { text: 'b', tag: 'old' }])
  const bad = await post('1.0', 'bad')
  t.same([bad.statusCode, bad.json().code], [500, 'FST_API_VERSIONING_CONVERSION_FAILED'], 'checked against the media type\'s schema')
})

t.test('an error Fastify writes where a schema migration names its schema; a JSON text its version\'s schema cannot write', async t => {
  const Missing = Type.Object({ code: Type.String(), message: Type.String() })
  const change = versionChange({
    description: 'x',
    fields: [{ schema: Thing, field: 'name', renamedFrom: 'title' }],
    responses: [{ schema: Missing, errors: true, migrate: response => { (response.body as { code: string }).code = 'OLD' } }]
  })
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  server.get('/things/:how', { versionChanges: true, schema: { response: { 200: Thing, 404: Missing } } }, async (request, reply) => {
    if ((request.params as { how: string }).how === 'text') return reply.type('application/json').send('{"id":1}')
    throw Object.assign(new Error('gone'), { statusCode: 404, code: 'GONE' })
  })
  t.same((await server.inject('/things/missing?api-version=1.0')).json(), { code: 'OLD', message: 'gone' })
  const text = await server.inject('/things/text?api-version=1.0')
  t.same([text.statusCode, text.json().code], [500, 'FST_API_VERSIONING_CONVERSION_FAILED'])
  t.match(text.json().message, /converted for version 1\.0, cannot be written with that version's schema for it/)
})

t.test('a response by media type that has none for the reply\'s: as Fastify, the default serializer', async t => {
  const server = await app(server => {
    server.get('/typed', { versionChanges: true, schema: { response: { 200: { content: { 'application/json': { schema: Thing } } } } } }, async (request, reply) => reply.type('application/x-thing+json').send({ id: 1, name: 'x' }))
    server.get('/untyped', { versionChanges: true, schema: { response: { 200: { content: { 'application/json': { schema: Thing } } } } } }, async (request, reply) => reply.removeHeader('content-type').send({ id: 1, name: 'x' }))
  })
  t.same((await server.inject('/typed?api-version=1.0')).json(), { id: 1, title: 'x' }, 'converted, written as JSON')
  t.same((await server.inject('/untyped?api-version=1.0')).json(), { id: 1, title: 'x' })
})

t.test('without a Content-Type, or one the route has no schema for: as Fastify, no schema of it', async t => {
  const server = await app(server => {
    server.post('/typed', { versionChanges: true, schema: { body: { content: { 'application/json': { schema: Thing } } }, response: { 200: { content: { 'application/json': { schema: Thing } } } } } }, async (request, reply) => reply.removeHeader('content-type').send({ id: 1, name: 'x' }))
  })
  const res = await server.inject({ method: 'POST', url: '/typed?api-version=1.0', payload: '{"id":1,"title":"a"}', headers: { 'content-type': 'application/json' } })
  t.same(res.json(), { id: 1, title: 'x' }, 'a reply without a Content-Type: written as Fastify would, with no schema of it')
})

t.test('an error Fastify writes on a version whose responses convert nothing: written with its schema all the same', async t => {
  const Missing = Type.Object({ code: Type.String(), message: Type.String() })
  const Body = Type.Object({ name: Type.String() })
  const Shown = Type.Object({ name: Type.String() })
  // Their responses' schemas differ (1.0's had an optional field more), but no value of them is converted.
  const change = versionChange({ description: 'x', fields: [{ schema: Body, field: 'name', renamedFrom: 'title' }, { schema: Missing, field: 'hint', removed: { schema: Type.String() } }, { schema: Shown, field: 'hint', removed: { schema: Type.String() } }] })
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  server.post('/things', { versionChanges: true, schema: { body: Body, response: { 404: Missing } } }, async () => { throw Object.assign(new Error('gone'), { statusCode: 404, code: 'GONE' }) })
  server.put('/things', { versionChanges: true, schema: { body: Body, response: { 200: Shown } } }, async request => ({ ...request.body as object, extra: true }))
  const res = await server.inject({ method: 'POST', url: '/things?api-version=1.0', payload: { title: 'a' } })
  t.same([res.statusCode, res.body], [404, '{"code":"GONE","message":"gone"}'])
  const put = await server.inject({ method: 'PUT', url: '/things?api-version=1.0', payload: { title: 'a' } })
  t.same([put.statusCode, put.body], [200, '{"name":"a"}'], 'a success of such a version: written with its schema, nothing converted')
})

t.test("versionChangesCompile: 'eager' compiles the older versions once the app is ready; 'lazy' at each one's first request", async t => {
  for (const [mode, compiledAtReady] of [['eager', 2], ['lazy', 0], [undefined, 0]] as const) {
    const compiled: string[] = []
    const server = Fastify()
    server.setValidatorCompiler(({ httpPart }) => { compiled.push(`validate ${String(httpPart)}`); return () => true })
    server.setSerializerCompiler(({ httpStatus }) => { compiled.push(`serialize ${String(httpStatus)}`); return data => JSON.stringify(data) })
    await server.register(apiVersioning, { versionChanges: VERSIONS, ...(mode === undefined ? {} : { versionChangesCompile: mode }) })
    server.post('/things', { versionChanges: true, schema: { body: Thing, response: { 200: Thing } } }, async request => request.body)
    await server.ready()
    // The newest route's own: a validator and a serializer, compiled by Fastify.
    t.equal(compiled.length - 2, compiledAtReady, `${String(mode)}: at ready`)
    const res = await server.inject({ method: 'POST', url: '/things?api-version=1.0', payload: { id: 1, title: 'a' } })
    t.same(res.json(), { id: 1, title: 'a' })
    t.equal(compiled.length, 4, `${String(mode)}: the older version's validator and serializer, once`)
  }
  // With no compiler set up by Fastify (no route of the instance has a schema of its own): compiled when first needed.
  const bare = Fastify()
  await bare.register(apiVersioning, { versionChanges: VERSIONS, versionChangesCompile: 'eager' })
  bare.get('/ping', { versionChanges: true }, async () => 'pong')
  await bare.ready()
  t.equal((await bare.inject('/ping?api-version=1.0')).body, 'pong')
  await t.rejects(async () => { await Fastify().register(apiVersioning, { versionChangesCompile: 'now' as never }) }, { code: 'FST_API_VERSIONING_INVALID_OPTION', message: /versionChangesCompile must be 'lazy' or 'eager' \(got now\)/ })
})

t.test("versionChangesCompile: 'eager' compiles the newest version's serializers of errors, which write what Fastify's error handler gives", async t => {
  const Missing = Type.Object({ code: Type.String(), message: Type.String() })
  const compiled: string[] = []
  const server = Fastify()
  server.setSerializerCompiler(({ schema, httpStatus }) => {
    compiled.push(String(httpStatus))
    const keys = Object.keys((schema as { properties: object }).properties)
    return data => JSON.stringify(Object.fromEntries(keys.map(key => [key, (data as Record<string, unknown>)[key]])))
  })
  await server.register(apiVersioning, { versionChanges: VERSIONS, versionChangesCompile: 'eager' })
  server.post('/things', { versionChanges: true, schema: { response: { 200: Thing, 201: { content: { 'application/json': { schema: Thing } } }, 404: Missing } } }, async () => { throw Object.assign(new Error('none'), { statusCode: 404, code: 'NONE' }) })
  await server.ready()
  const atReady = compiled.length
  t.same(compiled.sort(), ['200', '200', '201', '404', '404', '404'], "the newest route's, its errors' for the older, and the older version's own (by media type too; one schema once)")
  t.same((await server.inject({ method: 'POST', url: '/things?api-version=1.0' })).json(), { code: 'NONE', message: 'none' })
  t.equal(compiled.length, atReady, 'nothing left to compile')
})

t.test('an older version\'s request that fails its own schema, where the route attaches the error: given to the handler as the client sent it', async t => {
  const Query = Type.Object({ limit: Type.Integer({ maximum: 10 }) })
  const renamed = versionChange({ description: 'limit was max', fields: [{ schema: Query, field: 'limit', renamedFrom: 'max' }] })
  for (const constraints of [undefined, { host: 'localhost:80' }]) {
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [renamed] }, { version: '1.0' }] })
    app.get('/items', { versionChanges: true, attachValidation: true, constraints, schema: { querystring: Query } }, async request => ({ error: request.validationError?.message ?? null, query: request.query }))
    await app.ready()
    const res = await app.inject({ url: '/items?api-version=1.0&max=50', headers: { host: 'localhost:80' } })
    t.same([res.statusCode, res.json()], [200, { error: 'querystring/max must be <= 10', query: { 'api-version': '1.0', max: 50 } }], constraints === undefined ? 'one route' : 'beside a hidden route')
    const valid = await app.inject({ url: '/items?api-version=1.0&max=5', headers: { host: 'localhost:80' } })
    t.same(valid.json(), { error: null, query: { 'api-version': '1.0', limit: 5 } }, 'a valid one converted up')
  }
})

t.test('with no version header of the plugin\'s to send (the version read from the query alone, not reported): an older response converted all the same', async t => {
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: VERSIONS, versionReader: { query: 'api-version', header: false }, reportApiVersions: false })
  server.get('/things', { versionChanges: true, schema: { response: { 200: Thing } } }, async (request, reply) => await reply.type('application/json').send('{"id":1,"name":"n"}'))
  const res = await server.inject('/things?api-version=1.0')
  t.same([res.headers.vary, res.json()], [undefined, { id: 1, title: 'n' }], 'a JSON text, converted in the plugin\'s onSend hook')
})

t.test('an older request that fails validation where the route attaches the error and only converts it (a migration, the same schemas): given to the handler as the client sent it', async t => {
  const Order = Type.Object({ number: Type.String(), count: Type.Integer() })
  const doubled = versionChange({ description: 'Counts are doubled.', requests: [{ schema: Order, migrate: request => { (request.body as { count: number }).count *= 2 } }] })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [doubled] }, { version: '1.0' }] })
  app.post('/orders', { versionChanges: true, attachValidation: true, schema: { body: Order } }, async request => ({ error: request.validationError?.message ?? null, body: request.body }))
  const post = async (version: string, payload: object): Promise<unknown> => (await app.inject({ method: 'POST', url: `/orders?api-version=${version}`, payload })).json()
  t.same(await post('1.0', { number: 'A', count: 'x' }), { error: 'body/count must be integer', body: { number: 'A', count: 'x' } }, 'not converted')
  t.same(await post('1.0', { number: 'A', count: 2 }), { error: null, body: { number: 'A', count: 4 } }, 'a valid one converted up')
  t.same(await post('2.0', { number: 'A', count: 2 }), { error: null, body: { number: 'A', count: 2 } }, 'the newest as sent')
})

t.test('an endpoint removed and back: the versions before and after it alike are one route without a response hook', async t => {
  const gone = versionChange({ description: 'Things are gone.', endpoints: [{ method: 'GET', url: '/things', removed: true }] })
  const back = versionChange({ description: 'Things are back.', endpoints: [{ method: 'GET', url: '/things', added: true }] })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '3.0', changes: [back] }, { version: '2.0', changes: [gone] }, { version: '1.0' }] })
  const hooks: string[] = []
  app.addHook('onRoute', route => {
    if (route.method === 'GET') hooks.push(...[route.preSerialization ?? []].flat().map(hook => (hook as { name: string }).name))
  })
  app.get('/things', { versionChanges: true, schema: { response: { 200: Thing } } }, async () => ({ id: 1, name: 'n' }))
  await app.ready()
  t.same(hooks, [], 'no response hook')
  for (const [version, status] of [['3.0', 200], ['2.0', 400], ['1.0', 200]] as const) {
    t.equal((await app.inject(`/things?api-version=${version}`)).statusCode, status, version)
  }
  t.same((await app.inject('/things?api-version=1.0')).json(), { id: 1, name: 'n' })
})

t.test('a query string schema given as `query` and shared by apps: the route of the older versions beside a hidden route takes it as every route does', async t => {
  const Query = Type.Object({ limit: Type.Optional(Type.Integer({ maximum: 10 })) })
  const renamed = versionChange({ description: 'limit was max', fields: [{ schema: Query, field: 'limit', renamedFrom: 'max' }] })
  // One schema object for every app, as a module's constant is: Fastify makes it ready in place with the first app.
  // (Fastify takes `query` for `querystring`; its types name only the latter.)
  const schema = { query: Query } as FastifySchema
  for (const constraints of [undefined, { host: 'shop.example' }, { host: 'shop.example' }]) {
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [renamed] }, { version: '1.0' }] })
    app.get('/items', { versionChanges: true, constraints, schema }, async request => request.query)
    await app.ready()
    const where = constraints === undefined ? 'one route' : 'beside a hidden route'
    const get = async (query: string) => await app.inject({ url: `/items?${query}`, headers: { host: 'shop.example' } })
    t.same((await get('api-version=1.0&max=5')).json(), { 'api-version': '1.0', limit: 5 }, `${where}: converted up`)
    const invalid = await get('api-version=1.0&max=50')
    t.same([invalid.statusCode, invalid.json().message], [400, 'querystring/max must be <= 10'], `${where}: validated by its version's schema`)
    t.equal((await get('api-version=2.0&limit=50')).statusCode, 400, `${where}: the newest by the route's`)
  }
})
