import t from 'tap'
import Fastify, { type FastifyReply } from 'fastify'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import { Type } from '@sinclair/typebox'
import apiVersioning, { errorObjects, type ProblemWriter } from '../lib/index.js'
import { build, problem, says } from './helpers.js'

type LogLine = { level: number, msg: string, err?: { message: string } }

function logged (): { lines: LogLine[], stream: { write: (line: string) => void } } {
  const lines: LogLine[] = []
  return { lines, stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } }
}

const asyncOnSend = async (request: unknown, reply: unknown, payload: unknown) => payload

t.test('a problem writer may return nothing, a promise or the reply; none crashes or logs a warning', async t => {
  const writers: Record<string, ProblemWriter> = {
    returnsReply: { canWrite: () => true, write: ({ problem, reply }) => reply.code(problem.status).send({ by: 'reply' }) },
    returnsNothing: { canWrite: () => true, write: ({ problem, reply }) => { reply.code(problem.status).send({ by: 'nothing' }) } },
    returnsPromise: { canWrite: () => true, write: async ({ problem, reply }) => { await new Promise(resolve => setImmediate(resolve)); reply.code(problem.status).send({ by: 'promise' }) } }
  }
  for (const [name, writer] of Object.entries(writers)) {
    for (const withHook of [false, true]) {
      const { lines, stream } = logged()
      const app = Fastify({ logger: { level: 'warn', stream } })
      if (withHook) app.addHook('onSend', asyncOnSend)
      await app.register(apiVersioning, { problemDetails: true, problemWriters: [writer] })
      app.get('/a', { apiVersions: '1.0' }, says('a'))
      app.get('/mine', async (request, reply) => reply.problem({ status: 409 }))
      app.get('/mine-sync', (request, reply) => { reply.problem({ status: 409 }) })
      const res = await app.inject('/a?api-version=2')
      t.equal(res.statusCode, 400, `${name} ${withHook}`)
      t.same(res.json(), { by: name.slice(7).toLowerCase() }, `${name} ${withHook}`)
      t.equal((await app.inject('/mine')).statusCode, 409)
      t.equal((await app.inject('/mine-sync')).statusCode, 409)
      t.same(lines, [], `${name}, async onSend ${withHook}: nothing logged`)
      await app.close()
    }
  }
})

t.test('writing a problem leaves the reply object as Fastify made it', async t => {
  // A property set on a reply (even if deleted again) turns replies into slow objects: every later request pays.
  const owned: string[] = []
  const app = await build({ problemDetails: true, problemWriters: [{ canWrite: ({ problem }) => problem.status === 409, write: ({ reply }) => reply.code(409).send('mine') }] }, app => {
    app.addHook('onResponse', async (request, reply) => { owned.push(...Object.keys(reply).filter(key => key === 'send')) })
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    app.get('/mine', async (request, reply) => reply.problem({ status: 409 }))
  })
  t.equal((await app.inject('/a?api-version=2')).statusCode, 400)
  t.equal((await app.inject('/mine')).body, 'mine')
  t.same(owned, [])
})

t.test('a writer that throws, rejects or never sends is answered 500 and logged by name', async t => {
  const writers: Array<[ProblemWriter, string, RegExp]> = [
    [{ canWrite: () => true, write: () => { throw new Error('boom') } }, 'problemWriters[0]', /boom/],
    [{ canWrite: () => { throw new Error('can') }, write: () => {} }, 'problemWriters[0]', /can/],
    [{ name: 'lazy', canWrite: () => true, write: () => {} }, 'lazy', /lazy neither sent the reply nor returned a promise/],
    [{ name: 'later', canWrite: () => true, write: async () => {} }, 'later', /later neither sent/],
    [{ name: 'rejects', canWrite: () => true, write: async () => { throw new Error('nope') } }, 'rejects', /nope/],
    [{ name: 'odd', canWrite: () => true, write: () => Promise.reject('text') }, 'odd', /text/], // eslint-disable-line prefer-promise-reject-errors
    [{ name: 'late', canWrite: () => true, write: async ({ reply }) => { reply.code(400).send('x'); throw new Error('late') } }, 'late', /late/]
  ]
  for (const [writer, name, message] of writers) {
    const { lines, stream } = logged()
    const app = Fastify({ logger: { level: 'error', stream } })
    app.addHook('onSend', asyncOnSend)
    await app.register(apiVersioning, { problemDetails: true, problemWriters: [writer] })
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    const res = await app.inject('/a?api-version=2')
    const failed = lines.find(line => line.msg.includes(`${name} failed to write a problem`))
    t.ok(failed, name)
    t.match(failed?.err?.message, message, name)
    if (name === 'late') t.equal(res.statusCode, 400, 'a reply already on its way is left alone')
    else t.equal(res.statusCode, 500, name)
    await app.close()
  }
})

t.test('reply.problem() refuses what it cannot send: a 500, never a crash or a hang', async t => {
  const cycle: Record<string, unknown> = { status: 400 }
  cycle.self = cycle
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'error', stream } })
  await app.register(apiVersioning, { problemDetails: true })
  app.get('/bigint', async (request, reply) => reply.problem({ status: 400, amount: 10n }))
  app.get('/cycle', async (request, reply) => reply.problem(cycle as { status: number }))
  app.get('/status/:n', async (request, reply) => reply.problem({ status: Number((request.params as { n: string }).n) }))
  app.get('/bigint-status', async (request, reply) => reply.problem({ status: 400n as unknown as number }))
  app.get('/array', async (request, reply) => reply.problem([] as unknown as { status: number }))
  for (const url of ['/bigint', '/cycle']) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 500, url)
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', url)
  }
  for (const [url, message] of [['/status/100', /got 100/], ['/status/302', /got 302/], ['/status/600', /got 600/], ['/bigint-status', /got 400n/], ['/array', /needs a problem object$/]] as const) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 500, url)
    t.match(res.json().message, message, url)
  }
  t.equal((await app.inject('/status/599')).statusCode, 599)
  t.ok(lines.some(line => /reply.problem\(\) needs a problem whose status is an integer from 400 to 599 \(got 100\)/.test(line.msg)))
})

t.test('a path parameter renamed between versions is the same path, as the router says', async t => {
  const app = await build({ problemDetails: true, reportApiVersions: true }, app => {
    app.get('/orders/:id', { apiVersions: '1.0' }, async request => ({ v: 1, params: request.params }))
    app.get('/orders/:orderId', { apiVersions: '2.0' }, async request => ({ v: 2, params: request.params }))
    app.get('/items/:id(^\\d+$)', { apiVersions: '1.0' }, says('digits 1'))
    app.get('/items/:n(^\\d+$)', { apiVersions: '2.0' }, says('digits 2'))
  })
  const v1 = await app.inject('/orders/7?api-version=1.0')
  t.same(v1.json(), { v: 1, params: { id: '7' } })
  t.equal(v1.headers['api-supported-versions'], '1.0, 2.0')
  t.same((await app.inject('/orders/7?api-version=2.0')).json(), { v: 2, params: { orderId: '7' } })
  const bad = await app.inject('/orders/7?api-version=3.0')
  t.same(bad.json(), problem('unsupported'))
  t.equal(bad.headers['api-supported-versions'], '1.0, 2.0')
  t.same((await app.inject('/items/7?api-version=2')).json(), { route: 'digits 2', version: '2' })
  t.same((await app.inject('/items/7?api-version=3')).json(), problem('unsupported'))
})

t.test('router options decide which paths are one path', async t => {
  const cases: Array<[Record<string, boolean>, string, string, string[]]> = [
    [{ caseSensitive: false }, '/Orders', '/orders', ['/ORDERS', '/orders']],
    [{ ignoreTrailingSlash: true }, '/orders', '/orders/', ['/orders', '/orders/']],
    [{ ignoreDuplicateSlashes: true }, '/a//orders', '/a/orders', ['/a/orders', '/a//orders']]
  ]
  for (const [routerOptions, first, second, urls] of cases) {
    const app = await build({ problemDetails: true, reportApiVersions: true }, app => {
      app.get(first, { apiVersions: '1.0' }, says('one'))
      app.get(second, { apiVersions: '2.0' }, says('two'))
    }, { routerOptions })
    for (const url of urls) {
      t.same((await app.inject(url + '?api-version=1')).json(), { route: 'one', version: '1' }, `${url} ${JSON.stringify(routerOptions)}`)
      t.same((await app.inject(url + '?api-version=2')).json(), { route: 'two', version: '2' }, url)
      const bad = await app.inject(url + '?api-version=3')
      t.same(bad.json(), problem('unsupported'), url)
      t.equal(bad.headers['api-supported-versions'], '1.0, 2.0', url)
    }
  }
  const strict = await build(undefined, app => {
    app.get('/Orders', { apiVersions: '1.0' }, says('one'))
    app.get('/orders', { apiVersions: '1.0' }, says('two'))
  })
  t.same((await strict.inject('/Orders?api-version=1')).json(), { route: 'one', version: '1' }, 'case matters by default')
})

t.test('a version problem comes after every onRequest hook and before the body is read', async t => {
  const seen: string[] = []
  const app = await build({ problemDetails: true }, app => {
    app.addHook('onRequest', async request => { seen.push('app ' + request.url) })
    app.post('/orders', { apiVersions: '1.0', bodyLimit: 10, schema: { body: { type: 'object' } } }, says('create'))
    app.get('/health', {
      apiVersionNeutral: true,
      onRequest: async (request, reply) => { if (request.headers.authorization === undefined) return reply.code(401).send({ auth: 'required' }) }
    }, says('health'))
    app.get('/secret', {
      apiVersions: '1.0',
      onRequest: async (request, reply) => { if (request.headers.authorization === undefined) return reply.code(401).send({ auth: 'required' }) }
    }, says('secret'))
    app.get('/secret', { apiVersions: '2.0' }, says('secret 2'))
  })
  const post = (url: string, payload: string, type = 'application/json') => app.inject({ method: 'POST', url, payload, headers: { 'content-type': type } })
  t.same((await post('/orders?api-version=2', '<order/>', 'application/xml')).json(), problem('unsupported'), 'not 415')
  t.same((await post('/orders?api-version=2', '{broken')).json(), problem('unsupported'), 'not a JSON error')
  t.same((await post('/orders?api-version=2', '{"a":"more than ten bytes"}')).json(), problem('unsupported'), 'not 413')
  t.same((await post('/orders?api-version=x', '{broken')).json(), problem('invalid'))
  t.equal((await post('/orders?api-version=1', '{broken')).json().code, 'FST_ERR_CTP_INVALID_JSON_BODY', 'the right version still parses its body')
  t.equal((await post('/orders?api-version=1', '<order/>', 'application/xml')).statusCode, 415)
  t.same(seen, ['app /orders?api-version=2', 'app /orders?api-version=2', 'app /orders?api-version=2', 'app /orders?api-version=x', 'app /orders?api-version=1', 'app /orders?api-version=1'])

  t.same((await app.inject('/health?api-version=x')).json(), { auth: 'required' }, 'a neutral route runs its own hooks first')
  t.same((await app.inject({ url: '/health?api-version=x', headers: { authorization: 'y' } })).json(), problem('invalid'))
  t.same((await app.inject({ url: '/health?api-version=1', headers: { authorization: 'y' } })).json(), { route: 'health', version: '1' })
  t.same((await app.inject('/secret?api-version=9')).json(), { auth: 'required' }, 'a wrong version runs the hooks of the first route on the path')
  t.same((await app.inject({ url: '/secret?api-version=9', headers: { authorization: 'y' } })).json(), problem('unsupported'))
})

t.test('@fastify/rate-limit counts requests with a bad version too', async t => {
  const limited = async () => {
    const app = Fastify()
    await app.register(apiVersioning, { problemDetails: true })
    await app.register(rateLimit, { max: 2, timeWindow: 60_000 })
    app.get('/health', { apiVersionNeutral: true }, says('health'))
    app.get('/orders', { apiVersions: '1.0' }, says('orders'))
    app.get('/limited', { apiVersions: '1.0', config: { rateLimit: { max: 1, timeWindow: 60_000 } } }, says('limited'))
    return app
  }
  for (const url of ['/health?api-version=x', '/orders?api-version=9']) {
    const app = await limited()
    t.equal((await app.inject(url)).statusCode, 400, url)
    t.equal((await app.inject(url)).statusCode, 400, url)
    t.equal((await app.inject(url)).statusCode, 429, url)
  }
  const app = await limited()
  t.equal((await app.inject('/limited?api-version=9')).statusCode, 400)
  t.equal((await app.inject('/limited?api-version=9')).statusCode, 429, 'the hidden route has the route config')
})

t.test('strict querystring schemas accept the version query names, and nothing else', async t => {
  const query = Type.Object({ page: Type.Optional(Type.Integer()) }, { additionalProperties: false })
  const shared = { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false, $id: 'page-query' } as const
  const app = await build({ problemDetails: true, versionReader: { query: ['api-version', 'v'] } }, app => {
    app.get('/orders', { apiVersions: '1.0', schema: { querystring: query } }, async request => request.query)
    app.get('/health', { apiVersionNeutral: true, schema: { query: { ...shared, $id: undefined } } as object }, async request => request.query)
    app.get('/plain', { schema: { querystring: { ...shared, $id: 'plain-query' } } }, async request => request.query)
    app.get('/mine', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { v: { type: 'string', enum: ['1'] } }, additionalProperties: false } } }, async request => request.query)
    app.get('/both', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { v: { type: 'string' }, 'api-version': { type: 'string', enum: ['1'] } }, additionalProperties: false } } }, async request => request.query)
    app.get('/bare', { apiVersions: '1.0', schema: { querystring: { type: 'object', additionalProperties: false } } }, async request => request.query)
    app.get('/open', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { page: { type: 'integer' } } } } }, async request => request.query)
  }, { ajv: { customOptions: { removeAdditional: false } } })
  t.same((await app.inject('/orders?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.same((await app.inject('/orders?v=1.0')).json(), { v: '1.0' })
  t.equal((await app.inject('/orders?api-version=1.0&page=2&other=1')).statusCode, 400, 'other names are still rejected')
  t.same((await app.inject('/health?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.equal((await app.inject('/health?nope=1')).statusCode, 400)
  t.equal((await app.inject('/plain?api-version=1.0')).statusCode, 400, 'unversioned routes are left as declared')
  t.equal((await app.inject('/mine?api-version=1&v=2')).statusCode, 400, "a route's own definition of a name is kept")
  t.equal((await app.inject('/both?api-version=1.0')).statusCode, 400, 'a route that defines every name keeps its schema')
  t.same((await app.inject('/bare?api-version=1')).json(), { 'api-version': '1' })
  t.equal((await app.inject('/bare?api-version=1&x=1')).statusCode, 400)
  t.same((await app.inject('/open?api-version=1&x=1')).json(), { 'api-version': '1', x: '1' })
  t.equal(query.properties['api-version' as 'page'], undefined, "the user's schema object is not changed")
})

t.test("get('') under a prefix takes what Fastify takes", async t => {
  const app = await build(undefined, async app => {
    await app.register(async scope => {
      scope.get('', { apiVersions: '1.0' }, says('empty'))
      scope.post('/', { apiVersions: '1.0' }, says('slash'))
    }, { prefix: '/api' })
  })
  t.same((await app.inject('/api?api-version=1.0')).json(), { route: 'empty', version: '1.0' })
  t.same((await app.inject('/api?api-version=9')).json(), problem('unsupported'))
  t.equal((await app.inject('/api/?api-version=1.0')).statusCode, 404)
  t.equal((await app.inject('/api/?api-version=9')).statusCode, 404)
  t.equal((await app.inject({ url: '/api/', headers: { 'api-version': '9' } })).statusCode, 404)
  t.equal((await app.inject({ method: 'HEAD', url: '/api?api-version=9' })).statusCode, 400)
  t.equal((await app.inject({ method: 'POST', url: '/api/?api-version=9' })).statusCode, 400)
  t.equal((await app.inject({ method: 'POST', url: '/api?api-version=9' })).statusCode, 400)

  const plain = Fastify()
  await plain.register(async scope => { scope.get('', says('empty')) }, { prefix: '/api' })
  t.equal((await plain.inject('/api/')).statusCode, 404, 'as Fastify itself')
})

t.test('a request that fails the other constraints of a route gets 404 whatever its version', async t => {
  const app = await build({ problemDetails: true, reportApiVersions: true }, app => {
    app.get('/a', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('a host'))
    app.get('/a', { apiVersions: '1.0', constraints: { host: 'b.example' } }, says('b host'))
    app.get('/a', { apiVersions: '2.0' }, says('any host'))
  })
  const on = (host: string, version: string) => app.inject({ url: '/a' + version, headers: { host } })
  t.same((await on('a.example', '?api-version=1')).json(), { route: 'a host', version: '1' })
  t.same((await on('b.example', '?api-version=1')).json(), { route: 'b host', version: '1' })
  t.same((await on('c.example', '?api-version=2')).json(), { route: 'any host', version: '2' })
  t.same((await on('a.example', '?api-version=2')).json(), { route: 'any host', version: '2' })
  t.same((await on('a.example', '?api-version=9')).json(), problem('unsupported'))
  t.same((await on('c.example', '?api-version=9')).json(), problem('unsupported'))

  const only = await build(undefined, app => {
    app.get('/h', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('a host'))
    app.get('/v:apiVersion/h', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('a host path'))
  })
  t.same((await only.inject({ url: '/v1/h', headers: { host: 'a.example' } })).json(), { route: 'a host path', version: '1' })
  t.same((await only.inject({ url: '/v2/h', headers: { host: 'a.example' } })).json(), problem('unsupported', 404))
  t.equal((await only.inject({ url: '/v1/h', headers: { host: 'b.example' } })).statusCode, 404)
  for (const version of ['?api-version=1', '?api-version=9', '', '?api-version=x']) {
    t.equal((await only.inject({ url: '/h' + version, headers: { host: 'b.example' } })).statusCode, 404, version)
  }
  t.equal((await only.inject({ url: '/h?api-version=9', headers: { host: 'a.example' } })).statusCode, 400)
})

t.test('errorObjects codes are identifiers made from the reason phrase', async t => {
  const app = Fastify()
  await app.register(errorObjects, { allErrors: true })
  await app.register(apiVersioning, { problemDetails: true })
  app.get('/:status', async (request, reply) => { reply.code(Number((request.params as { status: string }).status)).send(new Error('x')) })
  app.get('/problem/:status', async (request, reply) => reply.problem({ status: Number((request.params as { status: string }).status), title: 't' }))
  const cases: Array<[number, string]> = [[418, 'ImATeapot'], [414, 'URITooLong'], [203, ''], [500, 'InternalServerError'], [404, 'NotFound']]
  for (const [status, code] of cases) {
    if (code === '') continue
    t.equal((await app.inject('/' + status)).json().error.code, code, String(status))
  }
  t.same((await app.inject('/problem/409')).json(), { error: { code: 'Conflict', message: 't' } }, 'problems without a code get one too')
  t.equal((await app.inject('/problem/499')).json().error.code, 'Error', 'a status without a reason phrase')
})

t.test('the plugin says so when routes come before it or route options are misspelt', async t => {
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'warn', stream } })
  app.get('/early', { apiVersions: '1.0' }, says('early'))
  await app.register(apiVersioning)
  app.get('/a', { apiVersion: '1.0' } as object, says('a'))
  app.get('/b', { config: { apiVersions: '1.0' } }, says('b'))
  app.get('/c', { deprecatedApiVersion: '1.0', config: { apiVersionNeutral: true } } as object, says('c'))
  app.get('/v:version/d', { apiVersions: '1.0' }, says('d'))
  app.get('/plain/:version', says('plain'))
  app.get('/v:apiVersion/e', { apiVersions: '1.0' }, says('e'))
  await app.ready()
  t.match(lines.map(line => line.msg), [
    /routes were declared before the plugin was loaded \(\/early \(GET, HEAD\)\).*await app.register\(apiVersioning/,
    /route GET \/a has the option apiVersion, which is ignored; did you mean apiVersions\?/,
    /route GET \/b has config.apiVersions, which is ignored; apiVersions is a route option, beside config/,
    /route GET \/c has the option deprecatedApiVersion, which is ignored; did you mean deprecatedApiVersions\?/,
    /route GET \/c has config.apiVersionNeutral, which is ignored/,
    /route GET \/v:version\/d has the path parameter :version, which is ignored; the version in the path is read from :apiVersion \(versionReader.urlSegment\), as in \/v:apiVersion\/\.\.\./
  ])
  t.equal(lines.length, 6)

  const off = logged()
  const noPath = Fastify({ logger: { level: 'warn', stream: off.stream } })
  await noPath.register(apiVersioning, { versionReader: { urlSegment: false } })
  noPath.get('/v:apiVersion/x', { apiVersions: '1.0' }, says('x'))
  await noPath.ready()
  t.match(off.lines.map(line => line.msg), [/route GET \/v:apiVersion\/x has the path parameter :apiVersion, which is ignored; the version is not read from the path \(versionReader.urlSegment is false\)/])
})

t.test('@fastify/cors registered first is no route declared too early', async t => {
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'warn', stream } })
  await app.register(cors, { exposedHeaders: ['api-supported-versions'] })
  await app.register(apiVersioning, { problemDetails: true, reportApiVersions: true })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  const res = await app.inject({ url: '/a?api-version=1', headers: { origin: 'https://x.example' } })
  t.equal(res.headers['access-control-expose-headers'], 'api-supported-versions')
  t.equal((await app.inject({ method: 'OPTIONS', url: '/a', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } })).statusCode, 204)
  t.same(lines, [])
})

t.test("the router's limit of routes on one path is a start-up error of ours", async t => {
  const app = Fastify()
  await app.register(apiVersioning)
  for (let i = 1; i <= 30; i++) app.get('/a', { apiVersions: `${i}.0` }, says(String(i)))
  t.throws(() => app.get('/a', { apiVersions: '31.0' }, says('31')), /route GET \/a is one route too many: the router takes at most 31 routes on one method and path, the plugin's hidden route included; list several versions on one route instead/)
  app.get('/b', { apiVersions: Array.from({ length: 100 }, (_, i) => `${i}.0`) }, says('b'))
  await app.ready()
  t.equal((await app.inject('/a?api-version=30')).statusCode, 200)
  t.equal((await app.inject('/b?api-version=99')).statusCode, 200)
})

t.test('printRoutes shows versions as text', async t => {
  const app = await build(undefined, app => {
    app.get('/a', { apiVersions: ['1.0', '2.0'] }, says('a'))
    app.get('/v:apiVersion/b', { apiVersions: '1' }, says('b'))
  })
  await app.ready()
  const printed = app.printRoutes()
  t.match(printed, /a \(GET, HEAD\) \{"apiVersion":\["1\.0","2\.0"\]\}/)
  t.match(printed, /\{"apiVersion":"\(version problems\)"\}/)
  t.match(printed, /\{"apiVersion":\["1","\(in path\)"\]\}/)
  t.notMatch(printed, /\\u0000|\|/)
})

t.test('the problem writer sees a reply it can return from an async handler', async t => {
  const app = await build({ problemDetails: true }, app => {
    app.get('/x', async (request, reply: FastifyReply) => {
      const returned = reply.problem({ status: 404, title: 'Not here' })
      t.equal(returned, reply)
      return returned
    })
  })
  t.same((await app.inject('/x')).json(), { type: 'about:blank', title: 'Not here', status: 404 })
})
