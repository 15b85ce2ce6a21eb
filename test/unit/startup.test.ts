import t from 'tap'
import Fastify, { type FastifyInstance } from 'fastify'
import cors from '@fastify/cors'
import fp from 'fastify-plugin'
import apiVersioning, { ApiVersion, withApiVersions, type ApiVersioningOptions } from '../../lib/index.js'
import { build, logged, says } from './helpers.js'

t.test('the version headers cannot take a name HTTP gives a meaning of its own', async t => {
  const refused = [
    'set-cookie', 'Content-Encoding', 'location', 'WWW-Authenticate', 'vary', 'content-type', 'content-length',
    'transfer-encoding', 'connection', 'deprecation', 'sunset', 'link', 'cache-control', 'etag', 'expires', 'age',
    'retry-after', 'allow', 'server', 'date', 'trailer', 'upgrade', 'via', 'warning', 'keep-alive', 'alt-svc',
    'strict-transport-security', 'content-security-policy', 'x-frame-options', 'x-content-type-options',
    'access-control-allow-origin', 'Access-Control-Expose-Headers', 'sec-fetch-mode', 'if-none-match', 'accept-ranges',
    'proxy-authenticate', 'x-forwarded-proto', 'ratelimit-remaining', 'x-ratelimit-limit', 'cross-origin-resource-policy',
    'referrer-policy', 'permissions-policy', 'server-timing', 'clear-site-data', 'preference-applied', 'content-digest',
    'x-powered-by', 'x-request-id', 'forwarded', 'priority'
  ]
  for (const name of refused) {
    for (const key of ['supportedHeader', 'deprecatedHeader']) {
      await t.rejects(async () => { await Fastify().register(apiVersioning, { reportApiVersions: { [key]: name } }).ready() },
        { code: 'FST_API_VERSIONING_INVALID_OPTION', message: `fastify-api-versioning: reportApiVersions.${key} must not be ${JSON.stringify(name)}, a header HTTP gives a meaning of its own; name it for the versions, such as 'x-api-versions'` }, `${key}: ${name}`)
    }
  }
  // Names of the app's own: fine.
  for (const name of ['x-api-versions', 'api-supported-versions', 'x-versions', 'acme-api-versions', 'versions']) {
    const app = await build({ reportApiVersions: { supportedHeader: name, deprecatedHeader: `${name}-deprecated` } }, app => {
      app.get('/a', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, says('a'))
    })
    const res = await app.inject('/a?api-version=1.0')
    t.same([res.headers[name], res.headers[`${name}-deprecated`]], ['1.0', '0.9'], name)
  }
})

t.test('bad plugin options fail start-up, naming the option', async t => {
  const cases: Array<[unknown, RegExp]> = [
    [{ unsupportedApiVersionStatusCode: 200 }, /unsupportedApiVersionStatusCode must be an integer from 400 to 599 \(got 200\)/],
    [{ unsupportedApiVersionStatusCode: 404.5 }, /unsupportedApiVersionStatusCode must be an integer from 400 to 599/],
    [{ unsupportedApiVersionStatusCode: '404' }, /unsupportedApiVersionStatusCode must be an integer/],
    [{ problemDetails: 'yes' }, /problemDetails must be a boolean/],
    [{ reportApiVersions: 1 }, /reportApiVersions must be a boolean or \{ supportedHeader\?, deprecatedHeader\? \} \(got 1\)/],
    [{ reportApiVersions: { supported: 'x' } }, /unknown reportApiVersions option "supported"/],
    [{ reportApiVersions: { supportedHeader: 'x versions' } }, /reportApiVersions.supportedHeader must be a header name \(got "x versions"\)/],
    [{ reportApiVersions: { deprecatedHeader: 7 } }, /reportApiVersions.deprecatedHeader must be a header name \(got 7\)/],
    [{ reportApiVersions: { deprecatedHeader: Symbol('v') } }, /reportApiVersions.deprecatedHeader must be a header name \(got Symbol\(v\)\)/],
    [{ reportApiVersions: { supportedHeader: 'Vary' } }, /reportApiVersions.supportedHeader must not be "Vary", a header HTTP gives a meaning of its own; name it for the versions, such as 'x-api-versions'/],
    [{ reportApiVersions: { supportedHeader: 'X-V', deprecatedHeader: 'x-v' } }, /reportApiVersions.supportedHeader and deprecatedHeader must be two headers \(both are "x-v"\)/],
    [{ assumeDefaultVersionWhenUnspecified: null }, /assumeDefaultVersionWhenUnspecified must be a boolean/],
    [{ defaultVersion: '1.x' }, /defaultVersion must be a valid API version such as '1.0' \(got "1.x"\)/],
    [{ defaultVersion: 1 }, /defaultVersion must be a valid API version/],
    [{ problemTypeBase: '' }, /problemTypeBase must be a non-empty URI/],
    [{ problemTypeBase: 'https://x/p#a' }, /problemTypeBase must be a non-empty URI without '#'/],
    [{ problemTypeBase: 7 }, /problemTypeBase/],
    [{ versionReader: [] }, /versionReader must be an object/],
    [{ versionReader: null }, /versionReader must be an object/],
    [{ versionReader: { media: 'v' } }, /unknown versionReader option "media"/],
    [{ versionReader: { query: [] } }, /versionReader.query must be false, a name or a non-empty array of names \(got \[\]\)/],
    [{ versionReader: { query: 'a=b' } }, /versionReader.query must be false/],
    [{ versionReader: { header: ['ok', 'bad header'] } }, /versionReader.header must be false/],
    [{ versionReader: { header: true } }, /versionReader.header must be false/],
    [{ versionReader: { urlSegment: 'not-a-param' } }, /versionReader.urlSegment must be false or a route parameter name/],
    [{ versionReader: { urlSegment: true } }, /versionReader.urlSegment must be false or a route parameter name/],
    [{ versionReader: { query: false, header: false, urlSegment: false } }, /versionReader must enable at least one of query, header, urlSegment, mediaType and custom/],
    [{ problemWriters: {} }, /problemWriters must be an array of \{ canWrite\(context\), write\(context\) \} objects/],
    [{ problemWriters: [{ canWrite: () => true }] }, /problemWriters must be an array/],
    [{ problemWriters: [null] }, /problemWriters must be an array/],
    [{ problemWriters: [{ canWrite: () => false, write () {} }, { async canWrite () { return true }, write () {} }] }, /problemWriters\[1\]\.canWrite must answer synchronously, but it is an async function; decide from the context without await/],
    [{ problemWriters: [{ name: 7, canWrite: () => true, write: () => {} }] }, /problemWriters\[0\]\.name must be a non-empty string \(got 7\)/],
    [{ problemWriters: [{ canWrite: () => true, write: () => {} }, { name: '', canWrite: () => true, write: () => {} }] }, /problemWriters\[1\]\.name must be a non-empty string \(got ""\)/],
    [{ problemWriters: [{ name: () => 'w', canWrite: () => true, write: () => {} }] }, /problemWriters\[0\]\.name must be a non-empty string \(got function\)/],
    [{ reportApiVersion: true }, /unknown option "reportApiVersion"/],
    ['x', /options must be an object \(got x\)/],
    [[], /options must be an object/],
    // eslint-disable-next-line no-sparse-arrays
    [{ versionReader: { query: ['api-version', , 'v'] } }, /versionReader.query must be false, a name or a non-empty array of names \(got \["api-version",null,"v"\]\)/],
    // eslint-disable-next-line no-sparse-arrays
    [{ versionReader: { header: [, 'x-v'] } }, /versionReader.header must be false/],
    // eslint-disable-next-line no-sparse-arrays
    [{ problemWriters: [, { canWrite: () => true, write: () => {} }] }, /problemWriters must be an array of \{ canWrite\(context\), write\(context\) \} objects/]
  ]
  for (const [options, message] of cases) {
    const app = Fastify()
    app.register(apiVersioning, options as ApiVersioningOptions)
    await t.rejects(async () => { await app.ready() }, message, JSON.stringify(options))
  }
})

t.test('good reader options', async t => {
  const app = await build({ problemDetails: true, versionReader: { query: 'v', header: ['X-Api-Version', 'x-api-version'], urlSegment: false } }, app => {
    app.get('/a/:apiVersion', { apiVersions: '1.0' }, says('a'))
  })
  t.equal((await app.inject('/a/2?v=1')).statusCode, 200)
  t.equal((await app.inject({ url: '/a/2', headers: { 'x-api-version': '1' } })).statusCode, 200)
  t.equal((await app.inject('/a/1?api-version=1')).statusCode, 400, 'api-version is no longer read, nor the path')
})

t.test('bad route declarations fail where the route is declared, naming it', async t => {
  const cases: Array<[(app: ReturnType<typeof Fastify>) => void, RegExp]> = [
    [app => app.get('/a', { apiVersions: '1.x' }, says('a')), /route GET \/a: apiVersions has "1.x", which is not a valid API version/],
    [app => app.get('/a', { apiVersions: [] }, says('a')), /route GET \/a: apiVersions must be a version string or a non-empty array of them/],
    [app => app.get('/a', { apiVersions: 1 as unknown as string }, says('a')), /apiVersions must be a version string/],
    [app => app.get('/a', { apiVersions: [1] as unknown as string[] }, says('a')), /apiVersions has 1, which is not a valid API version/],
    // eslint-disable-next-line no-sparse-arrays
    [app => app.get('/a', { apiVersions: ['1.0', , '2.0'] as unknown as string[] }, says('a')), /route GET \/a: apiVersions has undefined, which is not a valid API version \(give it as text, e\.g\. '1\.0'\)/],
    [app => app.get('/a', { deprecatedApiVersions: [ApiVersion.parse('3.0')] as unknown as string[] }, says('a')), /route GET \/a: deprecatedApiVersions has the ApiVersion object 3\.0, which is not a valid API version \(give it as text/],
    [app => app.get('/a', { apiVersions: [{}] as unknown as string[] }, says('a')), /apiVersions has an object, which is not a valid API version/],
    [app => app.get('/a', { deprecatedApiVersions: ['x'] }, says('a')), /route GET \/a: deprecatedApiVersions has "x"/],
    [app => app.get('/a', { apiVersionNeutral: 'yes' as unknown as boolean }, says('a')), /route GET \/a: apiVersionNeutral must be true or false/],
    [app => app.get('/a', { constraints: { apiVersion: '1.0' } }, says('a')), /route GET \/a sets constraints.apiVersion, which the plugin owns; declare apiVersions instead/],
    [app => app.get('/a', { apiVersionNeutral: true, apiVersions: '1.0' }, says('a')), /route GET \/a is version-neutral, so it cannot also declare apiVersions/],
    [app => app.get('/a', { apiVersions: ['1.0', '1'] }, says('a')), /route GET \/a declares API version 1 twice/],
    [app => app.get('/a', { apiVersions: ['1.0'], deprecatedApiVersions: '1.0' }, says('a')), /route GET \/a declares API version 1.0 twice \(1\.0 in apiVersions, 1\.0 in deprecatedApiVersions\)/],
    [app => {
      app.get('/a', { apiVersions: ['1.0', '2.0'] }, says('a'))
      app.get('/a', { apiVersions: ['2'] }, says('b'))
    }, /route GET \/a declares API version 2, which another GET \/a route already declares/],
    [app => {
      app.get('/a', { apiVersionNeutral: true }, says('a'))
      app.get('/a', { apiVersions: '1.0' }, says('b'))
    }, /route GET \/a is versioned, but another GET \/a route is version-neutral; one method and path cannot mix them/],
    [app => {
      app.get('/a', { apiVersions: '1.0' }, says('a'))
      app.get('/a', says('b'))
    }, /route GET \/a is unversioned, but another GET \/a route is versioned/],
    [app => {
      app.get('/a', says('b'))
      app.get('/a', { apiVersions: '1.0' }, says('a'))
    }, /route GET \/a is versioned, but another GET \/a route is unversioned/],
    [app => app.get('/a', { apiVersions: '1.0', constraints: { host: /^api\./ } }, says('a')), /route GET \/a has a RegExp host constraint: Fastify's router keeps one per route, so a versioned route and the hidden route the plugin adds beside it cannot share it, and no version would be served; give the host as a string/],
    [app => {
      app.route({ method: ['GET', 'POST'], url: '/a', apiVersions: '1.0', handler: says('a') })
      app.post('/a', { apiVersions: '1.0' }, says('b'))
    }, /route POST \/a declares API version 1.0, which another POST \/a route already declares/]
  ]
  for (const [declare, message] of cases) {
    const app = await build()
    t.throws(() => declare(app), message)
  }
  const prefixed = await build()
  await t.rejects(async () => { await prefixed.register(async scope => { scope.get('/a', { apiVersions: 'v1' }, says('a')) }, { prefix: '/api' }) }, /route GET \/api\/a: apiVersions has "v1"/)
})

t.test('the plugin registers once per server', async t => {
  const app = Fastify()
  app.register(apiVersioning)
  app.register(apiVersioning)
  await t.rejects(async () => { await app.ready() }, /register apiVersioning once, before the routes/)
})

t.test('routes declared before the plugin are not versioned', async t => {
  const app = Fastify()
  app.get('/early', { apiVersions: '1.0' }, says('early'))
  await app.register(apiVersioning, { problemDetails: true })
  t.same((await app.inject('/early?api-version=7')).json(), { route: 'early', version: null })
})

t.test('a route declared before the plugin on a path versioned after it is a start-up error, not a dead route', async t => {
  const app = Fastify()
  app.get('/orders/:id', says('early'))
  app.get('/status', says('status'))
  await app.register(apiVersioning, { problemDetails: true })
  t.throws(() => app.get('/orders/:orderId', { apiVersions: '1.0' }, says('v1')), /route GET \/orders\/:orderId is versioned, but a GET \/orders\/:orderId route declared before the plugin was loaded is not; one method and path cannot mix them, so declare that route after `await app.register\(apiVersioning, \.\.\.\)`, with its versions/)
  t.throws(() => app.get('/status', { apiVersionNeutral: true }, says('neutral')), /route GET \/status is version-neutral, but a GET \/status route declared before the plugin/)
  app.get('/status', { apiVersionNeutral: true, constraints: { host: 'a.example' } }, says('elsewhere'))
  t.equal((await app.inject({ url: '/status', headers: { host: 'a.example' } })).json().route, 'elsewhere', 'other constraints make another route')
})

t.test("a plugin's routes declared before the plugin, in an app with versioned routes, are named at debug level, never in a warning", async t => {
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'debug', stream } })
  // As @fastify/under-pressure does: a /status route, which declares nothing, added before apiVersioning.
  await app.register(fp(async underPressure => { underPressure.get('/status', async () => ({ status: 'ok' })) }))
  await app.register(apiVersioning)
  app.get('/orders', { apiVersions: '1.0' }, says('orders'))
  await app.ready()
  const ours = lines.filter(line => line.msg.startsWith('fastify-api-versioning:'))
  t.same(ours.filter(line => line.level >= 40), [], 'no warning')
  t.match(ours, [{ level: 20, msg: /^fastify-api-versioning: routes declared before the plugin was loaded are unversioned \(\/status \(GET, HEAD\)\): the plugin does not see them/ }])
  t.equal((await app.inject('/status')).statusCode, 200)
})

t.test('routes declared before the plugin, in an app where no route is versioned, are named in a warning that says to await the registration', async t => {
  // The usual mistake: without `await`, the routes are declared before the plugin loads, and none is versioned.
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'warn', stream } })
  app.register(apiVersioning)
  app.get('/x', { apiVersions: '1.0' }, says('x'))
  await app.ready()
  t.match(lines, [{ level: 40, msg: /^fastify-api-versioning: no route declares versions, and routes were declared before the plugin was loaded \(\/x \(GET, HEAD\)\), where it cannot see them: those that declare apiVersions, deprecatedApiVersions, apiVersionNeutral or versionChanges are silently unversioned\. `await app\.register\(apiVersioning, \.\.\.\)` before declaring routes/ }])
  t.equal(lines.length, 1, 'one warning')

  const quiet = logged()
  const none = Fastify({ logger: { level: 'warn', stream: quiet.stream } })
  await none.register(apiVersioning)
  none.get('/health', says('health'))
  await none.ready()
  t.same(quiet.lines, [], 'no early routes, no warning')
})

t.test('a declared version must be visible ASCII, since it goes into headers', async t => {
  const declarations: Array<[(app: ReturnType<typeof Fastify>) => void, RegExp]> = [
    [app => app.get('/a', { apiVersions: ['1.0', '1.0-бета'] }, says('a')), /route GET \/a: apiVersions has "1.0-бета", which cannot be sent in a header: a declared API version must be visible ASCII \(letters, digits, '.' and '-'\), such as '1.0-beta'/],
    [app => app.get('/a', { deprecatedApiVersions: '0.9-ä' }, says('a')), /route GET \/a: deprecatedApiVersions has "0.9-ä", which cannot be sent in a header/],
    [app => app.register(withApiVersions({ apiVersions: '2.0-β' }, async scope => { scope.get('/b', says('b')) })), /set of withApiVersions: apiVersions has "2.0-β", which cannot be sent in a header/]
  ]
  for (const [declare, message] of declarations) {
    const app = await build({ problemDetails: true, reportApiVersions: true })
    await t.rejects(async () => { declare(app); await app.ready() }, message)
  }
  const options: Array<[ApiVersioningOptions, RegExp]> = [
    [{ defaultVersion: '1.0-é' }, /defaultVersion must be visible ASCII, since it goes into headers \(got "1.0-é"\)/],
    [{ policies: { '1.0-ü': { deprecation: { date: '2026-01-01' } } } }, /policies\['1.0-ü'\] is keyed by a version that cannot be sent in a header: a declared API version must be visible ASCII/]
  ]
  for (const [given, message] of options) {
    const app = Fastify()
    app.register(apiVersioning, given)
    await t.rejects(async () => { await app.ready() }, message)
  }

  // Requests may send any text: what they send is Unsupported or Invalid, as before.
  const app = await build({ problemDetails: true, reportApiVersions: true }, app => { app.get('/a', { apiVersions: '1.0' }, says('a')) })
  const unsupported = await app.inject('/a?api-version=1.0-%D0%B1%D0%B5%D1%82%D0%B0')
  t.equal(unsupported.statusCode, 400)
  t.equal(unsupported.json().code, 'UnsupportedApiVersion')
  t.equal(unsupported.headers['api-supported-versions'], '1.0')
  t.equal((await app.inject('/a?api-version=1.%D0%B1')).json().code, 'InvalidApiVersion')
})

t.test('registered inside a plugin, it versions that plugin; a route outside that declares versions fails start-up', async t => {
  async function scoped () {
    const app = Fastify()
    await app.register(async api => {
      await api.register(apiVersioning, { problemDetails: true })
      api.get('/in', { apiVersions: '1.0' }, says('in'))
      await api.register(async inner => { inner.get('/inner', { apiVersions: '2.0' }, says('inner')) })
    })
    return app
  }
  const outside: Array<[string, (app: FastifyInstance) => unknown, RegExp]> = [
    ['a root route', app => app.get('/x', { apiVersions: '1.0' }, says('x')), /route GET \/x declares apiVersions, but apiVersioning is registered inside a plugin and does not see it, so it would be unversioned; register apiVersioning at the root \(await app\.register\(apiVersioning, \.\.\.\) on the app itself\), before the routes/],
    ['deprecated versions', app => app.get('/x', { deprecatedApiVersions: '0.9' }, says('x')), /route GET \/x declares deprecatedApiVersions, but apiVersioning is registered inside a plugin/],
    ['several methods', app => app.route({ method: ['GET', 'POST'], url: '/m', apiVersions: '1.0', handler: says('m') }), /route GET,POST \/m declares apiVersions, but apiVersioning/],
    ['a neutral route', app => app.get('/x', { apiVersionNeutral: true }, says('x')), /route GET \/x declares apiVersionNeutral, but apiVersioning/],
    ['a route of versionChanges', app => app.get('/x', { versionChanges: true }, says('x')), /route GET \/x declares versionChanges, but apiVersioning/],
    ['a sibling plugin', app => app.register(async other => { other.get('/y', { apiVersions: '1.0' }, says('y')) }), /route GET \/y declares apiVersions, but apiVersioning/],
    ['a version set', app => app.register(withApiVersions({ apiVersions: '1.0' }, async (other: FastifyInstance) => { other.get('/z', says('z')) })), /route GET \/z declares apiVersions, but apiVersioning/]
  ]
  for (const [label, declare, message] of outside) {
    const app = await scoped()
    await t.rejects(async () => { await declare(app); await app.ready() }, message, label)
  }

  // What the plugin's scope holds is versioned; routes outside it that declare nothing are left alone.
  const app = await scoped()
  app.get('/plain', async request => ({ version: request.apiVersion }))
  app.get('/not-neutral', { apiVersionNeutral: false }, async request => ({ version: request.apiVersion }))
  await app.register(async other => { other.get('/other', async request => ({ version: request.apiVersion })) })
  t.same((await app.inject('/in?api-version=1.0')).json(), { route: 'in', version: '1.0' })
  t.equal((await app.inject('/in?api-version=3')).json().code, 'UnsupportedApiVersion')
  t.same((await app.inject('/inner?api-version=2.0')).json(), { route: 'inner', version: '2.0' })
  t.same((await app.inject('/plain?api-version=1.0')).json(), { version: null }, 'request.apiVersion is null, not undefined, outside the scope')
  t.same((await app.inject('/other')).json(), { version: null })
  t.same((await app.inject('/not-neutral')).json(), { version: null }, 'apiVersionNeutral: false declares nothing')

  // Two servers, each with the plugin in a scope: each has its own root.
  const again = await scoped()
  t.same((await again.inject('/in?api-version=1')).json(), { route: 'in', version: '1' })
})

t.test('the plugin says so when route options are misspelt', async t => {
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'warn', stream } })
  // In an app with versioned routes, an early route is taken for a plugin's route: named at debug level only.
  app.get('/early', { apiVersions: '1.0' }, says('early'))
  await app.register(apiVersioning)
  app.get('/a', { apiVersion: '1.0' } as object, says('a'))
  app.get('/b', { config: { apiVersions: '1.0' } }, says('b'))
  app.get('/c', { deprecatedApiVersion: '1.0', config: { apiVersionNeutral: true } } as object, says('c'))
  app.get('/v:version/d', { apiVersions: '1.0' }, says('d'))
  app.get('/plain/:version', says('plain'))
  app.get('/v:apiVersion/e', { apiVersions: '1.0' }, says('e'))
  app.get('/n/v:apiVersion', { apiVersionNeutral: true }, says('n'))
  app.get('/unversioned/v:apiVersion/f', says('f'))
  await app.ready()
  t.match(lines.map(line => line.msg), [
    /route GET \/a has the option apiVersion, which is ignored; did you mean apiVersions\?/,
    /route GET \/b has config.apiVersions, which is ignored; apiVersions is a route option, beside config/,
    /route GET \/c has the option deprecatedApiVersion, which is ignored; did you mean deprecatedApiVersions\?/,
    /route GET \/c has config.apiVersionNeutral, which is ignored/,
    /route GET \/v:version\/d has the path parameter :version, which is ignored; the version in the path is read from :apiVersion \(versionReader.urlSegment\), as in \/v:apiVersion\/\.\.\./,
    // Once for the GET route and the HEAD route Fastify adds beside it.
    /^fastify-api-versioning: route GET \/unversioned\/v:apiVersion\/f has the path parameter :apiVersion, which is ignored; it declares no versions, so the version its path names is not read and any text is taken: declare apiVersions \(or apiVersionNeutral: true\) on it, or name the parameter otherwise$/
  ])
  t.equal(lines.length, 6)
  t.same((await app.inject('/unversioned/vanything/f')).json(), { route: 'f', version: null }, 'what the warning says')

  const off = logged()
  const noPath = Fastify({ logger: { level: 'warn', stream: off.stream } })
  await noPath.register(apiVersioning, { versionReader: { urlSegment: false } })
  noPath.get('/v:apiVersion/x', { apiVersions: '1.0' }, says('x'))
  await noPath.ready()
  t.match(off.lines.map(line => line.msg), [/route GET \/v:apiVersion\/x has the path parameter :apiVersion, which is ignored; the version is not read from the path \(versionReader.urlSegment is false\)/])
})

t.test('a default version that no route implements, assumed for requests without one, is a start-up warning', async t => {
  const warned = async (options: ApiVersioningOptions, versions: string[]) => {
    const { lines, stream } = logged()
    const app = Fastify({ logger: { level: 'warn', stream } })
    await app.register(apiVersioning, options)
    for (const v of versions) app.get(`/r${v}`, { apiVersions: v }, says(v))
    app.get('/n', { apiVersionNeutral: true }, says('n'))
    await app.ready()
    return lines.map(line => line.msg)
  }
  t.same(await warned({ assumeDefaultVersionWhenUnspecified: true }, ['2.0', '3']), [
    "fastify-api-versioning: assumeDefaultVersionWhenUnspecified is on, but no route implements defaultVersion 1.0, so every request without a version is answered Unsupported; set defaultVersion to a version the routes declare (2.0, 3), or choose per path with apiVersionSelector: 'current'"
  ])
  t.same(await warned({ assumeDefaultVersionWhenUnspecified: true, defaultVersion: '2' }, ['2.0', '3']), [], 'one route implements it')
  t.same(await warned({ assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: 'current' }, ['2.0']), [], 'a selector picks per path')
  t.same(await warned({ assumeDefaultVersionWhenUnspecified: false }, ['2.0']), [], 'nothing is assumed')
  t.same(await warned({ assumeDefaultVersionWhenUnspecified: true }, []), [], 'no versioned route: the neutral one serves the default version')
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
