import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import apiVersioning from '../../lib/index.js'
import apiVersioningOpenApi, { type ApiVersioningOpenApiOptions } from '../../lib/openapi/index.js'
import { checkPeerVersion, installedVersion, loadPeer, LOWEST_PEERS, type Peer } from '../../lib/openapi/peers.js'
import { logged } from './helpers.js'

const root = resolve(import.meta.dirname, '..', '..')

t.test('bad options fail start-up, naming the option', async t => {
  const cases: Array<[unknown, RegExp]> = [
    [{ routePrefix: 'openapi' }, /routePrefix must be a path such as '\/openapi': starting with '\/', without a trailing '\/' or route parameters \(got "openapi"\)/],
    [{ routePrefix: '/openapi/' }, /routePrefix must be a path/],
    [{ routePrefix: '/docs/:version' }, /routePrefix must be a path/],
    [{ routePrefix: 7 }, /routePrefix must be a path/],
    [{ openapi: 'doc' }, /openapi must be an object: the base OpenAPI document/],
    [{ openapi: [] }, /openapi must be an object/],
    [{ openapi: { openapi: '2.0' } }, /openapi.openapi must be an OpenAPI version 3.0.x or 3.1.x, such as '3.1.0' \(got "2.0"\)/],
    [{ openapi: { openapi: '3.2.0' } }, /openapi.openapi must be an OpenAPI version 3.0.x or 3.1.x/],
    [{ openapi: { openapi: 3.1 } }, /openapi.openapi must be/],
    [{ ui: 'yes' }, /ui must be a boolean or an object of @fastify\/swagger-ui options/],
    [{ ui: null }, /ui must be a boolean or an object/],
    [{ ui: { uiConfig: 'x' } }, /ui.uiConfig must be an object/],
    [{ ui: { routePrefix: 'docs' } }, /ui.routePrefix must be a path such as '\/docs'/],
    [{ ui: { routePrefix: '/openapi' } }, /ui.routePrefix and routePrefix must differ \(both are "\/openapi"\)/],
    [{ transform: {} }, /transform must be a function/],
    [{ transformObject: 'x' }, /transformObject must be a function/],
    // The documents are made at once: an async transform would give a promise for them.
    [{ transform: async () => ({}) }, /transform must return \{ schema, url \} synchronously, but it is an async function; make it without await/],
    [{ transformObject: async ({ document }: { document: unknown }) => document }, /transformObject must return the document synchronously, but it is an async function; make it without await/],
    [{ routeprefix: '/x' }, /unknown option "routeprefix"/]
  ]
  for (const [options, message] of cases) {
    const app = Fastify()
    await app.register(apiVersioning)
    app.register(apiVersioningOpenApi, options as ApiVersioningOpenApiOptions)
    await t.rejects(async () => { await app.ready() }, new TypeError(), JSON.stringify(options))
    await t.rejects(async () => {
      const again = Fastify()
      await again.register(apiVersioning)
      await again.register(apiVersioningOpenApi, options as ApiVersioningOpenApiOptions)
    }, message, JSON.stringify(options))
  }
})

t.test('good options', async t => {
  const app = Fastify()
  await app.register(apiVersioning)
  await app.register(apiVersioningOpenApi, { routePrefix: '/a/b-c.d', ui: false, openapi: { openapi: '3.0.0' } })
  app.get('/x', { apiVersions: '1.0' }, async () => 'x')
  await app.ready()
  t.equal((await app.inject('/a/b-c.d/1.0.json')).statusCode, 200)
  t.equal((await app.inject('/docs')).statusCode, 404, 'no page unless asked')
})

t.test('registered before apiVersioning, or beside it: Fastify refuses it, naming the dependency', async t => {
  const dependency = /The dependency 'fastify-api-versioning' of plugin 'fastify-api-versioning-openapi' is not registered/
  const app = Fastify()
  app.register(apiVersioningOpenApi)
  await t.rejects(async () => { await app.ready() }, dependency)

  const aside = Fastify()
  await aside.register(async api => { await api.register(apiVersioning) })
  aside.register(apiVersioningOpenApi)
  await t.rejects(async () => { await aside.ready() }, dependency, 'apiVersioning in a plugin beside it')
})

// The plugin's metadata declares its dependency on apiVersioning, as Fastify plugins do: Fastify refuses it, before
// it runs, where apiVersioning is not registered in its scope or above ("The dependency 'fastify-api-versioning'
// of plugin 'fastify-api-versioning-openapi' is not registered"), exactly as a plugin that declares the same.
t.test('the dependency on apiVersioning is declared, and checked by Fastify', async t => {
  const declaring = fp(async () => {}, { name: 'declaring', dependencies: ['fastify-api-versioning'] })
  const refused: string[] = []
  const setups: Record<string, (app: FastifyInstance, plugin: FastifyPluginAsync) => void> = {
    'no apiVersioning': (app, plugin) => { app.register(plugin) },
    'apiVersioning inside a plugin beside it': (app, plugin) => { app.register(async api => { await api.register(apiVersioning) }).register(plugin) },
    'apiVersioning first': (app, plugin) => { app.register(apiVersioning).register(plugin) },
    'apiVersioning at the root, it in a plugin': (app, plugin) => { app.register(apiVersioning).register(async api => { await api.register(plugin) }) },
    'apiVersioning in a fastify-plugin plugin': (app, plugin) => { app.register(fp(async api => { await api.register(apiVersioning) })).register(plugin) }
  }
  const outcome = async (setup: (app: FastifyInstance, plugin: FastifyPluginAsync) => void, plugin: FastifyPluginAsync): Promise<string> => {
    const app = Fastify()
    setup(app, plugin)
    try {
      await app.ready()
      return 'ready'
    } catch (error) {
      return (error as { code: string }).code
    }
  }
  for (const [name, setup] of Object.entries(setups)) {
    const fastifys = await outcome(setup, declaring)
    if (fastifys !== 'ready') refused.push(name)
    const ours = await outcome(setup, apiVersioningOpenApi as FastifyPluginAsync)
    t.equal(ours, fastifys, name)
  }
  t.same(refused, ['no apiVersioning', 'apiVersioning inside a plugin beside it'])
  t.same((apiVersioningOpenApi as unknown as Record<symbol, { dependencies?: unknown }>)[Symbol.for('plugin-meta')].dependencies, ['fastify-api-versioning'])
  // Another plugin by that name passes Fastify's check; the plugin's own says what is missing.
  const impostor = Fastify()
  impostor.register(fp(async () => {}, { name: 'fastify-api-versioning' })).register(apiVersioningOpenApi)
  await t.rejects(async () => { await impostor.ready() }, /register apiVersioning \(from fastify-api-versioning\) first, then this plugin, then the routes/)
})

t.test('registered twice: a start-up error', async t => {
  const app = Fastify()
  await app.register(apiVersioning)
  await app.register(apiVersioningOpenApi)
  await t.rejects(async () => { await app.register(apiVersioningOpenApi, { routePrefix: '/other' }) }, /fastify-api-versioning\/openapi is registered twice: register it once, after apiVersioning/)
})

t.test('a missing peer is a start-up error naming the package to install', async t => {
  await t.rejects(loadPeer('@fastify/not-installed' as Peer, 'the ui option'),
    { message: 'fastify-api-versioning/openapi needs the package @fastify/not-installed for the ui option, but it is not installed; install it: npm install @fastify/not-installed' })
  await t.rejects(loadPeer('data:text/javascript,throw new Error("broken")' as Peer, 'x'), /broken/, 'a peer that fails to load fails as it does')
  t.equal(typeof await loadPeer('@fastify/swagger', 'x'), 'function')
})

t.test('a peer older than the lowest tested version is a start-up error naming it, the version found and the range', async t => {
  t.same(LOWEST_PEERS, { '@fastify/swagger': '9.4.0', '@fastify/swagger-ui': '5.0.0' })
  t.throws(() => checkPeerVersion('@fastify/swagger', '9.3.0'), {
    message: 'fastify-api-versioning/openapi needs @fastify/swagger ^9.4.0 (9.4.0 or newer), but found @fastify/swagger 9.3.0; upgrade it: npm install @fastify/swagger@^9.4.0',
    code: 'FST_API_VERSIONING_MISSING_PEER'
  })
  t.throws(() => checkPeerVersion('@fastify/swagger-ui', '4.2.0'), { message: /needs @fastify\/swagger-ui \^5\.0\.0 \(5\.0\.0 or newer\), but found @fastify\/swagger-ui 4\.2\.0; upgrade it: npm install @fastify\/swagger-ui@\^5\.0\.0/ })
  t.throws(() => checkPeerVersion('@fastify/swagger', '8.15.0'), /found @fastify\/swagger 8\.15\.0/)
  t.throws(() => checkPeerVersion('@fastify/swagger', '9.3.9-rc.1'), /found @fastify\/swagger 9\.3\.9-rc\.1/)
  for (const version of ['9.4.0', '9.4.1', '9.10.0', '10.0.0', '9.4.0-rc.1', 'latest', undefined]) {
    t.doesNotThrow(() => checkPeerVersion('@fastify/swagger', version), `${version}: tested, newer, or not known`)
  }
  t.equal(installedVersion('@fastify/swagger'), JSON.parse(readFileSync(resolve(root, 'node_modules', '@fastify', 'swagger', 'package.json'), 'utf8')).version, 'the installed version is read')
  t.equal(installedVersion('@fastify/not-installed'), null, 'none where there is no package')
})

t.test('registered after routes: a start-up error naming the versioned routes it missed and the right order', async t => {
  const app = Fastify()
  await app.register(apiVersioning)
  app.get('/orders', { apiVersions: '1.0' }, async () => 'x')
  app.get('/orders', { apiVersions: '2.0', constraints: { host: 'example.com' } }, async () => 'x')
  await app.register(async scope => {
    scope.post('/orders/:id/lines', { apiVersions: ['1.0', '2.0'] }, async () => 'x')
  }, { prefix: '/shop' })
  app.get('/health', async () => 'ok')
  await t.rejects(async () => { await app.register(apiVersioningOpenApi) },
    { message: 'fastify-api-versioning/openapi: routes were declared before it was registered, so no document has them: GET /orders, POST /shop/orders/:id/lines, GET /health; register it right after apiVersioning and before the routes: await app.register(apiVersioning, ...); await app.register(apiVersioningOpenApi, ...); then declare the routes' })
})

t.test('registered after unversioned routes only: nothing to say of routes that declare nothing; neutral ones are named', async t => {
  const warnings: string[] = []
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { warnings.push(JSON.parse(line).msg) } } } })
  // @fastify/under-pressure's /status, another docs page: a plugin's routes come first, as a rule.
  app.get('/status', async () => 'ok')
  app.route({ method: ['GET', 'POST'], url: '/x', handler: async () => 'x' })
  await app.register(apiVersioning)
  app.get('/ping', { apiVersionNeutral: true }, async () => 'pong')
  app.post('/ping', { apiVersionNeutral: true }, async () => 'pong')
  await app.register(apiVersioningOpenApi)
  app.get('/orders', { apiVersions: '1.0' }, async () => 'x')
  await app.ready()
  t.same(warnings.filter(w => w.startsWith('fastify-api-versioning/openapi')), [
    'fastify-api-versioning/openapi: version-neutral routes were declared before it was registered, so no document has them: GET /ping, POST /ping; to document them, declare them after it (await app.register(apiVersioningOpenApi, ...) before the routes); routes that declare no versions are never warned of'
  ])
  t.same(app.apiVersionDocuments().map(d => Object.keys(d.document.paths)), [['/orders']])

  const quiet: string[] = []
  const clean = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { quiet.push(line) } } } })
  await clean.register(apiVersioning)
  await clean.register(apiVersioningOpenApi)
  clean.get('/orders', { apiVersions: '1.0' }, async () => 'x')
  await clean.ready()
  t.same(quiet, [], 'no word in the right order')
})

t.test('routes out of its reach (in a plugin beside it, or outside it): a warning naming them and where to register it; none when it sees them all', async t => {
  const ok = async () => 'ok'
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'warn', stream } })
  await app.register(apiVersioning)
  await app.register(async docs => { await docs.register(apiVersioningOpenApi) })
  await app.register(async api => {
    api.get('/orders', { apiVersions: '1.0' }, ok)
    api.get('/orders', { apiVersions: '2.0', constraints: { host: 'example.com' } }, ok)
    api.route({ method: ['POST', 'PUT'], url: '/orders/:id', apiVersions: ['1.0', '2.0'], handler: ok })
    api.get('/ping', { apiVersionNeutral: true }, ok)
    api.get('/health', ok)
  }, { prefix: '/api' })
  app.get('/late', { apiVersions: '1.0' }, ok)
  await app.ready()
  t.same(lines.filter(line => line.code !== undefined).map(({ level, code, msg }) => ({ level, code, msg })), [{
    level: 40,
    code: 'FST_API_VERSIONING_OPENAPI_SCOPE',
    msg: 'fastify-api-versioning/openapi: routes were declared where it cannot see them (in a plugin beside the one it was registered in, or outside it), so no document has them: GET /api/orders, POST /api/orders/:id, PUT /api/orders/:id, GET /api/ping, GET /late; register it at the root, right after apiVersioning and before the routes: await app.register(apiVersioning, ...); await app.register(apiVersioningOpenApi, ...); then declare the routes (give a route schema: { hide: true } to leave it out of the documents)'
  }], 'versioned and neutral routes are named, once per method and path; unversioned ones are not')
  // What the warning is about: documents that say nothing of the API.
  const served = await app.inject('/openapi/1.0.json')
  t.equal(served.statusCode, 200)
  t.same(served.json().paths, {})

  // None where it sees every versioned route: at the root (hidden routes included), or in the one plugin that has them.
  const quietly = async (set: (app: FastifyInstance) => Promise<void>): Promise<void> => {
    const { lines, stream } = logged()
    const app = Fastify({ logger: { level: 'warn', stream } })
    await app.register(apiVersioning)
    await set(app)
    await app.ready()
    t.same(lines, [])
  }
  await quietly(async app => {
    await app.register(apiVersioningOpenApi)
    await app.register(async api => {
      api.get('/orders', { apiVersions: '1.0' }, ok)
      api.get('/internal', { apiVersions: '1.0', schema: { hide: true } }, ok)
    }, { prefix: '/api' })
  })
  await quietly(async app => {
    await app.register(async api => {
      await api.register(apiVersioningOpenApi)
      api.get('/orders', { apiVersions: '1.0' }, ok)
    })
  })
})

t.test("an app without a logger (Fastify's default) gets the plugin's start-up warnings as Node process warnings; a logger's level is heeded", async t => {
  const warnings: Error[] = []
  const listener = (warning: Error): void => { warnings.push(warning) }
  process.on('warning', listener)
  t.teardown(() => { process.off('warning', listener) })
  const app = Fastify()
  await app.register(apiVersioning)
  await app.register(async docs => { await docs.register(apiVersioningOpenApi) })
  await app.register(async api => { api.get('/orders', { apiVersions: '1.0' }, async () => 'ok') })
  await app.ready()
  await new Promise(resolve => setImmediate(resolve))
  t.match(warnings, [{ name: 'Warning', code: 'FST_API_VERSIONING_OPENAPI_SCOPE', message: /^fastify-api-versioning\/openapi: routes were declared where it cannot see them .*: GET \/orders;/ }])
  const early = Fastify()
  early.register(apiVersioning)
  early.get('/x', { apiVersions: '1.0' }, async () => 'x')
  await early.ready()
  await new Promise(resolve => setImmediate(resolve))
  t.match(warnings.slice(1), [{ name: 'Warning', code: undefined, message: /^fastify-api-versioning: no route declares versions, and routes were declared before the plugin was loaded/ }])
  const silent = Fastify({ logger: { level: 'error' } })
  silent.register(apiVersioning)
  silent.get('/x', { apiVersions: '1.0' }, async () => 'x')
  await silent.ready()
  await new Promise(resolve => setImmediate(resolve))
  t.equal(warnings.length, 2, 'none where the logger leaves warnings out')
  // A logger of the app's own, of no level (a loggerInstance): it gets them.
  const got: unknown[] = []
  const own = { info () {}, error () {}, debug () {}, fatal () {}, trace () {}, warn (...args: unknown[]) { got.push(args.at(-1)) }, child () { return own } }
  const custom = Fastify({ loggerInstance: own as never })
  custom.register(apiVersioning)
  custom.get('/x', { apiVersions: '1.0' }, async () => 'x')
  await custom.ready()
  await new Promise(resolve => setImmediate(resolve))
  t.equal(warnings.length, 2, 'no process warning')
  t.match(got, [/^fastify-api-versioning: no route declares versions/], "the app's logger got it")
})
