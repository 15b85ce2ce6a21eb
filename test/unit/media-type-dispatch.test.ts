import t from 'tap'
import Fastify from 'fastify'
import apiVersioning, { ApiVersion, errorObjects, type ApiVersioningOptions } from '../../lib/index.js'
import { build, problem, says } from './helpers.js'

const onlyMedia: ApiVersioningOptions = { problemDetails: true, reportApiVersions: true, versionReader: { query: false, header: false, urlSegment: false, mediaType: 'v' } }

async function orders (options: ApiVersioningOptions) {
  return build(options, app => {
    app.get('/orders', { apiVersions: '1.0' }, says('v1'))
    app.get('/orders', { apiVersions: '2.0' }, says('v2'))
    app.post('/orders', { apiVersions: '2.0' }, says('create'))
    app.get('/text', { apiVersions: '2.0' }, async (request, reply) => reply.type('text/plain').send('two'))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
  })
}

t.test('the version in Accept and Content-Type routes like any other', async t => {
  const app = await orders(onlyMedia)
  const v2 = await app.inject({ url: '/orders', headers: { accept: 'application/json;v=2.0' } })
  t.same(v2.json(), { route: 'v2', version: '2.0' })
  t.equal(v2.headers['content-type'], 'application/json; charset=utf-8; v=2.0', 'the response names the version')
  t.equal(v2.headers.vary, 'accept, content-type')
  t.equal(v2.headers['api-supported-versions'], '1.0, 2.0')
  t.same((await app.inject({ url: '/orders', headers: { accept: 'text/html, application/json;q=0.9;v=1' } })).json(), { route: 'v1', version: '1' })
  t.same((await app.inject({ method: 'POST', url: '/orders', payload: '{}', headers: { 'content-type': 'application/json;v=2.0', accept: 'application/json' } })).json(), { route: 'create', version: '2.0' })
  t.equal((await app.inject({ url: '/text', headers: { accept: 'text/plain;v=2' } })).headers['content-type'], 'text/plain; v=2')
  const neutral = await app.inject({ url: '/ping', headers: { accept: 'application/json;v=2.0' } })
  t.same(neutral.json(), { route: 'ping', version: '2.0' })
  t.equal(neutral.headers.vary, 'accept, content-type')
})

t.test('statuses when the media type is the only reader: 406 without a body type, 415 with one', async t => {
  const app = await orders(onlyMedia)
  const notAcceptable = await app.inject({ url: '/orders', headers: { accept: 'application/json;v=3.0' } })
  t.equal(notAcceptable.statusCode, 406)
  t.same(notAcceptable.json(), problem('unsupported', 406))
  t.equal(notAcceptable.headers['content-type'], 'application/problem+json; charset=utf-8', 'a problem stays a problem')
  t.equal(notAcceptable.headers['api-supported-versions'], '1.0, 2.0')
  const unsupported = await app.inject({ method: 'POST', url: '/orders', payload: '{}', headers: { 'content-type': 'application/json;v=3.0' } })
  t.equal(unsupported.statusCode, 415)
  t.same(unsupported.json(), problem('unsupported', 415))
  t.same((await app.inject({ url: '/orders', headers: { accept: 'application/json;v=x' } })).json(), problem('invalid'))
  t.same((await app.inject({ url: '/orders', headers: { accept: 'application/json;v=1.0, application/xml;v=2.0' } })).json(), problem('ambiguous'))
  t.same((await app.inject({ url: '/orders', headers: { accept: 'application/json' } })).json(), problem('unspecified'))
  t.same((await app.inject({ url: '/ping', headers: { accept: 'application/json;v=9' } })).json(), problem('unsupported', 406))
})

t.test('with other readers the usual status, and ambiguity across readers', async t => {
  const app = await orders({ problemDetails: true, versionReader: { mediaType: ['v', 'api-version'] } })
  t.same((await app.inject({ url: '/orders', headers: { accept: 'application/json;v=3.0' } })).json(), problem('unsupported'))
  t.same((await app.inject({ url: '/orders?api-version=2', headers: { accept: 'application/json;v=2.0' } })).json(), { route: 'v2', version: '2' }, '2 and 2.0 are one version')
  t.same((await app.inject({ url: '/orders?api-version=1', headers: { accept: 'application/json;v=2.0' } })).json(), problem('ambiguous'))
  t.same((await app.inject({ url: '/orders', headers: { 'api-version': '1', accept: 'application/json;API-Version=1.0' } })).json(), { route: 'v1', version: '1' })
  const query = await app.inject('/orders?api-version=2')
  t.equal(query.headers['content-type'], 'application/json; charset=utf-8', 'no media type version, no decoration')
  t.equal(query.headers.vary, 'api-version, accept, content-type')
})

t.test('vendor media types', async t => {
  const app = await orders({ problemDetails: true, versionReader: { query: false, header: false, urlSegment: false, mediaType: { template: 'application/vnd.acme.v{version}+json' } } })
  const v2 = await app.inject({ url: '/orders', headers: { accept: 'application/vnd.acme.v2+json' } })
  t.same(v2.json(), { route: 'v2', version: '2' })
  t.equal(v2.headers['content-type'], 'application/vnd.acme.v2+json; charset=utf-8')
  t.equal((await app.inject({ url: '/orders', headers: { accept: 'application/vnd.acme.v9+json' } })).statusCode, 406)
})

t.test('errorObjects name the media type parameter as the target', async t => {
  const app = Fastify()
  await app.register(errorObjects)
  await app.register(apiVersioning, { problemDetails: true, versionReader: { mediaType: 'v' } })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  t.equal((await app.inject({ url: '/a', headers: { accept: 'application/json;v=x' } })).json().error.target, 'v')
})

t.test('media type options are checked at start-up', async t => {
  const app = Fastify()
  app.register(apiVersioning, { versionReader: { mediaType: { template: 'application/json' } } })
  await t.rejects(async () => { await app.ready() }, /versionReader.mediaType.template must be a media type with one \{version\}/)
})

t.test('a version a hook assigns is the one the response names; any value a plain-JS hook assigns is safe', async t => {
  const app = await build({ ...onlyMedia, policies: { '2.0': { deprecation: { date: '2025-06-01' } }, '3.0': { deprecation: { date: '2026-01-01' } } } }, app => {
    app.get('/orders', {
      apiVersions: '2.0',
      onRequest: async (request) => {
        const wanted = request.headers['x-serve-as']
        if (wanted === 'null') request.apiVersion = null
        else if (wanted === 'undefined') (request as unknown as Record<string, unknown>).apiVersion = undefined
        else if (wanted === 'text') (request as unknown as Record<string, unknown>).apiVersion = '3.0'
        else if (wanted !== undefined) request.apiVersion = ApiVersion.parse(wanted as string)
      }
    }, async request => ({ version: request.apiVersion === null ? null : String(request.apiVersion) }))
  })
  const serve = (as?: string) => app.inject({ url: '/orders', headers: { accept: 'application/json;v=2', ...(as === undefined ? {} : { 'x-serve-as': as }) } })
  const asked = await serve()
  t.equal(asked.headers['content-type'], 'application/json; charset=utf-8; v=2', 'as the client spelled it')
  t.equal(asked.headers.deprecation, '@1748736000')
  const three = await serve('3.0')
  t.equal(three.headers['content-type'], 'application/json; charset=utf-8; v=3.0', 'the version served, not the one asked for')
  t.equal(three.headers.deprecation, '@1767225600', 'with the served version\'s policy')
  const none = await serve('null')
  t.equal(none.headers['content-type'], 'application/json; charset=utf-8', 'no version served, none named')
  t.notOk(none.headers.deprecation)
  for (const as of ['undefined', 'text']) {
    const odd = await serve(as)
    t.equal(odd.statusCode, 200, `apiVersion = ${as}`)
    t.equal(odd.headers['content-type'], 'application/json; charset=utf-8', 'a value that is no ApiVersion names no version')
    t.notOk(odd.headers.deprecation)
  }
})

t.test('a success names the version as the client spelled it, or as the route declares it when the spelling is longer', async t => {
  const app = await build(onlyMedia, app => {
    app.get('/one', { apiVersions: '1', deprecatedApiVersions: '0' }, says('one'))
    app.get('/two', { apiVersions: '2.0' }, says('two'))
  })
  const name = async (url: string, v: string) => (await app.inject({ url, headers: { accept: `application/json;v=${v}` } })).headers['content-type']
  t.equal(await name('/one', '1.0'), 'application/json; charset=utf-8; v=1', "the route's form, not the longer spelling")
  t.equal(await name('/one', '01'), 'application/json; charset=utf-8; v=1')
  t.equal(await name('/one', '1'), 'application/json; charset=utf-8; v=1')
  t.equal(await name('/one', '0.0'), 'application/json; charset=utf-8; v=0', 'a deprecated version as declared too')
  t.equal(await name('/two', '2'), 'application/json; charset=utf-8; v=2', 'a spelling no longer than the declared one is kept')
  t.equal(await name('/two', '2.00'), 'application/json; charset=utf-8; v=2.0')
  const vendor = await build({ versionReader: { mediaType: { template: 'application/vnd.acme.v{version}+json' } } }, app => { app.get('/x', { apiVersions: '2' }, says('x')) })
  t.equal((await vendor.inject({ url: '/x', headers: { accept: 'application/vnd.acme.v2.0+json' } })).headers['content-type'], 'application/vnd.acme.v2+json; charset=utf-8')
})

t.test('a success names the version as the client spelled it, or in its short form when the spelling is longer', async t => {
  const app = await orders(onlyMedia)
  const name = async (v: string) => (await app.inject({ url: '/orders', headers: { accept: `application/json;v=${v}` } })).headers['content-type']
  t.equal(await name('2'), 'application/json; charset=utf-8; v=2')
  t.equal(await name('2.0'), 'application/json; charset=utf-8; v=2.0')
  t.equal(await name('02.00'), 'application/json; charset=utf-8; v=2.0')
  t.equal(await name('2.' + '0'.repeat(6000)), 'application/json; charset=utf-8; v=2.0', 'never longer than the version')
  const vendor = await build({ versionReader: { mediaType: { template: 'application/vnd.acme.v{version}+json' } } }, app => { app.get('/x', { apiVersions: '2.0' }, says('x')) })
  t.equal((await vendor.inject({ url: '/x', headers: { accept: 'application/vnd.acme.v0002.0+json' } })).headers['content-type'], 'application/vnd.acme.v2.0+json; charset=utf-8')

  // A route with a host constraint sets its version in its own onRequest hook: an app-wide hook may answer first.
  const cached = await build(onlyMedia, app => {
    app.addHook('onRequest', async (request, reply) => reply.send({ cached: true }))
    app.get('/h', { apiVersions: '2.0', constraints: { host: 'h.example' } }, says('h'))
  })
  const early = await cached.inject({ url: '/h', headers: { host: 'h.example', accept: 'application/json;v=2.0' } })
  t.equal(early.statusCode, 200)
  t.equal(early.headers['content-type'], 'application/json; charset=utf-8', 'no version was served: none is named')
})
