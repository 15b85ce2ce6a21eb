import t from 'tap'
import { Readable } from 'node:stream'
import { Ajv } from 'ajv'
import Fastify, { type FastifyInstance } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type ResponseToMigrate, type VersionChange } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { documentOf } from './openapi-helpers.js'
import { logged } from './helpers.js'

// Every response of an older version passes its conversion: errors of every origin, and bodies of every kind.

const NotFound = Type.Object({ code: Type.String(), message: Type.String() }, { $id: 'NotFound' })
const Thing = Type.Object({ id: Type.Integer(), name: Type.String() })

function gone (seen: string[] = []): VersionChange {
  return versionChange({
    description: "A missing thing is 404 with 'code' (it was 410 with 'error_code').",
    fields: [{ schema: 'NotFound', field: 'code', renamedFrom: 'error_code' }],
    responses: [{
      route: 'GET /things/:id',
      errors: true,
      migrate: (response: ResponseToMigrate) => {
        seen.push(`${response.statusCode}`)
        if (response.statusCode === 404) {
          response.statusCode = 410
          response.headers['x-gone'] = 'yes'
        }
      }
    }]
  })
}

async function service (how: (app: FastifyInstance) => void, seen: string[] = []): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, versionChanges: [{ version: '2.0', changes: [gone(seen)] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, { openapi: { info: { title: 'Things' } } })
  app.addSchema(NotFound)
  how(app)
  await app.ready()
  return app
}

t.test('an error migration runs for every error of its route: a status, headers and body it changes, written with the version\'s schema', async t => {
  const origins: Array<[string, (app: FastifyInstance) => void]> = [
    ['a thrown error with a statusCode, through an error handler that writes the newest shape', app => {
      app.setErrorHandler((error: { statusCode?: number, message: string }, request, reply) => reply.code(error.statusCode ?? 500).send({ code: 'missing', message: error.message }))
      app.get('/things/:id', { versionChanges: true, schema: { response: { 200: Thing, 404: Type.Ref(NotFound), 410: Type.Ref(NotFound) } } }, async () => { throw Object.assign(new Error('no such thing'), { statusCode: 404 }) })
    }],
    ['reply.send(error), through the same handler', app => {
      app.setErrorHandler((error: { statusCode?: number, message: string }, request, reply) => reply.code(error.statusCode ?? 500).send({ code: 'missing', message: error.message }))
      app.get('/things/:id', { versionChanges: true, schema: { response: { 200: Thing, 404: Type.Ref(NotFound), 410: Type.Ref(NotFound) } } }, async (request, reply) => reply.send(Object.assign(new Error('no such thing'), { statusCode: 404 })))
    }],
    ['the handler\'s own 404 object', app => {
      app.get('/things/:id', { versionChanges: true, schema: { response: { 200: Thing, 404: Type.Ref(NotFound), 410: Type.Ref(NotFound) } } }, async (request, reply) => reply.code(404).send({ code: 'missing', message: 'no such thing' }))
    }],
    ['reply.problem()', app => {
      app.get('/things/:id', { versionChanges: true, schema: { response: { 200: Thing, 404: Type.Ref(NotFound), 410: Type.Ref(NotFound) } } }, async (request, reply) => reply.problem({ status: 404, title: 'Missing', code: 'missing', message: 'no such thing' }))
    }]
  ]
  for (const [origin, how] of origins) {
    const seen: string[] = []
    const app = await service(how, seen)
    const newest = await app.inject('/things/1?api-version=2.0')
    t.equal(newest.statusCode, 404, `${origin}: 2.0 as the handler answered`)
    t.equal(newest.json().code, 'missing')
    const old = await app.inject('/things/1?api-version=1.0')
    t.equal(old.statusCode, 410, `${origin}: 1.0 gets 410`)
    t.equal(old.headers['x-gone'], 'yes')
    t.equal(old.json().error_code, 'missing', 'the field named as 1.0 names it')
    t.notOk('code' in old.json())
    t.same(seen, ['404'], 'the migration ran once, for 1.0 only')
    if (origin === 'reply.problem()') t.match(old.json(), { type: 'about:blank', title: 'Missing', status: 410 }, "a problem document's own members kept, its status the response's")
  }
})

t.test("reply.problem() on a status whose schema a change changed: written whole in every version, the schema's fields converted", async t => {
  const Err = Type.Object({ code: Type.String(), message: Type.String() })
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, versionChanges: [{ version: '2.0', changes: [versionChange({ description: "Errors say 'code' (it was 'error_code').", fields: [{ schema: Err, field: 'code', renamedFrom: 'error_code' }] })] }, { version: '1.0' }] })
  app.get('/things/:id', { versionChanges: true, schema: { response: { 200: Thing, 404: Err } } }, async (request, reply) => reply.problem({ status: 404, title: 'Not found', detail: 'No thing 7', code: 'missing' }))
  await app.ready()
  const old = await app.inject('/things/7?api-version=1.0')
  t.same([old.statusCode, old.headers['content-type'], old.json()], [404, 'application/problem+json; charset=utf-8', { type: 'about:blank', title: 'Not found', status: 404, detail: 'No thing 7', error_code: 'missing' }], "no 500 for the schema's required message it lacks")
  t.same((await app.inject('/things/7?api-version=2.0')).json(), { type: 'about:blank', title: 'Not found', status: 404, detail: 'No thing 7', code: 'missing' })
})

t.test("Fastify's own errors: its default error handler, its validation 400, another plugin's 429", async t => {
  const Query = Type.Object({ n: Type.Optional(Type.Integer()) })
  const seen: Array<[number, unknown]> = []
  const change = versionChange({
    description: 'Errors carry a reason.',
    responses: [{ route: 'GET /items', errors: true, migrate: response => { seen.push([response.statusCode, response.body]); response.body = { ...response.body as object, reason: 'old' } } }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  await app.register(rateLimit, { global: false })
  app.get('/items', { versionChanges: true, config: { rateLimit: { max: 2, timeWindow: 60_000 } }, schema: { querystring: Query } }, async request => {
    if ((request.query as { n?: number }).n === 0) throw Object.assign(new Error('no zero'), { statusCode: 404 })
    return { ok: true }
  })
  const thrown = await app.inject('/items?api-version=1.0&n=0')
  t.same([thrown.statusCode, thrown.json()], [404, { statusCode: 404, error: 'Not Found', message: 'no zero', reason: 'old' }], 'the default error handler\'s body')
  const invalid = await app.inject('/items?api-version=1.0&n=x')
  t.equal(invalid.statusCode, 400)
  t.match(invalid.json(), { code: 'FST_ERR_VALIDATION', reason: 'old' }, 'the validation 400')
  const limited = await app.inject('/items?api-version=1.0')
  t.equal(limited.statusCode, 429)
  t.match(limited.json(), { statusCode: 429, reason: 'old' }, "@fastify/rate-limit's 429")
  t.same(seen.map(([status]) => status), [404, 400, 429])
  t.notOk('reason' in (await app.inject('/items?api-version=2.0&n=0')).json(), '2.0 has none')
})

t.test('the recipe: a changed error shape and a changed error status, each version served as its document says', async t => {
  const app = await service(app => {
    app.get('/things/:id', {
      versionChanges: true,
      schema: { response: { 200: Thing, 404: Type.Ref(NotFound), 410: { ...Type.Ref(NotFound), description: 'Versions before 2.0 answer 410 for a missing thing.' } } }
    }, async (request, reply) => Number((request.params as { id: string }).id) === 1 ? { id: 1, name: 'one' } : reply.code(404).send({ code: 'missing', message: 'no such thing' }))
  })
  for (const version of ['1.0', '2.0']) {
    const document = documentOf(app, version)
    const ajv = new Ajv({ strict: false })
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) ajv.addSchema(schema as object, `#/components/schemas/${name}`)
    for (const id of [1, 2]) {
      const res = await app.inject(`/things/${id}?api-version=${version}`)
      const documented = (document.paths['/things/{id}'] as Record<string, any>).get.responses[String(res.statusCode)]
      t.ok(documented !== undefined, `${version}: ${res.statusCode} is documented`)
      t.ok(ajv.validate(documented.content['application/json'].schema, res.json()), `${version}: ${res.body} is what its document says`)
    }
  }
  t.equal((await app.inject('/things/2?api-version=1.0')).statusCode, 410)
  t.equal((await app.inject('/things/2?api-version=2.0')).statusCode, 404)
})

t.test('a route migration gets every kind of body as it is: empty, 204, text, Buffer, stream; it may change status and headers', async t => {
  const seen: unknown[] = []
  const note = (route: string) => ({
    route,
    migrate: (response: ResponseToMigrate) => {
      const body = response.body
      seen.push(body === undefined || body === null ? body : Buffer.isBuffer(body) ? `Buffer ${body.toString()}` : typeof body === 'string' ? body : typeof (body as Readable).pipe === 'function' ? 'stream' : body)
      response.headers['x-old'] = '1'
      if (route === 'DELETE /notes/:id') response.statusCode = 200
      if (typeof body === 'string') return `old ${body}`
    }
  })
  const change = versionChange({ description: 'x', responses: [note('DELETE /notes/:id'), note('GET /text'), note('GET /buffer'), note('GET /stream'), note('GET /json-text')] })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.delete('/notes/:id', { versionChanges: true }, async (request, reply) => reply.code(204).send())
  app.get('/text', { versionChanges: true }, async () => 'hello')
  app.get('/buffer', { versionChanges: true }, async (request, reply) => reply.type('application/octet-stream').send(Buffer.from('bytes')))
  app.get('/stream', { versionChanges: true }, async (request, reply) => reply.type('text/plain').send(Readable.from(['streamed'])))
  app.get('/json-text', { versionChanges: true }, async (request, reply) => reply.type('application/json').send('{"a":1}'))
  const deleted = await app.inject({ method: 'DELETE', url: '/notes/1?api-version=1.0' })
  t.same([deleted.statusCode, deleted.headers['x-old']], [200, '1'], 'an empty 204, its status changed')
  t.same((await app.inject('/text?api-version=1.0')).body, 'old hello', 'a text, replaced by what the migration returned')
  t.same((await app.inject('/buffer?api-version=1.0')).body, 'bytes')
  t.same((await app.inject('/stream?api-version=1.0')).body, 'streamed')
  t.same((await app.inject('/json-text?api-version=1.0')).json(), { a: 1 }, 'JSON text: the migration got the object')
  t.same(seen, [undefined, 'hello', 'Buffer bytes', 'stream', { a: 1 }])
  t.equal((await app.inject('/text?api-version=2.0')).body, 'hello', 'the newest untouched')
})

t.test('a JSON text or Buffer a handler sends is converted like an object; one whose data cannot be read is refused, logged', async t => {
  const Item = Type.Object({ name: Type.String() })
  const change = versionChange({ description: 'x', fields: [{ schema: Item, field: 'name', renamedFrom: 'title' }] })
  const log = logged()
  const app = Fastify({ logger: { level: 'error', stream: log.stream } })
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.get('/items/:how', { versionChanges: true, schema: { response: { 200: Item } } }, async (request, reply) => {
    const how = (request.params as { how: string }).how
    if (how === 'text') return reply.type('application/json').send('{"name":"a"}')
    if (how === 'buffer') return reply.type('application/json').send(Buffer.from('{"name":"b"}'))
    if (how === 'plain') return reply.send('{"name":"c"}')
    if (how === 'stream') return reply.type('application/json').send(Readable.from(['{"name":"d"}']))
    return reply.type('application/json').send('not json')
  })
  t.same((await app.inject('/items/text?api-version=1.0')).json(), { title: 'a' })
  t.same((await app.inject('/items/buffer?api-version=1.0')).json(), { title: 'b' })
  t.same((await app.inject('/items/plain?api-version=1.0')).json(), { title: 'c' }, 'JSON in a text/plain string is data too')
  for (const how of ['stream', 'broken']) {
    const res = await app.inject(`/items/${how}?api-version=1.0`)
    t.equal(res.statusCode, 500, `${how}: refused`)
    t.equal(res.json().code, 'FST_API_VERSIONING_CONVERSION_FAILED')
    t.match(res.json().message, how === 'stream' ? /is a stream, but its schema changes in that version, so its data must be converted/ : /is a text that is no JSON/)
  }
  t.equal(log.lines.filter(line => line.level === 50).length, 2, 'logged')
  t.same((await app.inject('/items/text?api-version=2.0')).json(), { name: 'a' }, 'the newest as sent')
})

t.test('schema migrations on a schema of arrays or of scalars run on that value', async t => {
  const Tags = Type.Array(Type.String())
  const Price = Type.Number()
  const Item = Type.Object({ price: Price, tags: Tags })
  const change = versionChange({
    description: 'Prices in cents; tags upper-case.',
    requests: [{ schema: Price, migrate: request => (request.body as number) * 100 }, { schema: Tags, migrate: request => { (request.body as string[]).push('OLD') } }],
    responses: [{ schema: Price, migrate: response => (response.body as number) / 100 }, { schema: Tags, migrate: response => (response.body as string[]).map(tag => tag.toLowerCase()) }]
  })
  const app = Fastify()
  const seen: unknown[] = []
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.post('/items', { versionChanges: true, schema: { body: Item, response: { 200: Item } } }, async request => { seen.push(request.body); return { price: 250, tags: ['A', 'B'] } })
  app.post('/tags', { versionChanges: true, schema: { body: Tags, response: { 200: Tags } } }, async request => { seen.push(request.body); return ['X'] })
  const res = await app.inject({ method: 'POST', url: '/items?api-version=1.0', payload: { price: 1.5, tags: ['a'] } })
  t.same(res.json(), { price: 2.5, tags: ['a', 'b'] })
  t.same(seen.pop(), { price: 150, tags: ['a', 'OLD'] })
  const tags = await app.inject({ method: 'POST', url: '/tags?api-version=1.0', payload: ['q'] })
  t.same(tags.json(), ['x'], 'a body that is an array')
  t.same(seen.pop(), ['q', 'OLD'])
})

t.test("a migration's returned value replaces the body; one of another kind is refused at its first run, logged", async t => {
  const Item = Type.Object({ total: Type.Number() })
  const change = versionChange({
    description: 'x',
    requests: [{ route: 'POST /returned', migrate: request => ({ ...(request.body as object), total: 7 }) }],
    responses: [
      { route: 'GET /assigned', migrate: response => ((response.body as { total: number }).total = 1) },
      { schema: Item, migrate: response => ({ total: (response.body as { total: number }).total + 1 }) }
    ]
  })
  const log = logged()
  const app = Fastify({ logger: { level: 'error', stream: log.stream } })
  const seen: unknown[] = []
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.post('/returned', { versionChanges: true, schema: { body: Item } }, async request => { seen.push(request.body); return 'ok' })
  app.get('/assigned', { versionChanges: true }, async () => ({ total: 3 }))
  app.get('/item', { versionChanges: true, schema: { response: { 200: Item } } }, async () => ({ total: 3 }))
  t.equal((await app.inject({ method: 'POST', url: '/returned?api-version=1.0', payload: { total: 1 } })).statusCode, 200)
  t.same(seen, [{ total: 7 }], 'a returned object replaces the body')
  t.same((await app.inject('/item?api-version=1.0')).json(), { total: 4 })
  const assigned = await app.inject('/assigned?api-version=1.0')
  t.equal(assigned.statusCode, 500)
  t.match(assigned.json().message, /the change of 2\.0, responses\[0\]: its migrate returned a number, where the response body it converts is an object; return nothing to keep response\.body as the migration changed it, or return the new body/)
  t.equal(log.lines.filter(line => line.level === 50).length, 1)
})

t.test('an arrow that returns the body it assigned keeps it, of any kind; a Map or a Date where an object body was, or a symbol or bigint anywhere, is refused, naming the change', async t => {
  const Item = Type.Object({ total: Type.Number() })
  const Query = Type.Object({ q: Type.Optional(Type.String()) })
  const cases: Record<string, (body: { total: number, items?: unknown }) => unknown> = {
    unwrapped: () => undefined,
    map: body => new Map([['total', body.total]]),
    date: () => new Date(0)
  }
  let mode = 'unwrapped'
  const change = versionChange({
    description: 'x',
    responses: [
      { route: 'GET /list', migrate: response => (response.body = (response.body as { items: unknown[] }).items) },
      { route: 'GET /symbol', migrate: response => { response.body = Symbol('body') } },
      { route: 'GET /map', migrate: response => { response.body = new Map() } },
      { schema: Item, migrate: response => mode === 'unwrapped' ? undefined : cases[mode](response.body as { total: number }) }
    ],
    requests: [{ route: 'POST /big', migrate: () => 10n }, { schema: Query, migrate: () => [] }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.get('/list', { versionChanges: true }, async () => ({ items: [1, 2] }))
  app.get('/symbol', { versionChanges: true }, async () => ({ total: 1 }))
  app.get('/map', { versionChanges: true }, async () => ({ total: 1 }))
  app.get('/item', { versionChanges: true, schema: { response: { 200: Item } } }, async () => ({ total: 3 }))
  app.post('/big', { versionChanges: true }, async () => 'never')
  app.get('/query', { versionChanges: true, schema: { querystring: Query } }, async () => 'never')
  t.same((await app.inject('/list?api-version=1.0')).json(), [1, 2], 'an arrow returning what it assigned')
  t.match((await app.inject({ method: 'POST', url: '/big?api-version=1.0', payload: 'text', headers: { 'content-type': 'text/plain' } })).json(), { message: /requests\[0\]: its migrate returned a bigint as request\.body, which JSON cannot write/ })
  t.match((await app.inject('/query?api-version=1.0')).json(), { message: /requests\[1\]: its migrate returned an array, where the request body it converts is an object/ }, 'a query string, an object of no prototype')
  for (const [name, kind] of [['map', 'a Map'], ['date', 'a Date']]) {
    mode = name
    const res = await app.inject('/item?api-version=1.0')
    t.equal(res.statusCode, 500)
    t.match(res.json(), { code: 'FST_API_VERSIONING_CONVERSION_FAILED', message: new RegExp(`the change of 2\\.0, responses\\[3\\]: its migrate returned ${kind}, where the response body it converts is an object`) })
  }
  t.match((await app.inject('/map?api-version=1.0')).json(), { message: /responses\[2\]: its migrate left a Map as response\.body, where the body it converts is an object: JSON writes no object of its entries; leave a plain object, an array or a text there/ }, 'a Map left in the body')
  const symbol = await app.inject('/symbol?api-version=1.0')
  t.equal(symbol.statusCode, 500)
  t.match(symbol.json(), { code: 'FST_API_VERSIONING_CONVERSION_FAILED', message: /the change of 2\.0, responses\[1\]: its migrate left a symbol as response\.body, which JSON cannot write/ })
})

t.test('a converted error that its version\'s schema cannot write fails as a route of that schema does; a `default` schema serves errors too', async t => {
  const Problem = Type.Object({ code: Type.String(), message: Type.String() })
  const change = versionChange({
    description: 'x',
    fields: [{ schema: Problem, field: 'code', renamedFrom: 'kind' }],
    responses: [{ route: 'GET /broken', errors: true, migrate: response => { if (response.statusCode === 404) delete (response.body as { message?: string }).message } }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.get('/broken', { versionChanges: true, schema: { response: { 404: Problem } } }, async (request, reply) => reply.code(404).send({ code: 'x', message: 'm' }))
  app.get('/defaulted', { versionChanges: true, schema: { response: { default: Problem } } }, async (request, reply) => reply.code(409).send({ code: 'x', message: 'm' }))
  // As a route of that schema fails to write such a body: through the error handler, with the serializer's error.
  const broken = await app.inject('/broken?api-version=1.0')
  t.match(broken.json(), { message: /"message" is required/ })
  t.same((await app.inject('/defaulted?api-version=1.0')).json(), { kind: 'x', message: 'm' }, 'an error written with the newest default, then converted')
  t.same((await app.inject('/defaulted?api-version=2.0')).json(), { code: 'x', message: 'm' })
})

t.test('a body a route migration gives for an empty one is written as JSON; a nullable object is converted where it is one', async t => {
  const Line = Type.Object({ sku: Type.String() })
  const Holder = Type.Object({ line: Type.Union([Line, Type.Null()]) })
  const change = versionChange({
    description: 'x',
    fields: [{ schema: Line, field: 'sku', renamedFrom: 'code' }],
    responses: [{ route: 'DELETE /things', migrate: response => { response.statusCode = 200; return { deleted: true } } }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.delete('/things', { versionChanges: true }, async (request, reply) => reply.code(204).send())
  app.get('/holders/:n', { versionChanges: true, schema: { response: { 200: Holder } } }, async request => ({ line: (request.params as { n: string }).n === '0' ? null : { sku: 's' } }))
  const deleted = await app.inject({ method: 'DELETE', url: '/things?api-version=1.0' })
  t.same([deleted.statusCode, deleted.headers['content-type'], deleted.json()], [200, 'application/json; charset=utf-8', { deleted: true }])
  t.same((await app.inject('/holders/0?api-version=1.0')).json(), { line: null })
  t.same((await app.inject('/holders/1?api-version=1.0')).json(), { line: { code: 's' } })
})

t.test('a schema migration runs only for the statuses whose schemas hold its schema; an empty body where data must convert is refused', async t => {
  const Thing = Type.Object({ n: Type.Integer() })
  const Other = Type.Object({ m: Type.Integer() })
  const Nullable = { type: ['object', 'null'], properties: { sku: { type: 'string' } } }
  const change = versionChange({
    description: 'x',
    fields: [{ schema: Nullable, field: 'sku', renamedFrom: 'code' }],
    responses: [{ schema: Thing, errors: true, migrate: response => { (response.body as { n: number }).n = -1 } }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.get('/things/:status', { versionChanges: true, schema: { response: { 200: Thing, 201: Other, 404: Other, 409: Thing } } }, async (request, reply) => {
    const status = Number((request.params as { status: string }).status)
    return reply.code(status as 200).send(status === 200 || status === 409 ? { n: 1 } : { m: 1 })
  })
  app.get('/nullable/:empty', { versionChanges: true, schema: { response: { 200: Nullable } } }, async (request, reply) => (request.params as { empty: string }).empty === 'yes' ? reply.send() : null)
  t.same((await app.inject('/things/200?api-version=1.0')).json(), { n: -1 })
  t.same((await app.inject('/things/201?api-version=1.0')).json(), { m: 1 }, 'another schema of a success status')
  t.same((await app.inject('/things/404?api-version=1.0')).json(), { m: 1 }, 'another schema of an error status')
  t.same((await app.inject('/things/409?api-version=1.0')).json(), { n: -1 }, 'its schema, of an error status')
  t.equal((await app.inject('/nullable/no?api-version=1.0')).body, 'null', 'a null where the schema admits it')
  const empty = await app.inject('/nullable/yes?api-version=1.0')
  t.equal(empty.statusCode, 500)
  t.match(empty.json().message, /is no body, but its schema changes in that version, so its data must be converted: send the value \(an object\), not an empty body/)
})

t.test('a migration by $id gives what a shared schema needs; a change of a path parameter alone is a route of its own', async t => {
  const Money = { $id: 'Money', type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] }
  const Params = Type.Object({ id: Type.String() })
  const change = versionChange({
    description: 'x',
    fields: [
      { schema: 'Money', field: 'amount', changed: { schema: { type: 'string' } } },
      { schema: Params, field: 'id', changed: { schema: { type: 'string', pattern: '^[0-9]+$' } } }
    ],
    responses: [{ schema: 'Money', migrate: response => { const body = response.body as { amount: unknown }; body.amount = String(body.amount) } }]
  })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  app.addSchema(Money)
  app.get('/prices/:id', { versionChanges: true, schema: { params: Params, response: { 200: { $ref: 'Money#' } } } }, async () => ({ amount: 2.5 }))
  app.get('/ids/:id', { versionChanges: true, schema: { params: Params } }, async request => (request.params as { id: string }).id)
  t.same((await app.inject('/prices/1?api-version=1.0')).json(), { amount: '2.5' })
  t.equal((await app.inject('/ids/abc?api-version=1.0')).statusCode, 400, '1.0 took numeric ids only')
  t.equal((await app.inject('/ids/abc?api-version=2.0')).body, 'abc')
})

t.test('an object with toJSON (a Mongoose document, an ORM model) is converted as what its toJSON gives, which Fastify writes', async t => {
  // What Mongoose gives a handler: the data is a hidden _doc, which toJSON() gives.
  class Doc {
    constructor (doc: object) { Object.defineProperty(this, '_doc', { value: doc }) }
    toJSON (): unknown { return { ...(this as unknown as { _doc: object })._doc } }
  }
  const Owner = Type.Object({ fullName: Type.String(), email: Type.Optional(Type.String()) })
  const Order = Type.Object({ id: Type.Integer(), owner: Owner, owners: Type.Array(Owner) })
  const Customer = Type.Object({ id: Type.Integer(), fullName: Type.String(), since: Type.String({ format: 'date-time' }) })
  const seen: unknown[] = []
  const renamed = versionChange({
    description: "fullName (was 'name')",
    fields: [{ schema: Owner, field: 'fullName', renamedFrom: 'name' }, { schema: Customer, field: 'fullName', renamedFrom: 'name' }],
    responses: [{ schema: Customer, migrate: response => { seen.push((response.body as { fullName: string }).fullName) } }]
  })
  const emails = versionChange({ description: 'Owners have an email.', fields: [{ schema: Owner, field: 'email', added: true }] })
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, versionChanges: [{ version: '3.0', changes: [emails] }, { version: '2.0', changes: [renamed] }, { version: '1.0' }] })
  const owner = (): Doc => new Doc({ fullName: 'Ada', email: 'ada@example.com' })
  const order = { id: 1, owner: owner(), owners: [owner()] }
  app.get('/orders/:id', { versionChanges: true, schema: { response: { 200: Order } } }, async () => order)
  const since = new Date('2020-01-02T03:04:05.000Z')
  app.get('/customers/:id', { versionChanges: true, schema: { response: { 200: Customer } } }, async () => new Doc({ id: 1, fullName: 'Ada', since }))
  await app.ready()
  const bodies = async (url: string): Promise<unknown[]> => await Promise.all(['1.0', '2.0', '3.0'].map(async v => (await app.inject(`${url}?api-version=${v}`)).json()))
  t.same(await bodies('/orders/1'), [
    { id: 1, owner: { name: 'Ada' }, owners: [{ name: 'Ada' }] },
    { id: 1, owner: { fullName: 'Ada' }, owners: [{ fullName: 'Ada' }] },
    { id: 1, owner: { fullName: 'Ada', email: 'ada@example.com' }, owners: [{ fullName: 'Ada', email: 'ada@example.com' }] }
  ], 'renames alone')
  t.same(await bodies('/customers/1'), [
    { id: 1, name: 'Ada', since: '2020-01-02T03:04:05.000Z' },
    { id: 1, fullName: 'Ada', since: '2020-01-02T03:04:05.000Z' },
    { id: 1, fullName: 'Ada', since: '2020-01-02T03:04:05.000Z' }
  ], 'with a migration, which sees the data')
  t.same(seen, ['Ada'])
  t.ok(order.owner instanceof Doc, 'the handler\'s value is as it was')
  const converted = await Promise.all(['1.0', '2.0', '3.0'].map(async version => await app.convertToApiVersion({ schema: Order, value: order, version })))
  t.same(converted, await bodies('/orders/1'), 'convertToApiVersion, the newest version too')
})

t.test('a Date where a text schema a migration names stands is written by the serializer, by its format, in every version: the migration runs on texts', async t => {
  const When = Type.String({ format: 'date-time' })
  const Day = Type.String({ format: 'date' })
  const seen: unknown[] = []
  const migrate = (response: { body: unknown }): unknown => { seen.push(response.body); return response.body }
  const day = versionChange({ description: 'x', responses: [{ schema: When, migrate }, { schema: Day, migrate }] })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [day] }, { version: '1.0' }] })
  const at = new Date('2020-01-02T03:04:05.000Z')
  app.get('/a', { versionChanges: true, schema: { response: { 200: Type.Object({ at: When, maybe: Type.Union([When, Type.Null()]), day: Day, text: When }) } } }, async () => ({ at, maybe: at, day: at, text: '2021-01-01T00:00:00.000Z' }))
  await app.ready()
  const newest = (await app.inject('/a?api-version=2.0')).json()
  t.same((await app.inject('/a?api-version=1.0')).json(), newest, 'as the newest writes it (a date by its format)')
  t.same(seen, ['2021-01-01T00:00:00.000Z'])
})

t.test('a response an app hook answers before the route takes the request is converted too, or refused where it cannot be', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [versionChange({ description: "name (was 'title')", fields: [{ schema: Thing, field: 'name', renamedFrom: 'title' }] })] }, { version: '1.0' }] })
  // Answered from the app's onRequest hook, before the route's own: a cache's hit, a text it cannot read.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/cached')) await reply.type('application/json').send(JSON.stringify({ id: 1, name: 'kettle' }))
    if (request.url.startsWith('/broken')) await reply.type('application/json').send('{ not json')
  })
  for (const url of ['/cached', '/broken']) app.get(url, { versionChanges: true, schema: { response: { 200: Thing } } }, async () => ({ id: 1, name: 'kettle' }))
  await app.ready()
  t.same((await app.inject('/cached?api-version=1.0')).json(), { id: 1, title: 'kettle' })
  const broken = await app.inject('/broken?api-version=1.0')
  t.match([broken.statusCode, broken.json()], [500, { code: 'FST_API_VERSIONING_CONVERSION_FAILED' }])
})
