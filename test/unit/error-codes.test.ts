import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import apiVersioning, { ApiVersion, errorObjects, withApiVersions, type ApiVersioningErrorCode, type ProblemDocument } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { checkPeerVersion, loadPeer, type Peer } from '../../lib/openapi/peers.js'
import { build, says } from './helpers.js'

const root = resolve(import.meta.dirname, '..', '..')

// Each start-up error, as a user meets it: the code to match on, whatever the message says.
t.test('every error carries a stable code', async t => {
  const startup: Array<[string, () => Promise<unknown> | unknown, ApiVersioningErrorCode]> = [
    ['a bad option', () => Fastify().register(apiVersioning, { problemDetails: 'yes' as never }).ready(), 'FST_API_VERSIONING_INVALID_OPTION'],
    ['a bad policy', () => Fastify().register(apiVersioning, { policies: { '1.0': {} } }).ready(), 'FST_API_VERSIONING_INVALID_OPTION'],
    ['a bad media type option', () => Fastify().register(apiVersioning, { versionReader: { mediaType: 7 as never } }).ready(), 'FST_API_VERSIONING_INVALID_OPTION'],
    ['a bad selector', () => Fastify().register(apiVersioning, { apiVersionSelector: 'newest' as never }).ready(), 'FST_API_VERSIONING_INVALID_OPTION'],
    ['a bad errorObjects option', () => Fastify().register(errorObjects, { allErrors: 1 as never }).ready(), 'FST_API_VERSIONING_INVALID_OPTION'],
    ['twice', () => Fastify().register(apiVersioning).register(apiVersioning).ready(), 'FST_API_VERSIONING_REGISTERED_TWICE'],
    ['a bad declaration', async () => (await build()).get('/a', { apiVersions: '1.x' }, says('a')), 'FST_API_VERSIONING_INVALID_DECLARATION'],
    ['a bad set', () => withApiVersions({}, async () => {}), 'FST_API_VERSIONING_INVALID_DECLARATION'],
    ['a conflict', async () => (await build()).get('/a', { apiVersions: ['1.0'] }, says('a')).get('/a', { apiVersions: '1' }, says('b')), 'FST_API_VERSIONING_ROUTE_CONFLICT'],
    ['a RegExp host', async () => (await build()).get('/a', { apiVersions: '1.0', constraints: { host: /x/ } }, says('a')), 'FST_API_VERSIONING_UNSUPPORTED_ROUTE'],
    ['a plain-name $ref the plugin cannot find', async () => (await build()).get('/a', { apiVersions: '1.0', schema: { querystring: { allOf: [{ $ref: '#q' }] } } }, says('a')), 'FST_API_VERSIONING_UNSUPPORTED_ROUTE'],
    ['a $ref with a malformed % escape', async () => (await build()).get('/a', { apiVersions: '1.0', schema: { querystring: { allOf: [{ $ref: '#/%ZZ' }] } } }, says('a')), 'FST_API_VERSIONING_UNSUPPORTED_ROUTE'],
    ['outside the scope', async () => {
      const app = Fastify()
      await app.register(async api => { await api.register(apiVersioning) })
      app.get('/x', { apiVersions: '1.0' }, says('x'))
    }, 'FST_API_VERSIONING_OUTSIDE_SCOPE'],
    ['a late schema', async () => {
      const app = Fastify()
      await app.register(apiVersioning)
      app.get('/x', { apiVersions: '1.0', schema: { querystring: { $ref: 'Q#' } } }, says('x'))
      app.addSchema({ $id: 'Q', type: 'object', additionalProperties: false })
      await app.ready()
    }, 'FST_API_VERSIONING_LATE_SCHEMA'],
    ['a bad openapi option', () => Fastify().register(apiVersioning).register(apiVersioningOpenApi, { routePrefix: 'x' }).ready(), 'FST_API_VERSIONING_OPENAPI_OPTION'],
    ['the openapi entry twice', async () => { await Fastify().register(apiVersioning).register(apiVersioningOpenApi).register(apiVersioningOpenApi, { routePrefix: '/b' }).ready() }, 'FST_API_VERSIONING_OPENAPI_ORDER'],
    ['documents before ready', async () => {
      const app = Fastify()
      await app.register(apiVersioning)
      await app.register(apiVersioningOpenApi)
      app.apiVersionDocuments()
    }, 'FST_API_VERSIONING_NOT_READY'],
    ['a bad version', () => ApiVersion.parse('1.'), 'FST_API_VERSIONING_INVALID_VERSION'],
    ['a missing peer', () => loadPeer('@fastify/not-installed' as Peer, 'x'), 'FST_API_VERSIONING_MISSING_PEER'],
    ['a peer too old', () => checkPeerVersion('@fastify/swagger', '9.3.0'), 'FST_API_VERSIONING_MISSING_PEER']
  ]
  for (const [what, cause, code] of startup) {
    let caught: { code?: unknown } | null = null
    try {
      await cause()
    } catch (error) {
      caught = error as { code?: unknown }
    }
    t.equal(caught?.code, code, what)
  }

  // A request's 500s: the error handler sees the code, and Fastify's default handler sends it.
  const app = Fastify()
  let time = 0
  await app.register(apiVersioning, { problemDetails: true, versionReader: { custom: req => req.url === '/a?api-version=2.0' ? 7 as never : undefined }, now: () => time++ === 0 ? 1 : NaN, policies: { '1.0': { sunset: { date: '2030-01-01', enforce: true } } }, problemWriters: [{ canWrite: ({ problem }) => problem.status === 418, write: () => { throw new Error('no tea') } }] })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  app.get('/bad', async (request, reply) => reply.problem({ status: 200 } as ProblemDocument))
  app.get('/tea', async (request, reply) => reply.problem({ status: 418 }))
  for (const [url, code] of [['/bad', 'FST_API_VERSIONING_INVALID_PROBLEM'], ['/tea', 'FST_API_VERSIONING_WRITER_FAILED'], ['/a?api-version=1.0', 'FST_API_VERSIONING_CLOCK_FAILED'], ['/a?api-version=2.0', 'FST_API_VERSIONING_CUSTOM_READER_FAILED']]) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 500, url)
    t.equal(res.json().code, code, url)
  }
  const docs = Fastify()
  await docs.register(apiVersioning)
  await docs.register(apiVersioningOpenApi, { transformObject: () => null as never })
  docs.get('/a', { apiVersions: '1.0' }, says('a'))
  const res = await docs.inject('/openapi/1.0.json')
  t.equal(res.statusCode, 500)
  t.equal(res.json().code, 'FST_API_VERSIONING_OPENAPI_TRANSFORM_FAILED')
})

t.test('the docs list every code, once', async t => {
  const codes = [...readFileSync(resolve(root, 'lib', 'errors.ts'), 'utf8').matchAll(/'(FST_API_VERSIONING_[A-Z_]+)'/g)].map(m => m[1])
  t.ok(codes.length >= 16)
  const docs = readFileSync(resolve(root, 'docs', 'errors.md'), 'utf8')
  for (const code of codes) t.equal(docs.split('`' + code + '`').length - 1, 1, code)
})

t.test('every hook the plugin adds has a name, shown by printRoutes', async t => {
  const app: FastifyInstance = Fastify()
  // The app's own hooks (onRoute, onReady, onSend) are in no listing: the plugins (fastify-plugin's, so given
  // this very instance) are watched adding them; those added from lib/ are the package's (not @fastify/swagger's).
  const added: string[] = []
  const addHook = app.addHook
  app.addHook = function (this: FastifyInstance, name: string, hook: () => void) {
    // The openapi entry watches @fastify/swagger add its own, through a wrapper of its own (see registerCollecting).
    const caller = new Error().stack!.split('\n')[2]
    if (/\/lib\/[\w/-]+\.ts:/.test(caller) && !caller.includes('addHookSeen')) added.push(`${name} ${hook.name}`)
    return addHook.call(this, name as 'onRoute', hook)
  } as typeof app.addHook
  await app.register(errorObjects, { allErrors: true })
  await app.register(apiVersioning, {
    problemDetails: true,
    reportApiVersions: true,
    logApiVersion: true,
    servedApiVersionHeader: 'x-api-version',
    versionReader: { mediaType: true },
    policies: { '1.0': { deprecation: { date: '2026-01-01' } } },
    telemetry: { meterProvider: { getMeter: () => ({ createObservableCounter: () => ({ addCallback () {} }) }) } }
  })
  await app.register(apiVersioningOpenApi, { ui: true, hooks: { onRequest: async () => {} } })
  await app.register(async api => {
    api.get('/', { apiVersions: '1.0' }, says('root'))
    api.get('/h', { apiVersions: '1.0', constraints: { host: 'h.example' } }, says('h'))
    api.get('/n', { apiVersionNeutral: true }, says('n'))
  }, { prefix: '/api' })
  await app.ready()
  t.same(added, [
    'onSend rewriteFastifyError', 'onRoute apiVersioningRoute', 'onReady apiVersioningReady', 'onReady apiVersioningStoresBuilt', 'onReady apiVersioningTelemetry',
    'onRoute apiVersioningOpenApiSeeRoute', 'onReady apiVersioningOpenApiReach',
    'onRoute apiVersioningOpenApiRouteTransform', 'onReady apiVersioningOpenApiDocuments'
  ], 'every app hook named, of both entries')
  const printed = app.printRoutes({ includeHooks: true, commonPrefix: false })
  t.notMatch(printed, /anonymous/, 'no anonymous hook')
  for (const name of ['apiVersionHeaders', 'apiVersionRead', 'apiVersionLog', 'apiVersionNeutral', 'apiVersionNeutralCheck', 'apiVersionProblem', 'apiVersionPrefixRoot', 'apiVersionMediaType', 'apiVersionServed', 'apiVersionPolicy', 'apiVersionTelemetry', 'rewriteFastifyError']) {
    t.match(printed, new RegExp(`\\b${name}\\b`), name)
  }
})

// A `%` that starts no escape (or one that is no UTF-8) in a route schema's $ref: a coded start-up error that
// names the route and the reference, not the URIError of decoding it.
t.test('a $ref whose fragment has a malformed % escape fails start-up, naming the route and the reference', async t => {
  for (const ref of ['#/%ZZ', '#/properties/%C3', 'Q#/%']) {
    const app = await build()
    app.addSchema({ $id: 'Q', type: 'object' })
    let caught: (Error & { code?: unknown }) | undefined
    try {
      app.get('/a', { apiVersions: '1.0', schema: { querystring: { allOf: [{ $ref: ref }] } } }, says('a'))
    } catch (error) {
      caught = error as Error & { code?: unknown }
    }
    t.not(caught?.name, 'URIError', ref)
    t.equal(caught?.code, 'FST_API_VERSIONING_UNSUPPORTED_ROUTE', ref)
    t.match(caught?.message, `route GET /a: its querystring schema refers to ${ref}, whose fragment has a malformed % escape`, ref)
  }
})
