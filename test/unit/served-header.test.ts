import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange } from '../../lib/index.js'
import { build, says } from './helpers.js'

const SERVED = 'x-api-version'

t.test('servedApiVersionHeader: every response of a versioned route names the version that served it, as the route declares it', async t => {
  const app = await build({ problemDetails: true, servedApiVersionHeader: 'X-API-Version' }, app => {
    app.get('/orders', { apiVersions: '1.0' }, says('one'))
    app.get('/orders', { apiVersions: ['2.0', '2024-06-01'], deprecatedApiVersions: '0.9' }, says('two'))
    app.get('/api/v:apiVersion/items', { apiVersions: ['1', '2.0'] }, says('items'))
    app.get('/hosted', { apiVersions: '1.0', constraints: { host: 'h.example' } }, says('hosted'))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
    app.get('/health', says('health'))
  })
  const cases: Array<[string, number, string | undefined, string]> = [
    ['/orders?api-version=1', 200, '1.0', 'the client asked for 1: the route says 1.0'],
    ['/orders?api-version=2', 200, '2.0', 'another route of the path'],
    ['/orders?api-version=0.9', 200, '0.9', 'a deprecated version'],
    ['/orders?api-version=2024-06-01', 200, '2024-06-01', 'a dated version'],
    ['/api/v2/items', 200, '2.0', 'from the path'],
    ['/api/v1.0/items', 200, '1', 'from the path, as declared'],
    ['/ping?api-version=2.0', 200, '2.0', 'a neutral route that serves a version some route declares'],
    ['/ping', 200, undefined, 'a neutral route served as no version'],
    ['/health?api-version=1.0', 200, undefined, 'an unversioned route'],
    ['/nope?api-version=1.0', 404, undefined, 'no route']
  ]
  for (const [url, status, served, why] of cases) {
    const res = await app.inject(url)
    t.equal(res.statusCode, status, url)
    t.equal(res.headers[SERVED], served, `${url}: ${why}`)
  }
  const hosted = await app.inject({ url: '/hosted?api-version=1', headers: { host: 'h.example' } })
  t.same([hosted.statusCode, hosted.headers[SERVED]], [200, '1.0'], 'a route with another constraint')
  const head = await app.inject({ method: 'HEAD', url: '/orders?api-version=2' })
  t.same([head.statusCode, head.headers[SERVED]], [200, '2.0'], 'HEAD')
})

t.test('servedApiVersionHeader: no version chosen, no header: the version problems', async t => {
  const app = await build({ problemDetails: true, reportApiVersions: true, servedApiVersionHeader: SERVED, policies: { 0.5: { sunset: { date: '2020-01-01', enforce: true } } } }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.5' }, says('orders'))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
  })
  for (const [url, status] of [
    ['/orders', 400], ['/orders?api-version=3.0', 400], ['/orders?api-version=x', 400], ['/orders?api-version=1&api-version=2', 400],
    ['/orders?api-version=0.5', 400], ['/ping?api-version=3.0', 400], ['/ping?api-version=0.5', 400]
  ] as const) {
    const res = await app.inject(url)
    t.equal(res.statusCode, status, url)
    t.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', url)
    t.equal(res.headers[SERVED], undefined, `${url}: no version served`)
  }
  t.equal((await app.inject('/orders?api-version=3.0')).headers['api-supported-versions'], '1.0, 2.0', 'beside the reported versions')
})

t.test('servedApiVersionHeader: the errors of a served version carry it', async t => {
  const app = await build({ problemDetails: true, servedApiVersionHeader: SERVED }, app => {
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers.authorization === undefined) return reply.code(401).send({ message: 'who?' })
    })
    app.get('/orders', { apiVersions: '1.0', schema: { querystring: Type.Object({ page: Type.Integer() }) } }, says('orders'))
    app.get('/fails', { apiVersions: '1.0' }, async () => { throw new Error('boom') })
    app.get('/gone', { apiVersions: '1.0' }, async (request, reply) => reply.problem({ status: 410, title: 'Gone' }))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
  })
  const authorized = { authorization: 'yes' }
  const cases: Array<[string, Record<string, string>, number]> = [
    ['/orders?api-version=1&page=x', authorized, 400],
    ['/fails?api-version=1', authorized, 500],
    ['/gone?api-version=1', authorized, 410],
    ['/orders?api-version=1&page=1', {}, 401],
    // A neutral route reads the version in its own onRequest hook, which the app's answered before.
    ['/ping?api-version=1', {}, 401]
  ]
  for (const [url, headers, status] of cases) {
    const res = await app.inject({ url, headers })
    t.equal(res.statusCode, status, url)
    t.equal(res.headers[SERVED], '1.0', `${url}: ${status}`)
  }
  t.equal((await app.inject('/ping')).headers[SERVED], undefined, 'a neutral route\'s 401 to a request of no version')
})

t.test('servedApiVersionHeader: an assumed default and a selector\'s choice', async t => {
  const routes = (app: import('fastify').FastifyInstance): void => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '3.0' }, says('orders'))
    app.get('/hosted', { apiVersions: ['1.0', '2.0'], constraints: { host: 'h.example' } }, says('hosted'))
  }
  const assumed = await build({ assumeDefaultVersionWhenUnspecified: true, defaultVersion: '1', servedApiVersionHeader: SERVED }, routes)
  const res = await assumed.inject('/orders')
  t.same([res.json().version, res.headers[SERVED]], ['1', '1.0'], 'the default assumed, as the route declares it')
  const hosted = await assumed.inject({ url: '/hosted', headers: { host: 'h.example' } })
  t.same([hosted.statusCode, hosted.headers[SERVED]], [200, '1.0'], 'the default assumed on a route with another constraint')
  const current = await build({ assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: 'current', servedApiVersionHeader: SERVED }, routes)
  t.equal((await current.inject('/orders')).headers[SERVED], '3.0', "'current'")
  const lowest = await build({ assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: 'lowest', servedApiVersionHeader: SERVED }, routes)
  t.equal((await lowest.inject('/orders')).headers[SERVED], '1.0', "'lowest'")
  const chosen = await build({ assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: () => '2', servedApiVersionHeader: SERVED }, routes)
  t.equal((await chosen.inject('/orders')).headers[SERVED], '2.0', 'a function, its choice as the route declares it')
  t.equal((await chosen.inject('/orders?api-version=1')).headers[SERVED], '1.0', 'a version given is no selector\'s')
})

t.test('servedApiVersionHeader: versionChanges routes name the version as the list does, older and newest', async t => {
  const Order = Type.Object({ id: Type.Integer(), createdAt: Type.String() })
  const Filter = Type.Object({ page: Type.Optional(Type.Integer()) })
  const renamed = versionChange({ description: "Orders call their creation time 'createdAt'.", fields: [{ schema: Order, field: 'createdAt', renamedFrom: 'created' }] })
  const app = await build({ problemDetails: true, servedApiVersionHeader: SERVED, versionChanges: [{ version: '2024-06-01', changes: [renamed] }, { version: '2.0' }, { version: '1', deprecated: true }] }, app => {
    app.get('/orders', { versionChanges: true, schema: { querystring: Filter, response: { 200: Order } } }, async () => ({ id: 1, createdAt: 'now' }))
  })
  const cases: Array<[string, number, string, object | null]> = [
    ['/orders?api-version=2024-06-01', 200, '2024-06-01', { id: 1, createdAt: 'now' }],
    ['/orders?api-version=2', 200, '2.0', { id: 1, created: 'now' }],
    ['/orders?api-version=1.0', 200, '1', { id: 1, created: 'now' }],
    ['/orders?api-version=2.0&page=x', 400, '2.0', null],
    ['/orders?api-version=2024-06-01&page=x', 400, '2024-06-01', null]
  ]
  for (const [url, status, served, body] of cases) {
    const res = await app.inject(url)
    t.equal(res.statusCode, status, url)
    if (body !== null) t.same(res.json(), body, url)
    t.equal(res.headers[SERVED], served, url)
  }
  const head = await app.inject({ method: 'HEAD', url: '/orders?api-version=2.0' })
  t.same([head.statusCode, head.headers[SERVED]], [200, '2.0'], 'HEAD of an older version')
  t.equal((await app.inject('/orders?api-version=3.0')).headers[SERVED], undefined, 'Unsupported')
})

t.test('servedApiVersionHeader is off by default: no header, and no hook on any route', async t => {
  const routes = (app: import('fastify').FastifyInstance): void => {
    app.get('/orders', { apiVersions: '1.0' }, says('orders'))
    app.get('/hosted', { apiVersions: '1.0', constraints: { host: 'h.example' } }, says('hosted'))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
  }
  const off = await build({ problemDetails: true }, routes)
  const res = await off.inject('/orders?api-version=1')
  t.equal(res.statusCode, 200)
  t.notOk(Object.keys(res.headers).some(name => /version/.test(name)), 'no header names a version')
  await off.ready()
  t.notMatch(off.printRoutes({ includeHooks: true, commonPrefix: false }), /apiVersionServed/, 'no hook')
  const on = await build({ problemDetails: true, servedApiVersionHeader: SERVED }, routes)
  await on.ready()
  const printed = on.printRoutes({ includeHooks: true, commonPrefix: false })
  t.equal(printed.match(/apiVersionServed/g)?.length, 6, 'one hook on each route that serves versions (and its HEAD route), none on the hidden ones')
})

t.test('servedApiVersionHeader is checked at start-up, naming the option', async t => {
  const cases: Array<[unknown, RegExp]> = [
    [true, /servedApiVersionHeader must be a header name, such as 'api-version' or 'x-api-version' \(got true\)/],
    ['', /servedApiVersionHeader must be a header name, such as 'api-version' or 'x-api-version' \(got ""\)/],
    ['x version', /servedApiVersionHeader must be a header name.*\(got "x version"\)/],
    [['x-a'], /servedApiVersionHeader must be a header name.*\(got \["x-a"\]\)/],
    ['Content-Type', /servedApiVersionHeader must not be "Content-Type", a header HTTP gives a meaning of its own; name it for the version, such as 'x-api-version'/],
    ['vary', /servedApiVersionHeader must not be "vary"/],
    ['API-Supported-Versions', /servedApiVersionHeader must not be "API-Supported-Versions", which the plugin sends the supported versions in \(reportApiVersions\.supportedHeader\); name it for the version served, such as 'x-api-version'/],
    ['api-deprecated-versions', /servedApiVersionHeader must not be "api-deprecated-versions", which the plugin sends the deprecated versions in \(reportApiVersions\.deprecatedHeader\)/]
  ]
  for (const [value, message] of cases) {
    const error = await Fastify().register(apiVersioning, { servedApiVersionHeader: value as string }).ready().then(() => null, (error: unknown) => error)
    t.match(error, { code: 'FST_API_VERSIONING_INVALID_OPTION', message }, JSON.stringify(value))
  }
  const named = await Fastify().register(apiVersioning, { reportApiVersions: { supportedHeader: 'x-versions' }, servedApiVersionHeader: 'X-Versions' }).ready().then(() => null, (error: unknown) => error)
  t.match(named, { message: /servedApiVersionHeader must not be "X-Versions", which the plugin sends the supported versions in \(reportApiVersions\.supportedHeader\)/ }, 'the names reportApiVersions gives, whether it reports or not')
  // The request's own version header, sent back: the version the client gets under the name it asked with.
  const app = await build({ servedApiVersionHeader: 'api-version' }, app => { app.get('/a', { apiVersions: '1.0' }, says('a')) })
  t.equal((await app.inject({ url: '/a', headers: { 'api-version': '1' } })).headers['api-version'], '1.0')
})
