import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import { MeterProvider, MetricReader, type DataPoint, type ResourceMetrics } from '@opentelemetry/sdk-metrics'
import apiVersioning, { versionChange } from '../../lib/index.js'
import { problem, says } from './helpers.js'

// A versionChanges route alone on its method and path is one route of the router for every version, and answers
// the version problems there itself, as the hidden route of an ordinary versioned route does.

const Order = Type.Object({ id: Type.Integer(), total: Type.Number() })
const renamed = versionChange({ description: 'total was amount', fields: [{ schema: Order, field: 'total', renamedFrom: 'amount' }] })
const VERSIONS = [{ version: '3.0', changes: [renamed] }, { version: '2.0' }, { version: '1.0', deprecated: true }]

class Reader extends MetricReader {
  protected override async onForceFlush (): Promise<void> {}
  protected override async onShutdown (): Promise<void> {}
}

t.test('its version problems: answered as the hidden route answers them, with none of its own hooks after onRequest', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, reportApiVersions: true, versionChanges: VERSIONS })
  const ran: string[] = []
  const hook = (name: string) => (request: unknown, reply: unknown, payload: unknown, done: (error: null, payload: unknown) => void) => { ran.push(name); done(null, payload) }
  app.post('/orders', {
    versionChanges: true,
    schema: { body: Order, response: { 200: Order } },
    onRequest: (request, reply, done) => { ran.push('onRequest'); done() },
    preSerialization: hook('preSerialization'),
    onSend: [hook('onSend')],
    onResponse: async () => { ran.push('onResponse') },
    onError: async () => { ran.push('onError') }
  }, async request => request.body)
  app.get('/orders', { versionChanges: true }, says('orders'))
  await app.ready()
  t.notMatch(app.printRoutes(), /version problems/, 'no hidden route')

  const post = async (version: string | null, body: object) => await app.inject({ method: 'POST', url: version === null ? '/orders' : `/orders?api-version=${version}`, payload: body })
  for (const [version, kind] of [['9.0', 'unsupported'], ['x', 'invalid'], [null, 'unspecified']] as const) {
    ran.length = 0
    const res = await post(version, { id: 1, total: 'not even a number' })
    t.same([res.statusCode, res.json()], [400, problem(kind)], `${kind}: before the body is read or validated`)
    t.equal(res.headers['api-supported-versions'], '2.0, 3.0')
    t.equal(res.headers['api-deprecated-versions'], '1.0')
    t.same(ran, ['onRequest'], 'its onRequest hooks only, as on a hidden route')
  }
  ran.length = 0
  const served = await post('1.0', { id: 1, amount: 2 })
  t.same([served.statusCode, served.json()], [200, { id: 1, amount: 2 }])
  t.same(ran, ['onRequest', 'preSerialization', 'onSend', 'onResponse'], 'every hook where it serves the version')
  // An endpoint one of its versions lacks, on another method of the path: the versions of this method.
  const bare = Fastify()
  await bare.register(apiVersioning, { problemDetails: true, reportApiVersions: true, versionChanges: [{ version: '2.0', changes: [versionChange({ description: 'PUT is new', endpoints: [{ method: 'PUT', url: '/things', added: true }] })] }, { version: '1.0' }] })
  bare.get('/things', { versionChanges: true }, says('get'))
  bare.put('/things', { versionChanges: true }, says('put'))
  const put = await bare.inject({ method: 'PUT', url: '/things?api-version=1.0' })
  t.same([put.statusCode, put.json(), put.headers['api-supported-versions']], [400, problem('unsupported'), '2.0'], 'never Unsupported beside a header that says it is supported here')
})

t.test('its newest version: its own schema, validated by Fastify; an older one by its own, whatever the route attaches', async t => {
  for (const attachValidation of [false, true]) {
    const app = Fastify()
    await app.register(apiVersioning, { problemDetails: true, versionChanges: VERSIONS })
    app.post('/orders', { versionChanges: true, attachValidation, schema: { body: Order } }, async request => ({ body: request.body, error: request.validationError?.message ?? null }))
    await app.ready()
    const post = async (version: string, body: object) => {
      const res = await app.inject({ method: 'POST', url: `/orders?api-version=${version}`, payload: body })
      const json = res.json()
      return [res.statusCode, res.statusCode === 200 ? json.error : json.message]
    }
    const newestError = attachValidation ? [200, "body must have required property 'total'"] : [400, "body must have required property 'total'"]
    t.same(await post('3.0', { id: 1 }), newestError, `attachValidation ${String(attachValidation)}: the newest as Fastify answers it`)
    t.same(await post('3.0', { id: 1, total: 2 }), [200, null])
    const olderError = attachValidation ? [200, "body must have required property 'amount'"] : [400, "body must have required property 'amount'"]
    t.same(await post('2.0', { id: 1 }), olderError, 'an older version by its own schema, in its own names')
    t.same(await post('2.0', { id: 1, amount: 2 }), [200, null], 'valid as its version has it: no error of the newest schema\'s')
  }
})

t.test('beside a route of its path with another constraint: it answers the problems of the requests that route does not take', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, versionChanges: VERSIONS })
  app.get('/x', { apiVersions: ['9.0'], constraints: { host: 'a.example' } }, says('hosted'))
  app.get('/x', { versionChanges: true }, says('changing'))
  await app.ready()
  const get = async (version: string, host = 'localhost') => {
    const res = await app.inject({ url: `/x?api-version=${version}`, headers: { host } })
    return [res.statusCode, res.json().route]
  }
  t.same(await get('9.0', 'a.example'), [200, 'hosted'])
  t.same(await get('1.0', 'a.example'), [200, 'changing'])
  t.same(await get('2.0'), [200, 'changing'])
  t.same((await get('7.0'))[0], 400, 'a version no route has: its problem')
  t.equal(app.printRoutes().split('version problems').length - 1, 1, 'one hidden route: the host-bound route\'s')
})

t.test('beside a host-bound route, with telemetry: each request counted once, a problem as the problem it is', async t => {
  for (const hostFirst of [true, false]) {
    const reader = new Reader()
    const app = Fastify()
    await app.register(apiVersioning, { problemDetails: true, telemetry: { meterProvider: new MeterProvider({ readers: [reader] }) }, versionChanges: VERSIONS })
    const hosted = (): void => { app.get('/x', { apiVersions: ['9.0'], constraints: { host: 'a.example' } }, says('hosted')) }
    if (hostFirst) hosted()
    app.get('/x', { versionChanges: true }, says('changing'))
    if (!hostFirst) hosted()
    await app.ready()
    t.same((await app.inject('/x?api-version=7.0')).json(), problem('unsupported'))
    t.same((await app.inject('/x?api-version=x')).json(), problem('invalid'))
    t.equal((await app.inject('/x?api-version=1.0')).statusCode, 200)
    const { resourceMetrics } = await reader.collect() as { resourceMetrics: ResourceMetrics }
    const counted = resourceMetrics.scopeMetrics.flatMap(scope => scope.metrics).filter(metric => metric.descriptor.name === 'api_version.requests')
      .flatMap(metric => (metric.dataPoints as Array<DataPoint<number>>).map(p => `${String(p.attributes['api_version.outcome'])} ${String(p.attributes.api_version ?? '')} ${p.value}`)).sort()
    t.same(counted, ['invalid  1', 'served 1.0 1', 'unsupported  1'], `host-bound route ${hostFirst ? 'first' : 'after'}`)
  }
})

t.test('a problem writer of the app that sends an object: JSON, whatever the route\'s schema of that status', async t => {
  // Renames alone, and a migration of its responses (which a hook of the route runs, and which passes the problem).
  const migrated = versionChange({ description: 'total was amount, rounded', fields: [{ schema: Order, field: 'total', renamedFrom: 'amount' }], responses: [{ schema: Order, migrate: response => { (response.body as { total: number }).total = Math.round((response.body as { total: number }).total) } }] })
  for (const versions of [VERSIONS, [{ version: '3.0', changes: [migrated] }, { version: '2.0' }]]) {
    const app = Fastify()
    await app.register(apiVersioning, {
      problemDetails: true,
      versionChanges: versions,
      problemWriters: [{ canWrite: () => true, write: ({ problem, reply }) => reply.code(problem.status).send({ kind: problem.code, status: problem.status, message: 'no such version' }) }]
    })
    app.get('/orders', { versionChanges: true, schema: { response: { 200: Order, 400: Type.Object({ message: Type.String() }) } } }, async () => ({ id: 1, total: 2.4 }))
    await app.ready()
    const res = await app.inject('/orders?api-version=7.0')
    t.same([res.statusCode, res.headers['content-type'], res.json()], [400, 'application/json; charset=utf-8', { kind: 'UnsupportedApiVersion', status: 400, message: 'no such version' }])
    t.same((await app.inject('/orders?api-version=2.0')).json(), { id: 1, amount: versions === VERSIONS ? 2.4 : 2 })
  }
})

t.test('after an ordinary versioned route of its method and path, that route\'s hidden route answers the problems', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, versionChanges: VERSIONS })
  app.post('/y', { apiVersions: ['9.0'] }, says('ordinary'))
  app.post('/y', { versionChanges: true, schema: { body: Order } }, async request => request.body)
  await app.ready()
  t.match(app.printRoutes(), /version problems/)
  const post = async (version: string, body: object) => {
    const res = await app.inject({ method: 'POST', url: `/y?api-version=${version}`, payload: body })
    return [res.statusCode, res.json()]
  }
  t.same(await post('9.0', {}), [200, { route: 'ordinary', version: '9.0' }])
  t.same(await post('3.0', { id: 1, total: 2 }), [200, { id: 1, total: 2 }])
  t.same(await post('2.0', { id: 1, amount: 2 }), [200, { id: 1, total: 2 }], 'its older versions by their route: converted up for the handler')
  t.same(await post('7.0', {}), [400, problem('unsupported')])
})

t.test('a hook of the app that answers a problem request itself (authentication), with an object: sent as it is', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, versionChanges: VERSIONS })
  app.addHook('onRequest', async (request, reply) => { if (request.headers.authorization === undefined) await reply.code(401).send({ denied: true }) })
  app.get('/orders', { versionChanges: true, schema: { response: { 200: Order, 401: Type.Object({ denied: Type.Boolean() }) } } }, async () => ({ id: 1, total: 2 }))
  await app.ready()
  for (const version of ['1.0', '7.0', 'x']) {
    const res = await app.inject(`/orders?api-version=${version}`)
    t.same([res.statusCode, res.json()], [401, { denied: true }], version)
  }
  t.same((await app.inject({ url: '/orders?api-version=1.0', headers: { authorization: 'yes' } })).json(), { id: 1, amount: 2 })
})

t.test('a route hook that is no function: Fastify\'s own start-up error, as without the plugin', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: VERSIONS })
  t.throws(() => app.get('/orders', { versionChanges: true, onSend: 'not a hook' as never }, says('orders')), { code: 'FST_ERR_HOOK_INVALID_HANDLER' })
  // An async hook that also takes `done`, of each arity Fastify checks (in a list of hooks, where Fastify checks them).
  const misused = [
    ['onSend', async (request: unknown, reply: unknown, payload: unknown, done: unknown) => payload],
    ['onResponse', async (request: unknown, reply: unknown, done: unknown) => {}],
    ['onRequestAbort', async (request: unknown, done: unknown) => {}]
  ] as const
  for (const [kind, hook] of misused) {
    t.throws(() => app.get(`/${kind}`, { versionChanges: true, [kind]: [hook] as never }, says(kind)), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' }, kind)
  }
  // Well-formed async hooks are taken (and skip a problem, as the others).
  app.get('/well-formed', { versionChanges: true, onSend: async (request, reply, payload) => payload, onRequestAbort: async request => {} }, says('ok'))
  await app.ready()
})

t.test('policies and telemetry: a problem it answers is counted and headed as the hidden route would', async t => {
  let time = Date.parse('2026-06-01')
  const reader = new Reader()
  const app = Fastify()
  await app.register(apiVersioning, {
    problemDetails: true,
    now: () => time,
    telemetry: { meterProvider: new MeterProvider({ readers: [reader] }) },
    versionChanges: VERSIONS,
    policies: { '1.0': { sunset: { date: '2026-07-01', enforce: true } } }
  })
  app.get('/orders', { versionChanges: true }, says('orders'))
  await app.ready()
  const before = await app.inject('/orders?api-version=1.0')
  t.same([before.statusCode, before.headers.sunset], [200, 'Wed, 01 Jul 2026 00:00:00 GMT'], 'served, with its sunset')
  time = Date.parse('2026-08-01')
  const after = await app.inject('/orders?api-version=1.0')
  t.same([after.statusCode, after.json().type, after.headers.sunset], [400, problem('unsupported').type, 'Wed, 01 Jul 2026 00:00:00 GMT'], 'retired: answered as a version no route has, with its Sunset once')
  t.equal((await app.inject('/orders?api-version=7.0')).statusCode, 400)
  const { resourceMetrics } = await reader.collect() as { resourceMetrics: ResourceMetrics }
  const counted = resourceMetrics.scopeMetrics.flatMap(scope => scope.metrics).filter(metric => metric.descriptor.name === 'api_version.requests')
    .flatMap(metric => (metric.dataPoints as Array<DataPoint<number>>).map(p => `${String(p.attributes['api_version.outcome'])} ${String(p.attributes.api_version ?? '')} ${p.value}`)).sort()
  t.same(counted, ['retired 1.0 1', 'served 1.0 1', 'unsupported  1'], 'each once, as served or as the problem')
})

t.test('routes of the same schemas are planned once, but a migration that names one route is that route\'s alone', async t => {
  const Thing = Type.Object({ name: Type.String() })
  const app = Fastify()
  await app.register(apiVersioning, {
    versionChanges: [
      { version: '2.0', changes: [versionChange({ description: 'a names things anew', requests: [{ route: 'POST /a', migrate: request => { (request.body as { name: string }).name += ' (migrated)' } }] })] },
      { version: '1.0' }
    ]
  })
  for (const url of ['/a', '/b', '/c']) app.post(url, { versionChanges: true, schema: { body: Thing } }, async request => request.body)
  await app.ready()
  for (const [url, name] of [['/a', 'x (migrated)'], ['/b', 'x'], ['/c', 'x']]) {
    t.same((await app.inject({ method: 'POST', url: `${url}?api-version=1.0`, payload: { name: 'x' } })).json(), { name }, url)
  }
})

t.test('hooks that plugins registered after this one add to its onRequest hooks run before a problem is answered (@fastify/rate-limit)', async t => {
  const { default: rateLimit } = await import('@fastify/rate-limit')
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, versionChanges: VERSIONS })
  await app.register(rateLimit, { max: 2, timeWindow: 60_000 })
  // A plugin's onRoute hook that gives the route's hooks anew, with its own first.
  const seen: string[] = []
  app.addHook('onRoute', route => { route.onRequest = [(request, reply, done) => { seen.push(request.url); done() }, ...[route.onRequest ?? []].flat()] })
  app.get('/orders', { versionChanges: true }, says('orders'))
  await app.ready()
  const statuses = []
  for (let i = 0; i < 3; i++) statuses.push((await app.inject('/orders?api-version=7.0')).statusCode)
  t.same(statuses, [400, 400, 429], 'the third problem request is over the limit')
  t.equal(seen.length, 3, 'a hook given anew runs too')
})

t.test('at the root of a prefix (its hidden route answers the problems): every version served there, at the prefix once', async t => {
  for (const methods of [['GET'], ['GET', 'POST']]) {
    const app = Fastify()
    await app.register(apiVersioning, { problemDetails: true, versionChanges: VERSIONS })
    await app.register(async api => {
      api.route({ method: methods, url: '', versionChanges: true, schema: { response: { 200: Order } }, handler: async () => ({ id: 1, total: 2 }) } as never)
    }, { prefix: '/p' })
    await app.ready()
    for (const method of methods) {
      const older = await app.inject({ method: method as 'GET', url: '/p?api-version=1.0' })
      t.same([older.statusCode, older.json()], [200, { id: 1, amount: 2 }], `${method} /p, an older version`)
      t.equal((await app.inject({ method: method as 'GET', url: '/p?api-version=3.0' })).statusCode, 200)
      t.equal((await app.inject({ method: method as 'GET', url: '/p/p?api-version=1.0' })).statusCode, 404, 'nothing at the prefix twice')
    }
  }
})

t.test("at the root of a prefix declared '/': every version at the prefix with and without its slash, as Fastify serves the newest", async t => {
  for (const [url, prefixTrailingSlash, slashed] of [['/', undefined, true], ['/', 'both', true], ['', undefined, false], ['/', 'no-slash', false]] as const) {
    for (const methods of [['GET'], ['GET', 'POST']]) {
      const app = Fastify()
      await app.register(apiVersioning, { problemDetails: true, versionChanges: VERSIONS })
      await app.register(async api => {
        api.route({ method: methods, url, prefixTrailingSlash, versionChanges: true, schema: { response: { 200: Order } }, handler: async () => ({ id: 1, total: 2 }) } as never)
      }, { prefix: '/p' })
      await app.ready()
      const label = `${methods.join(',')} '${url}' (${prefixTrailingSlash ?? 'default'})`
      for (const method of methods) {
        for (const path of ['/p', '/p/']) {
          const answers = await Promise.all(['1.0', '3.0'].map(async v => await app.inject({ method: method as 'GET', url: `${path}?api-version=${v}` })))
          const expected = path === '/p' || slashed ? [[200, { id: 1, amount: 2 }], [200, { id: 1, total: 2 }]] : [[404, 'Not Found'], [404, 'Not Found']]
          t.same(answers.map(a => [a.statusCode, a.statusCode === 200 ? a.json() : a.json().error]), expected, `${label}: ${method} ${path}`)
          if (method === 'GET') t.same(await Promise.all(['1.0', '3.0'].map(async v => (await app.inject({ method: 'HEAD', url: `${path}?api-version=${v}` })).statusCode)), expected.map(([status]) => status), 'its HEAD route')
        }
      }
    }
  }
})
