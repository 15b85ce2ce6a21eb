import t from 'tap'
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify'
import { Type } from '@sinclair/typebox'
import { Readable } from 'node:stream'
import apiVersioning, { versionChange, type VersionChangesEntry } from '../../lib/index.js'

// How an older version's response is written where its conversion renames fields: what Fastify does for a reply
// (its content type, the app's and the handler's writers, its error handler) holds for it as for the newest.

const Thing = Type.Object({ id: Type.Integer(), name: Type.String() })
const Oops = Type.Object({ code: Type.String(), reason: Type.String() })
const VERSIONS: VersionChangesEntry[] = [{
  version: '2.0',
  changes: [versionChange({ description: "Things have a 'name' (it was 'title'); errors a 'reason' (it was 'why').", fields: [{ schema: Thing, field: 'name', renamedFrom: 'title' }, { schema: Oops, field: 'reason', renamedFrom: 'why' }] })]
}, { version: '1.0' }]

async function app (routes: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: VERSIONS })
  routes(server)
  await server.ready()
  return server
}

// Loosely typed: the handlers answer statuses the schema has none for.
const schema: FastifySchema = { response: { 200: Thing, 400: Oops } }

t.test('an app\'s own preSerialization hook sees the newest\'s names, the client its version\'s', async t => {
  const seen: unknown[] = []
  const server = await app(server => {
    server.get('/things', { versionChanges: true, schema, preSerialization: (request, reply, payload, done) => { seen.push(payload); done(null, payload) } }, async () => ({ id: 1, name: 'kettle' }))
  })
  const res = await server.inject('/things?api-version=1.0')
  t.same([res.statusCode, res.headers['content-type'], res.json()], [200, 'application/json; charset=utf-8', { id: 1, title: 'kettle' }])
  t.same(seen, [{ id: 1, name: 'kettle' }])
})

t.test('its content type as Fastify gives a JSON body: charset added where missing, the type kept', async t => {
  const server = await app(server => {
    server.get('/json', { versionChanges: true, schema }, async (request, reply) => reply.type('application/json').send({ id: 1, name: 'a' }))
    server.get('/vendor', { versionChanges: true, schema }, async (request, reply) => reply.type('application/vnd.thing+json; charset=utf-8').send({ id: 1, name: 'a' }))
  })
  for (const version of ['2.0', '1.0']) {
    const json = await server.inject(`/json?api-version=${version}`)
    t.equal(json.headers['content-type'], 'application/json; charset=utf-8', version)
    const vendor = await server.inject(`/vendor?api-version=${version}`)
    t.equal(vendor.headers['content-type'], 'application/vnd.thing+json; charset=utf-8', version)
  }
  t.same((await server.inject('/json?api-version=1.0')).json(), { id: 1, title: 'a' })
})

t.test("a status's schema with @fastify/swagger's response headers beside it ({ ...Thing, headers }) is converted as Thing", async t => {
  const server = await app(server => {
    server.get('/things', { versionChanges: true, schema: { response: { 200: { ...Thing, headers: { 'x-total': { type: 'integer' } } } } } }, async () => ({ id: 1, name: 'a' }))
  })
  t.same((await server.inject('/things?api-version=1.0')).json(), { id: 1, title: 'a' })
})

t.test('an object of another type goes to the onSend hooks as it is, as Fastify sends it', async t => {
  const server = await app(server => {
    // 201 has one schema in every version: nothing to convert once the app's hook has written it.
    server.post('/things', {
      versionChanges: true,
      schema: { response: { 200: Thing, 201: Type.Object({ id: Type.Integer() }) } },
      onSend: (request, reply, payload, done) => done(null, typeof payload === 'object' ? `id=${(payload as { id: number }).id}` : payload)
    }, async (request, reply) => reply.code(201).type('text/x-thing').send({ id: 7 }))
  })
  for (const version of ['2.0', '1.0']) {
    const res = await server.inject({ method: 'POST', url: `/things?api-version=${version}` })
    t.same([res.statusCode, res.headers['content-type'], res.body], [201, 'text/x-thing', 'id=7'], version)
  }
})

t.test('a JSON text a handler sends is converted as any text', async t => {
  const server = await app(server => {
    server.get('/things', { versionChanges: true, schema }, async (request, reply) => reply.type('application/json').send('{"id":1,"name":"a"}'))
  })
  t.same((await server.inject('/things?api-version=1.0')).json(), { id: 1, title: 'a' })
  t.same((await server.inject('/things?api-version=2.0')).json(), { id: 1, name: 'a' })
})

t.test("a handler's own serializer (an envelope) writes the body in every version, converted first", async t => {
  const server = await app(server => {
    server.get('/things', { versionChanges: true, schema }, async (request, reply) => reply.serializer(payload => JSON.stringify({ data: payload, meta: { id: request.id } })).send({ id: 1, name: 'a', hidden: true }))
  })
  t.same((await server.inject('/things?api-version=2.0')).json(), { data: { id: 1, name: 'a', hidden: true }, meta: { id: 'req-1' } }, 'the newest: the handler\'s serializer')
  t.same((await server.inject('/things?api-version=1.0')).json(), { data: { id: 1, title: 'a' }, meta: { id: 'req-2' } }, 'the body as the version\'s conversion gives it')
})

t.test('a status the version has no schema for: written by the app\'s reply serializer, or as JSON', async t => {
  const server = Fastify()
  await server.register(async scope => {
    scope.setReplySerializer(payload => `app:${JSON.stringify(payload)}`)
    scope.get('/teapot', { versionChanges: true, schema }, async (request, reply) => reply.code(418).send({ id: 1, name: 'a' }))
  })
  await server.register(apiVersioning, { versionChanges: VERSIONS })
  server.get('/plain', { versionChanges: true, schema }, async (request, reply) => reply.code(418).send({ id: 1, name: 'a' }))
  await server.ready()
  for (const version of ['2.0', '1.0']) {
    t.equal((await server.inject(`/teapot?api-version=${version}`)).body, 'app:{"id":1,"name":"a"}', version)
    t.equal((await server.inject(`/plain?api-version=${version}`)).body, '{"id":1,"name":"a"}', version)
  }
  t.equal((await server.inject('/teapot?api-version=1.0')).statusCode, 418)
})

t.test('a body an error handler sends after the reply was written once: converted too', async t => {
  const server = await app(server => {
    server.get('/things', {
      versionChanges: true,
      schema,
      onSend: (request, reply, payload, done) => { if (reply.statusCode === 418) done(new Error('no teapots')); else done(null, payload) },
      errorHandler: (error, request, reply) => reply.code(400).send({ code: 'NO', reason: error.message })
    }, async (request, reply) => reply.code(418).send({ id: 1, name: 'a' }))
  })
  const res = await server.inject('/things?api-version=1.0')
  t.same([res.statusCode, res.json()], [400, { code: 'NO', why: 'no teapots' }])
})

t.test("a body its schema cannot write: the error handler's answer is written as in the newest version, with its status's schema or as JSON", async t => {
  const server = await app(server => {
    server.setErrorHandler((error, request, reply) => reply.code(500).send({ mine: true, code: 'E', reason: (error as Error).message }))
    server.get('/bare', { versionChanges: true, schema: { response: { 200: Thing } } }, async () => ({ id: 1 }))
    server.get('/typed', { versionChanges: true, schema: { response: { 200: Thing, 500: Oops } } }, async () => ({ id: 1 }))
    // A serializer of the handler's own stays the reply's for the error handler's answer, as Fastify keeps it.
    server.get('/own', { versionChanges: true, schema: { response: { 200: Thing } } }, async (request, reply) => reply.serializer(() => { throw new Error('cannot') }).send({ id: 1 }))
  })
  for (const [version, title] of [['2.0', 'name'], ['1.0', 'title']]) {
    const bare = await server.inject(`/bare?api-version=${version}`)
    t.same([bare.statusCode, bare.headers['content-type'], bare.json()], [500, 'application/json; charset=utf-8', { mine: true, code: 'E', reason: `"${title}" is required!` }], version)
    const typed = await server.inject(`/typed?api-version=${version}`)
    const reason = version === '2.0' ? 'reason' : 'why'
    t.same([typed.statusCode, typed.headers['content-type'], typed.json()], [500, 'application/json; charset=utf-8', { code: 'E', [reason]: `"${title}" is required!` }], version)
    const own = await server.inject(`/own?api-version=${version}`)
    t.same([own.statusCode, own.json().message], [500, 'cannot'], version)
  }
})

t.test("every onSend hook, the app's (@fastify/compress) and the route's, sees the body of the client's version, however it was given", async t => {
  const { default: compress } = await import('@fastify/compress')
  const { gunzipSync } = await import('node:zlib')
  const seen: Record<string, unknown[]> = {}
  const server = Fastify()
  await server.register(compress, { threshold: 0 })
  server.addHook('onSend', async (request, reply, payload) => { (seen[`app ${request.url}`] ??= []).push(String(payload)) })
  await server.register(apiVersioning, {
    versionChanges: [{
      version: '2.0',
      changes: [versionChange({
        description: "Things have a 'name' (it was 'title'); a missing one is 404 (it was 410).",
        fields: [{ schema: Thing, field: 'name', renamedFrom: 'title' }],
        responses: [{ route: 'GET /missing', errors: true, migrate: response => { if (response.statusCode === 404) response.statusCode = 410 } }]
      })]
    }, { version: '1.0' }]
  })
  const onSend = async (request: { url: string }, reply: unknown, payload: unknown): Promise<void> => { (seen[`route ${request.url}`] ??= []).push(String(payload)) }
  const thing = { id: 1, name: 'kettle' }
  server.get('/object', { versionChanges: true, schema, onSend }, async () => thing)
  server.get('/text', { versionChanges: true, schema, onSend }, async (request, reply) => reply.type('application/json').send(JSON.stringify(thing)))
  server.get('/buffer', { versionChanges: true, schema, onSend }, async (request, reply) => reply.type('application/json').send(Buffer.from(JSON.stringify(thing))))
  server.get('/missing', { versionChanges: true, schema, onSend }, async () => { throw Object.assign(new Error('no such thing'), { statusCode: 404 }) })
  await server.ready()
  for (const url of ['/object', '/text', '/buffer']) {
    const res = await server.inject({ url: `${url}?api-version=1.0`, headers: { 'accept-encoding': 'gzip' } })
    t.same([res.statusCode, res.headers['content-encoding'], JSON.parse(gunzipSync(res.rawPayload).toString())], [200, 'gzip', { id: 1, title: 'kettle' }], `${url}: compressed, 1.0's`)
    t.same(seen[`app ${url}?api-version=1.0`], ['{"id":1,"title":"kettle"}'], `${url}: the app's hook sees 1.0's`)
    t.same(seen[`route ${url}?api-version=1.0`], ['{"id":1,"title":"kettle"}'], `${url}: the route's hook too`)
  }
  const missing = await server.inject({ url: '/missing?api-version=1.0', headers: { 'accept-encoding': 'gzip' } })
  t.same([missing.statusCode, missing.headers['content-encoding'], JSON.parse(gunzipSync(missing.rawPayload).toString())], [410, 'gzip', { statusCode: 404, error: 'Not Found', message: 'no such thing' }], 'a thrown error, its status converted (its body as Fastify wrote it), compressed')
  const newest = await server.inject({ url: '/text?api-version=2.0', headers: { 'accept-encoding': 'gzip' } })
  t.same(JSON.parse(gunzipSync(newest.rawPayload).toString()), thing, 'the newest as it was given')
})

t.test("a reply an app's onRequest hook sends (under-pressure's 503), compressed by the app's onSend hook before the route's could convert it: an error, readable", async t => {
  const { default: compress } = await import('@fastify/compress')
  const { gunzipSync } = await import('node:zlib')
  const server = Fastify()
  await server.register(compress, { threshold: 0 })
  // As under-pressure: an error, which Fastify writes (its error's format, not the schema's for the status).
  server.addHook('onRequest', async () => { throw Object.assign(new Error('busy'), { statusCode: 503, code: 'BUSY', reason: 'busy' }) })
  await server.register(apiVersioning, { versionChanges: VERSIONS })
  server.get('/things', { versionChanges: true, schema: { response: { 200: Thing, 503: Oops } } }, async () => ({ id: 1, name: 'a' }))
  await server.ready()
  const res = await server.inject({ url: '/things?api-version=1.0', headers: { 'accept-encoding': 'gzip' } })
  const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload).toString() : res.body
  // Fastify's error handler writes the plugin's error with the 503's schema, which it does not fit: its own 500.
  t.same([res.statusCode, res.headers['content-encoding'], JSON.parse(body).code], [500, undefined, 'FST_ERR_FAILED_ERROR_SERIALIZATION'], 'written as it is, no encoding said')
  const plain = await server.inject({ url: '/things?api-version=1.0' })
  t.same([plain.statusCode, plain.json().why], [503, 'busy'], 'not compressed: converted')
})

t.test('a status declared by media type: a text of a media type whose schema no version changes is sent as it is', async t => {
  const server = await app(server => {
    server.get('/things', {
      versionChanges: true,
      schema: { response: { 200: { content: { 'application/json': { schema: Thing }, 'text/csv': { schema: Type.String() } } } } }
    }, async (request, reply) => request.headers.accept?.startsWith('text/') === true ? await reply.type(request.headers.accept).send('id,name\n1,kettle\n') : { id: 1, name: 'kettle' })
  })
  for (const version of ['1.0', '2.0']) {
    const csv = await server.inject({ url: `/things?api-version=${version}`, headers: { accept: 'text/csv' } })
    t.same([csv.statusCode, csv.headers['content-type'], csv.body], [200, 'text/csv', 'id,name\n1,kettle\n'], version)
  }
  t.same((await server.inject('/things?api-version=1.0')).json(), { id: 1, title: 'kettle' }, 'its JSON converted')
  const other = await server.inject({ url: '/things?api-version=1.0', headers: { accept: 'text/plain' } })
  t.match([other.statusCode, other.json()], [500, { code: 'FST_API_VERSIONING_CONVERSION_FAILED' }], 'a text of a media type the status has no schema for: its data cannot be converted')
})

t.test('bytes and streams a status declares by media type (a file beside the JSON) are sent as they are, in every version; an upload is given as it came', async t => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47])
  const bodies: Record<string, () => unknown> = {
    buffer: () => Buffer.from('id,name\n1,kettle\n'),
    bytes: () => new Uint8Array(Buffer.from('id,name\n1,kettle\n')),
    stream: () => Readable.from(['id,name\n', '1,kettle\n']),
    web: () => new ReadableStream({ start (controller) { controller.enqueue(Buffer.from('id,name\n1,kettle\n')); controller.close() } }),
    response: () => new Response('id,name\n1,kettle\n')
  }
  const seen: unknown[] = []
  const server = await app(server => {
    server.get('/things', {
      versionChanges: true,
      schema: { response: { 200: { content: { 'application/json': { schema: Type.Array(Thing) }, 'text/csv': { schema: Type.String() } } } } }
    }, async (request, reply) => reply.type('text/csv').send(bodies[(request.query as { as: string }).as]()))
    server.get('/avatar', { versionChanges: true, schema: { response: { 200: { content: { 'application/json': { schema: Thing }, 'image/png': { schema: { type: 'string', format: 'binary' } } } } } } }, async (request, reply) => reply.type('image/png').send(png))
    server.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (request, body, done) => { done(null, body) })
    server.post('/uploads', { versionChanges: true, schema: { body: { content: { 'application/json': { schema: Thing } } } } }, async (request, reply) => {
      seen.push(request.body)
      return reply.send({ bytes: Buffer.isBuffer(request.body) })
    })
  })
  for (const version of ['1.0', '2.0']) {
    for (const as of Object.keys(bodies)) t.same((await server.inject(`/things?as=${as}&api-version=${version}`)).body, 'id,name\n1,kettle\n', `${version}: ${as}`)
    t.same((await server.inject(`/avatar?api-version=${version}`)).rawPayload, png, `${version}: an image`)
    const upload = await server.inject({ method: 'POST', url: `/uploads?api-version=${version}`, headers: { 'content-type': 'application/octet-stream' }, payload: png })
    t.same([upload.statusCode, upload.json(), seen.pop()], [200, { bytes: true }, png], `${version}: an upload`)
  }
})
