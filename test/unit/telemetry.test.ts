import t from 'tap'
import { context, diag, DiagLogLevel, metrics, trace, type Span } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { FastifyOtelInstrumentation } from '@fastify/otel'
import { AggregationTemporality, MeterProvider, MetricReader, type DataPoint, type ResourceMetrics } from '@opentelemetry/sdk-metrics'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import apiVersioning, { type ApiVersioningOptions } from '../../lib/index.js'
import { logged, says } from './helpers.js'

// A reader that the test asks for the metrics when it wants them.
class Reader extends MetricReader {
  protected override async onForceFlush (): Promise<void> {}
  protected override async onShutdown (): Promise<void> {}
}

type Point = { attributes: Record<string, unknown>, value: number }

async function points (reader: Reader): Promise<Point[]> {
  const { resourceMetrics } = await reader.collect() as { resourceMetrics: ResourceMetrics }
  return resourceMetrics.scopeMetrics
    .filter(scope => scope.scope.name === 'fastify-api-versioning')
    .flatMap(scope => scope.metrics)
    .filter(metric => metric.descriptor.name === 'api_version.requests')
    .flatMap(metric => (metric.dataPoints as Array<DataPoint<number>>).map(p => ({ attributes: p.attributes, value: p.value })))
}

// A hook of the app that takes the reply over (`x-take`) before any hook of the route runs.
async function takesOver (request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.headers['x-take'] === undefined) return
  reply.hijack()
  reply.raw.end('taken')
}

async function app (options: ApiVersioningOptions, reader = new Reader()) {
  const provider = new MeterProvider({ readers: [reader] })
  const server = Fastify()
  await server.register(apiVersioning, { problemDetails: true, telemetry: { meterProvider: provider }, ...options })
  return { server, reader }
}

t.test('api_version.requests: one per request of a versioned or neutral route, by outcome, from declarations only', async t => {
  let time = Date.parse('2026-06-01')
  const { server, reader } = await app({
    now: () => time,
    versionReader: { custom: req => req.headers['x-fail'] === undefined ? undefined : 7 as never },
    policies: { 0.8: { sunset: { date: '2026-07-01', enforce: true } }, '2.0': { deprecation: { date: '2026-01-01' } } }
  })
  server.register(async api => {
    api.get('/orders/:id', { apiVersions: ['1', '2.0', '0.8'], deprecatedApiVersions: '0.9' }, says('get'))
    api.get('/ping', { apiVersionNeutral: true }, says('ping'))
    api.get('/health', says('health'))
  }, { prefix: '/api' })
  const requests: Array<[string, Record<string, string>?]> = [
    ['/api/orders/1?api-version=1.0'], ['/api/orders/2?api-version=1'], // one version, its declared form
    ['/api/orders/1?api-version=0.9'], // deprecated on the route
    ['/api/orders/1?api-version=2'], // deprecated by its policy's date
    ['/api/orders/1?api-version=0.8'],
    ['/api/orders/1?api-version=9.0-' + 'x'.repeat(500)], ['/api/orders/1?api-version=3.0'],
    ['/api/orders/1?api-version=abc'],
    ['/api/orders/1?api-version=1&api-version=2'],
    ['/api/orders/1'],
    ['/api/orders/1?api-version=1', { 'x-fail': '1' }],
    ['/api/ping'], ['/api/ping?api-version=2.0'], ['/api/ping?api-version=7.0'],
    ['/api/health?api-version=1'], ['/nowhere?api-version=1']
  ]
  for (const [url, headers] of requests) await server.inject({ url, headers })
  time = Date.parse('2026-08-01') // 0.8's enforced sunset has passed
  await server.inject('/api/orders/1?api-version=0.8')
  t.equal((await server.inject('/api/ping?api-version=0.8')).statusCode, 400, 'implemented nowhere any more, neutral routes included')
  await server.inject({ method: 'HEAD', url: '/api/orders/1?api-version=1.0' })

  const route = '/api/orders/:id'
  const get = (outcome: string, more: Record<string, unknown> = {}) => ({ 'http.request.method': 'GET', 'http.route': route, 'api_version.outcome': outcome, ...more })
  const found = await points(reader)
  const expected: Point[] = [
    { attributes: get('served', { api_version: '1', 'api_version.deprecated': false }), value: 2 },
    { attributes: get('served', { api_version: '0.9', 'api_version.deprecated': true }), value: 1 },
    { attributes: get('served', { api_version: '2.0', 'api_version.deprecated': true }), value: 1 },
    { attributes: get('served', { api_version: '0.8', 'api_version.deprecated': false }), value: 1 },
    { attributes: get('unsupported'), value: 2 },
    { attributes: get('invalid'), value: 1 },
    { attributes: get('ambiguous'), value: 1 },
    { attributes: get('unspecified'), value: 1 },
    { attributes: get('error'), value: 1 },
    { attributes: { 'http.request.method': 'GET', 'http.route': '/api/ping', 'api_version.outcome': 'served' }, value: 1 },
    { attributes: { 'http.request.method': 'GET', 'http.route': '/api/ping', 'api_version.outcome': 'served', api_version: '2.0', 'api_version.deprecated': true }, value: 1 },
    { attributes: { 'http.request.method': 'GET', 'http.route': '/api/ping', 'api_version.outcome': 'unsupported' }, value: 1 },
    // Who still calls a retired version: a declared version, so the series stay bounded.
    { attributes: get('retired', { api_version: '0.8', 'api_version.deprecated': false }), value: 1 },
    { attributes: { 'http.request.method': 'GET', 'http.route': '/api/ping', 'api_version.outcome': 'retired', api_version: '0.8', 'api_version.deprecated': false }, value: 1 },
    { attributes: { ...get('served', { api_version: '1', 'api_version.deprecated': false }), 'http.request.method': 'HEAD' }, value: 1 }
  ]
  const key = (p: Point) => JSON.stringify(Object.entries(p.attributes).sort())
  t.same(new Map(found.map(p => [key(p), p.value])), new Map(expected.map(p => [key(p), p.value])))
  t.notOk(found.some(p => String(p.attributes.api_version).includes('x')), 'never a text nobody declared')
})

t.test('telemetry: true uses the global meter provider; the served version goes on the active span', async t => {
  const reader = new Reader()
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  t.teardown(() => { metrics.disable(); context.disable() })
  const server = Fastify()
  await server.register(apiVersioning, { telemetry: true })
  server.get('/a', { apiVersions: '1.0' }, says('a'))
  await server.ready()
  const attributes: Record<string, unknown> = {}
  const span = { setAttribute (key: string, value: unknown) { attributes[key] = value; return span } } as unknown as Span
  // inject sends when awaited: await it inside, so that the request runs in the span's context.
  await context.with(trace.setSpan(context.active(), span), async () => await server.inject('/a?api-version=1'))
  t.same(attributes, { api_version: '1.0' })
  await context.with(trace.setSpan(context.active(), span), async () => await server.inject('/a?api-version=2'))
  t.same(attributes, { api_version: '1.0' }, 'nothing for a version not served')
  t.same((await points(reader)).map(p => p.attributes['api_version.outcome']).sort(), ['served', 'unsupported'])
  const global = Fastify()
  await global.register(apiVersioning, { telemetry: {} })
  global.get('/a', { apiVersions: '1.0' }, says('a'))
  await global.inject('/a?api-version=1')
  t.equal((await points(reader)).find(p => p.attributes['api_version.outcome'] === 'served')?.value, 2, '{} without a meterProvider is the global one too')
})

t.test('telemetry: true counts through the SDK started before ready(), and warns at ready() when none is', async t => {
  // No SDK yet: the global provider is OpenTelemetry's no-op one.
  const { lines, stream } = logged()
  const server = Fastify({ logger: { level: 'warn', stream } })
  await server.register(apiVersioning, { telemetry: true })
  server.get('/a', { apiVersions: '1.0' }, says('a'))
  // Started after the plugin's registration, before ready(): it counts.
  const reader = new Reader()
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))
  t.teardown(() => { metrics.disable() })
  await server.ready()
  await server.inject('/a?api-version=1')
  t.same((await points(reader)).map(p => [p.attributes['api_version.outcome'], p.value]), [['served', 1]])
  t.same(lines, [], 'nothing to warn of')

  metrics.disable()
  const none = logged()
  const noSdk = Fastify({ logger: { level: 'warn', stream: none.stream } })
  await noSdk.register(apiVersioning, { telemetry: true })
  noSdk.get('/a', { apiVersions: '1.0' }, says('a'))
  await noSdk.ready()
  t.same(none.lines.map(line => line.msg), ['fastify-api-versioning: telemetry is on, but the global meter provider of @opentelemetry/api is its no-op one when the app is ready, so no request is counted: start the OpenTelemetry SDK (register its MeterProvider) before the app is ready, or give telemetry: { meterProvider }'])
  t.equal((await noSdk.inject('/a?api-version=1')).statusCode, 200, 'and serves as ever')
  const own = logged()
  const noop = Fastify({ logger: { level: 'warn', stream: own.stream } })
  await noop.register(apiVersioning, { telemetry: { meterProvider: metrics.getMeterProvider() } })
  await noop.ready()
  t.same(own.lines.map(line => line.msg), ['fastify-api-versioning: telemetry.meterProvider is the no-op one of @opentelemetry/api, so no request is counted: give the MeterProvider of an OpenTelemetry SDK'])
})

t.test('with OpenTelemetry\'s no-op meter nothing is counted, but the span still hears of the served version, from a context manager registered after ready() too', async t => {
  t.teardown(() => { context.disable() })
  const server = Fastify({ logger: false })
  await server.register(apiVersioning, { telemetry: { meterProvider: metrics.getMeterProvider() } })
  server.get('/a', { apiVersions: ['1.0', '2.0'] }, says('a'))
  await server.ready()
  const attributes: unknown[] = []
  const span = { setAttribute (key: string, value: unknown) { attributes.push([key, value]); return span } } as unknown as Span
  const inSpan = async (version: string) => await context.with(trace.setSpan(context.active(), span), async () => await server.inject(`/a?api-version=${version}`))
  t.equal((await inSpan('1')).statusCode, 200, 'no context manager: no span is active, and the request is served')
  t.same(attributes, [])
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  for (const version of ['1', '2', '2']) await inSpan(version)
  t.same(attributes, [['api_version', '1.0'], ['api_version', '2.0'], ['api_version', '2.0']])
  context.disable()
  await inSpan('1')
  t.equal(attributes.length, 3, 'none once it is gone')
})

t.test('with @fastify/otel, the served version goes on its request span (versioned, version-neutral and host-bound routes, a request an earlier hook answered or the handler hijacked too), registered before the plugin or after; on the active span where it leaves a route out', async t => {
  const exporter = new InMemorySpanExporter()
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  const warnings: unknown[] = []
  diag.setLogger({ error: (...args) => warnings.push(args), warn: (...args) => warnings.push(args), info () {}, debug () {}, verbose () {} }, DiagLogLevel.WARN)
  t.teardown(() => { trace.disable(); context.disable(); diag.disable() })
  for (const otelFirst of [true, false]) {
    exporter.reset()
    const server = Fastify()
    const otel = new FastifyOtelInstrumentation()
    if (otelFirst) await server.register(otel.plugin())
    await server.register(apiVersioning, { telemetry: { meterProvider: new MeterProvider() }, versionChanges: [{ version: '2.0' }, { version: '1.0' }] })
    if (!otelFirst) await server.register(otel.plugin())
    // An app's authentication: it answers before any hook of the route.
    server.addHook('onRequest', async (request, reply) => { if (request.headers.deny !== undefined) await reply.code(401).send('no') })
    server.get('/orders', { apiVersions: ['1.0', '2.0'] }, says('orders'))
    // A versionChanges route answers its own version problems: a problem's span has no version either.
    server.get('/changing', { versionChanges: true }, says('changing'))
    server.get('/ping', { apiVersionNeutral: true, onSend: async (request, reply, payload) => payload }, says('ping'))
    server.get('/hosted', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('hosted'))
    server.get('/hosted', { apiVersions: '2.0' }, says('hosted'))
    // A reply the handler hijacks (server-sent events) passes no onSend hook.
    const hijack = (request: FastifyRequest, reply: FastifyReply): void => { reply.hijack(); reply.raw.writeHead(200); reply.raw.end('events') }
    server.get('/events', { apiVersions: '1.0' }, hijack)
    server.get('/neutral-events', { apiVersionNeutral: true }, hijack)
    server.get('/quiet', { apiVersionNeutral: true, config: { otel: false } }, says('quiet'))
    server.get('/quiet-hosted', { apiVersions: '1.0', constraints: { host: 'a.example' }, config: { otel: false } }, says('quiet'))
    const deny = { deny: '1' }
    const requests: Array<[string, string | undefined, Record<string, string>, number]> = [
      ['/orders?api-version=1', '1.0', {}, 200], ['/orders?api-version=2.0', '2.0', {}, 200], ['/orders?api-version=9', undefined, {}, 400], ['/orders', undefined, {}, 400],
      ['/ping?api-version=2', '2.0', {}, 200], ['/ping', undefined, {}, 200], ['/hosted?api-version=1', '1.0', { host: 'a.example' }, 200], ['/hosted?api-version=2', '2.0', {}, 200],
      ['/orders?api-version=1', '1.0', deny, 401], ['/ping?api-version=2', '2.0', deny, 401], ['/hosted?api-version=1', '1.0', { host: 'a.example', ...deny }, 401],
      ['/events?api-version=1', '1.0', {}, 200], ['/neutral-events?api-version=2', '2.0', {}, 200],
      ['/changing?api-version=1', '1.0', {}, 200], ['/changing?api-version=9', undefined, {}, 400]]
    for (const [url, , headers, status] of requests) t.equal((await server.inject({ url, headers })).statusCode, status, url)
    const spans = exporter.getFinishedSpans()
    t.same(spans.filter(span => span.name === 'request').map(span => [`${String(span.attributes['url.path'])}${String(span.attributes['url.query'] ?? '')}`, span.attributes.api_version]),
      requests.map(([url, version]) => [url, version]), `otel ${otelFirst ? 'first' : 'after the plugin'}: each request span, with the version it was served`)
    t.same(spans.filter(span => span.name !== 'request' && span.attributes.api_version !== undefined).map(span => span.name), [], 'on no span of a hook')
    // Routes it leaves out: the span active around the request (an HTTP server's) hears of the version.
    const attributes: unknown[] = []
    const outer = { setAttribute (key: string, value: unknown) { attributes.push([key, value]); return outer } } as unknown as Span
    for (const [url, host] of [['/quiet?api-version=2'], ['/quiet-hosted?api-version=1', 'a.example'], ['/quiet-hosted?api-version=1', 'a.example']]) {
      await context.with(trace.setSpan(context.active(), outer), async () => await server.inject({ url, headers: host === undefined ? {} : { host, ...deny } }))
    }
    // Named from the route's first onRequest hook and again from its first onSend hook, the same value; a request an
    // earlier hook answered, from onSend alone.
    t.same(attributes, [['api_version', '2.0'], ['api_version', '2.0'], ['api_version', '1.0'], ['api_version', '1.0']], 'a route with otel: false')
    await server.close()
  }
  t.same(warnings, [], 'no attribute set on an ended span')
})

t.test('a request decorator named opentelemetry that throws or gives no span fails no request: logged once', async t => {
  const { lines, stream } = logged()
  const server = Fastify({ logger: { level: 'warn', stream } })
  let given: () => unknown = () => { throw new Error('not this one') }
  server.decorateRequest('opentelemetry', function () { return given() } as never)
  await server.register(apiVersioning, { telemetry: { meterProvider: new MeterProvider() } })
  server.get('/a', { apiVersions: '1.0' }, says('a'))
  server.get('/n', { apiVersionNeutral: true }, says('n'))
  for (const url of ['/a?api-version=1', '/n?api-version=1', '/a?api-version=1']) t.equal((await server.inject(url)).statusCode, 200, url)
  t.match(lines, [{ level: 40, msg: /telemetry failed to set the served version on the request's span/, err: { message: 'not this one' } }])
  t.equal(lines.length, 1, 'once')
  for (given of [() => ({ span: null }), () => ({}), () => ({ span: { setAttribute: 'no' } }), () => null]) {
    t.equal((await server.inject('/a?api-version=1')).statusCode, 200)
  }
  t.equal(lines.length, 1, 'garbage is no span, and no failure')
})

t.test('a reply the handler hijacks is counted once, as any other', async t => {
  const { server, reader } = await app({})
  server.addHook('onRequest', takesOver)
  server.get('/events', { apiVersions: '1.0' }, async (request, reply) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' })
    reply.raw.end('data: 1\n\n')
  })
  server.get('/ping', { apiVersionNeutral: true }, (request, reply) => {
    reply.hijack()
    reply.raw.end('pong')
  })
  server.get('/plain', { apiVersions: '1.0' }, says('plain'))
  for (const url of ['/events?api-version=1', '/ping?api-version=1.0', '/ping', '/plain?api-version=1.0']) {
    t.equal((await server.inject(url)).statusCode, 200, url)
  }
  t.equal((await server.inject({ url: '/ping?api-version=1.0', headers: { 'x-take': '1' } })).body, 'taken')
  const key = (p: Point) => `${p.attributes['http.route']} ${p.attributes.api_version ?? ''} ${p.value}`
  t.same((await points(reader)).map(key).sort(), ['/events 1.0 1', '/ping  1', '/ping 1.0 2', '/plain 1.0 1'])
})

// A meter provider of the app's own: what its counter's callback observes when the app's reader collects.
function ownProvider () {
  const callbacks: Array<(result: { observe (value: number, attributes?: Record<string, unknown>): void }) => void> = []
  const meterProvider = { getMeter: () => ({ createObservableCounter: () => ({ addCallback: (callback: typeof callbacks[number]) => { callbacks.push(callback) } }) }) }
  const collect = (): Array<[number, Record<string, unknown> | undefined]> => {
    const observed: Array<[number, Record<string, unknown> | undefined]> = []
    for (const callback of callbacks) callback({ observe: (value, attributes) => { observed.push([value, attributes]) } })
    return observed
  }
  return { meterProvider, callbacks, collect }
}

t.test('the telemetry option is checked at start-up; a meter provider that fails fails ready(), naming it', async t => {
  const cases: Array<[unknown, RegExp]> = [
    ['yes', /telemetry must be a boolean or \{ meterProvider\? \} \(got yes\)/],
    [{ provider: {} }, /unknown telemetry option "provider"/],
    [{ meterProvider: {} }, /telemetry.meterProvider must be an OpenTelemetry MeterProvider \(an object with getMeter\)/],
    [{ meterProvider: null }, /telemetry.meterProvider must be an OpenTelemetry MeterProvider/],
    [{ meterProvider: { getMeter () { throw new Error('no meter') } } }, /telemetry.meterProvider failed to give an observable counter: no meter; give an OpenTelemetry MeterProvider/],
    [{ meterProvider: { getMeter: () => ({ createCounter: () => ({ add () {} }) }) } }, /telemetry.meterProvider failed to give an observable counter: its meter has no createObservableCounter method; give an OpenTelemetry MeterProvider/],
    [{ meterProvider: { getMeter: () => null } }, /its meter has no createObservableCounter method/],
    [{ meterProvider: { getMeter: () => ({ createObservableCounter: () => ({}) }) } }, /telemetry.meterProvider failed to give an observable counter: its counter has no addCallback method/],
    [{ meterProvider: { getMeter: () => ({ createObservableCounter: () => ({ addCallback () { throw new Error('no callbacks') } }) }) } }, /failed to give an observable counter: no callbacks/]
  ]
  for (const [telemetry, message] of cases) {
    await t.rejects(async () => { await Fastify().register(apiVersioning, { telemetry: telemetry as never }).ready() }, message)
  }
  const off = Fastify()
  await off.register(apiVersioning, { telemetry: false })
  off.get('/a', { apiVersions: '1.0' }, says('a'))
  await off.ready()
  t.notMatch(off.printRoutes({ includeHooks: true }), /apiVersionTelemetry/, 'without telemetry, no hook')
})

t.test('a request adds one to its series; the counter reads the totals when the app collects, and calls no code of the app per request', async t => {
  const own = ownProvider()
  const server = Fastify()
  await server.register(apiVersioning, { telemetry: { meterProvider: own.meterProvider } })
  server.get('/a', { apiVersions: '1.0' }, says('a'))
  await server.ready()
  t.same(own.collect(), [], 'nothing counted, nothing observed')
  for (let i = 0; i < 3; i++) await server.inject('/a?api-version=1')
  const served = { 'http.request.method': 'GET', 'http.route': '/a', 'api_version.outcome': 'served', api_version: '1.0', 'api_version.deprecated': false }
  t.same(own.collect(), [[3, served]])
  await server.inject('/a?api-version=1')
  t.same(own.collect(), [[4, served]], 'cumulative: the total so far')

  // The instrumentation's span is the app's code too: what it throws is logged once, and the request counted.
  const { lines, stream } = logged()
  const traced = Fastify({ logger: { level: 'warn', stream } })
  const tracedOwn = ownProvider()
  await traced.register(apiVersioning, { telemetry: { meterProvider: tracedOwn.meterProvider } })
  traced.get('/a', { apiVersions: '1.0' }, says('a'))
  const span = { setAttribute () { throw new Error('span ended') } } as unknown as Span
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  t.teardown(() => { context.disable() })
  for (let i = 0; i < 2; i++) t.equal((await context.with(trace.setSpan(context.active(), span), async () => await traced.inject('/a?api-version=1'))).statusCode, 200)
  t.same(tracedOwn.collect().map(([value]) => value), [2], 'a span that throws: the requests are still counted')
  t.same(lines.map(line => [line.msg, line.err?.message]), [['fastify-api-versioning: telemetry failed to set the served version on the request\'s span (logged once; later failures at debug level, counted)', 'span ended']])
})

t.test('a versioned route is counted by the router as it takes the request, with no hook; beside a route with a host, in its hooks', async t => {
  const { server, reader } = await app({})
  server.addHook('onRequest', takesOver)
  server.get('/plain', { apiVersions: ['1.0', '2.0'] }, says('plain'))
  // Unconstrained first, a route with a host after it: the first one's counting moves into its hooks.
  server.get('/shared', { apiVersions: '1.0' }, says('any host'))
  server.get('/shared', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('a'))
  // A route with a host first, an unconstrained one after it.
  server.get('/other', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('a'))
  server.get('/other', { apiVersions: ['1.0', '2.0'] }, says('any host'))
  // A route of two methods, each of which a route with a host then shares: its hooks count, once.
  server.route({ method: ['GET', 'DELETE'], url: '/many', apiVersions: '1.0', handler: says('many') } as never)
  server.route({ method: ['GET', 'DELETE'], url: '/many', apiVersions: '1.0', constraints: { host: 'a.example' }, handler: says('a') } as never)
  await server.ready()
  const routes = server.printRoutes({ includeHooks: true, commonPrefix: false })
  const hooksOf = (line: string): string => routes.slice(routes.indexOf(line)).split(/\n(?=.*\(GET|HEAD\))/)[0]
  t.match(hooksOf('/plain (GET) {"apiVersion":["1.0","2.0"]}'), /onSend\) \["apiVersionVary\(\)"\]/)
  t.notMatch(hooksOf('/plain (GET) {"apiVersion":["1.0","2.0"]}'), /apiVersionTelemetry/, 'no counting hook on a versioned route alone on its path')
  t.match(hooksOf('/shared (GET) {"apiVersion":["1.0"]}'), /apiVersionTelemetry/, 'beside a route with a host: counted in its hooks')
  const send = async (url: string, headers: Record<string, string> = {}) => {
    const { body } = await server.inject({ url, headers })
    return body.startsWith('{') ? JSON.parse(body).route ?? JSON.parse(body).title : body
  }
  t.equal(await send('/plain?api-version=1'), 'plain')
  t.equal(await send('/plain?api-version=2', { 'x-take': '1' }), 'taken', 'hijacked before any hook of the route: counted all the same')
  t.equal(await send('/shared?api-version=1', { host: 'a.example' }), 'a')
  t.equal(await send('/shared?api-version=1', { host: 'b.example' }), 'any host')
  t.equal(await send('/shared?api-version=1', { host: 'b.example', 'x-take': '1' }), 'taken')
  t.equal(await send('/other?api-version=1', { host: 'a.example' }), 'a')
  t.equal(await send('/other?api-version=1', { host: 'b.example' }), 'any host')
  t.equal(await send('/other?api-version=2', { host: 'a.example' }), 'any host')
  t.equal(await send('/other?api-version=3', { host: 'a.example' }), 'Unsupported API version')
  t.equal((await server.inject({ method: 'DELETE', url: '/many?api-version=1' })).statusCode, 200)
  t.equal(await send('/many?api-version=1'), 'many')
  const key = (p: Point) => `${p.attributes['http.route']} ${p.attributes['api_version.outcome']} ${p.attributes.api_version ?? ''} ${p.value}`
  t.same((await points(reader)).map(key).sort(), [
    '/many served 1.0 1', '/many served 1.0 1',
    '/other served 1.0 2', '/other served 2.0 1', '/other unsupported  1',
    '/plain served 1.0 1', '/plain served 2.0 1',
    '/shared served 1.0 3'
  ], 'each request once, hijacked ones too')
})

t.test('apps that count through one meter share its counter, and their series add up, as one synchronous counter did', async t => {
  const reader = new Reader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  const apps = [Fastify(), Fastify()]
  for (const server of apps) {
    await server.register(apiVersioning, { telemetry: { meterProvider } })
    server.get('/a', { apiVersions: '1.0' }, says('a'))
    server.get('/b', { apiVersions: '1.0' }, says('b'))
    await server.ready()
  }
  await apps[0].inject('/a?api-version=1')
  await apps[1].inject('/a?api-version=1')
  await apps[1].inject('/b?api-version=1')
  t.same((await points(reader)).map(p => [p.attributes['http.route'], p.value]).sort(), [['/a', 2], ['/b', 1]])
  const own = ownProvider()
  for (const server of [Fastify(), Fastify()]) {
    await server.register(apiVersioning, { telemetry: { meterProvider: own.meterProvider } })
    await server.ready()
  }
  t.equal(own.callbacks.length, 2, 'a meter per getMeter() call: a counter each')
})

t.test('exact counts at high concurrency, with collections while requests run, cumulative and delta', async t => {
  const cumulative = new Reader()
  const delta = new Reader({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA })
  const meterProvider = new MeterProvider({ readers: [cumulative, delta] })
  const server = Fastify()
  await server.register(apiVersioning, { telemetry: { meterProvider } })
  server.get('/slow', { apiVersions: ['1.0', '2.0'] }, async () => { await new Promise(resolve => setImmediate(resolve)); return 'slow' })
  server.get('/ping', { apiVersionNeutral: true }, says('ping'))
  await server.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => server.close())
  const base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`
  const urls = ['/slow?api-version=1', '/slow?api-version=2.0', '/slow?api-version=9', '/ping', '/ping?api-version=1']
  const expected = new Map<string, number>()
  const sent: Array<Promise<unknown>> = []
  const deltas: number[] = []
  let collected = 0
  for (let round = 0; round < 8; round++) {
    for (let i = 0; i < 250; i++) {
      const url = urls[(i * 7 + round) % urls.length]
      sent.push(fetch(base + url).then(response => response.text()))
      expected.set(url, (expected.get(url) ?? 0) + 1)
    }
    // A collection while requests of this round and the ones before are in flight.
    deltas.push(...(await points(delta)).map(p => p.value))
    collected++
  }
  await Promise.all(sent)
  deltas.push(...(await points(delta)).map(p => p.value))
  const total = [...expected.values()].reduce((a, b) => a + b, 0)
  t.equal(collected, 8)
  const found = await points(cumulative)
  const byKey = (p: Point) => `${p.attributes['http.route']} ${p.attributes['api_version.outcome']} ${p.attributes.api_version ?? ''}`
  t.same(new Map(found.map(p => [byKey(p), p.value])), new Map([
    ['/slow served 1.0', expected.get(urls[0])],
    ['/slow served 2.0', expected.get(urls[1])],
    ['/slow unsupported ', expected.get(urls[2])],
    ['/ping served ', expected.get(urls[3])],
    ['/ping served 1.0', expected.get(urls[4])]
  ]), 'every request counted once, under its own attributes')
  t.equal(deltas.reduce((a, b) => a + b, 0), total, 'the deltas of the collections add up to every request, none twice')
  t.ok(deltas.every(value => value >= 0), 'never negative')
})

t.test('api_version.requests where an earlier hook answered, a version was assumed, or the clock failed after the response', async t => {
  let now = (): number => Date.parse('2026-06-01')
  const reader = new Reader()
  const { lines, stream } = logged()
  const server = Fastify({ logger: { level: 'error', stream } })
  await server.register(apiVersioning, {
    telemetry: { meterProvider: new MeterProvider({ readers: [reader] }) },
    assumeDefaultVersionWhenUnspecified: true,
    defaultVersion: '1.0',
    now: () => now(),
    policies: {
      '2.0': { deprecation: { date: '2026-01-01' } },
      '3.0': { deprecation: { date: '2026-01-01' }, sunset: { date: '2027-01-01', enforce: true } },
      '4.0': { deprecation: { link: 'https://example.com/v4' } }
    }
  })
  // An authentication hook of the app that answers before the routes' own hooks read or bind the version.
  server.addHook('onRequest', async (request, reply) => { if (request.headers['x-deny'] !== undefined) await reply.code(401).send('no') })
  server.get('/bound', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('bound'))
  server.get('/ping', { apiVersionNeutral: true }, says('ping'))
  server.get('/later', { apiVersions: ['2.0', '3.0', '4.0'] }, says('later'))
  await server.ready()
  const send = async (url: string, headers: Record<string, string> = {}) => (await server.inject({ url, headers })).statusCode

  t.equal(await send('/bound?api-version=1', { host: 'a.example', 'x-deny': '1' }), 401)
  t.equal(await send('/ping?api-version=3.0', { 'x-deny': '1' }), 401)
  t.equal(await send('/later'), 400, 'the assumed 1.0 is not served here')
  t.equal(await send('/later?api-version=3'), 200, 'the enforced sunset read the clock; the deprecation takes that time')
  t.equal(await send('/later?api-version=4'), 200, 'a deprecation without a date is one now')
  now = () => { throw new Error('clock down') }
  t.equal(await send('/later?api-version=2'), 200, 'the clock is read only for the count, after the response')
  now = () => Promise.reject(new Error('async clock down')) as unknown as number
  t.equal(await send('/later?api-version=2'), 200, 'a clock whose promise rejects: the same, and the process lives')
  await new Promise(resolve => setImmediate(resolve))

  const route = (url: string, outcome: string, more: Record<string, unknown> = {}) => ({ 'http.request.method': 'GET', 'http.route': url, 'api_version.outcome': outcome, ...more })
  const key = (p: Point) => JSON.stringify(Object.entries(p.attributes).sort())
  const expected: Point[] = [
    { attributes: route('/bound', 'served', { api_version: '1.0', 'api_version.deprecated': false }), value: 1 },
    { attributes: route('/ping', 'served', { api_version: '3.0', 'api_version.deprecated': true }), value: 1 },
    { attributes: route('/later', 'unsupported'), value: 1 },
    { attributes: route('/later', 'served', { api_version: '3.0', 'api_version.deprecated': true }), value: 1 },
    { attributes: route('/later', 'served', { api_version: '4.0', 'api_version.deprecated': true }), value: 1 },
    { attributes: route('/later', 'served', { api_version: '2.0', 'api_version.deprecated': false }), value: 2 }
  ]
  t.same(new Map((await points(reader)).map(p => [key(p), p.value])), new Map(expected.map(p => [key(p), p.value])))
  t.match(lines, [{ level: 50, err: { code: 'FST_API_VERSIONING_CLOCK_FAILED', message: /the now option \(the clock of the version policies: enforced sunsets, deprecation dates\) threw/ }, msg: /telemetry could not read the now option \(the clock of the version policies: enforced sunsets, deprecation dates\); the request is counted as not deprecated/ }], 'the failed clock is logged with the option\'s name')
})
