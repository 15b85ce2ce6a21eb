import t from 'tap'
import Fastify from 'fastify'
import apiVersioning, { withApiVersions } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { build, problem, says } from './helpers.js'

// This service implements 1.0 of /orders; 2.0 (and the deprecated 0.9) run on another service behind the same
// gateway, and clients learn of them from every response.
t.test('advertised versions are reported on every response of the path, and never routed here', async t => {
  const app = await build({ problemDetails: true, reportApiVersions: true }, app => {
    app.get('/orders/:id', { apiVersions: '1.0', advertisedApiVersions: '2.0', advertisedDeprecatedApiVersions: ['0.9'] }, says('get'))
    app.delete('/orders/:orderId', { apiVersions: '1.0' }, says('delete'))
    app.get('/v:apiVersion/items', { apiVersions: '1.0', advertisedApiVersions: ['2.0', '3.0-beta'] }, says('items'))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
  })
  const headers = { 'api-supported-versions': '1.0, 2.0', 'api-deprecated-versions': '0.9' }
  const cases: Array<[string, string, number, unknown]> = [
    ['GET', '/orders/1?api-version=1.0', 200, { route: 'get', version: '1.0' }],
    ['GET', '/orders/1?api-version=2.0', 400, problem('unsupported')],
    ['GET', '/orders/1?api-version=0.9', 400, problem('unsupported')],
    ['GET', '/orders/1', 400, problem('unspecified')],
    ['DELETE', '/orders/1?api-version=1.0', 200, { route: 'delete', version: '1.0' }],
    ['DELETE', '/orders/1?api-version=2.0', 400, problem('unsupported')]
  ]
  for (const [method, url, status, body] of cases) {
    const res = await app.inject({ method: method as 'GET', url })
    t.equal(res.statusCode, status, `${method} ${url}`)
    t.same(res.json(), body, `${method} ${url}`)
    t.same([res.headers['api-supported-versions'], res.headers['api-deprecated-versions']], Object.values(headers), `${method} ${url}: every method, problems included`)
  }
  const path = await app.inject('/v2/items')
  t.equal(path.statusCode, 404)
  t.equal(path.headers['api-supported-versions'], '1.0, 2.0, 3.0-beta')
  t.equal((await app.inject('/ping?api-version=2.0')).statusCode, 400, 'version-neutral routes take only versions served here')
})

t.test('advertised versions in a version set', async t => {
  const app = await build({ reportApiVersions: true }, async app => {
    await app.register(withApiVersions({ apiVersions: '1.0', advertisedApiVersions: '2.0' }, async scope => {
      scope.get('/a', says('a'))
    }))
  })
  const res = await app.inject('/a?api-version=1')
  t.equal(res.statusCode, 200)
  t.equal(res.headers['api-supported-versions'], '1.0, 2.0')
})

t.test('advertised versions are checked where they are declared', async t => {
  const cases: Array<[(app: Awaited<ReturnType<typeof build>>) => unknown, RegExp]> = [
    [app => app.get('/a', { advertisedApiVersions: '2.0' }, says('a')), /route GET \/a advertises versions other services implement but implements none itself; give it apiVersions or deprecatedApiVersions as well/],
    [app => app.get('/a', { apiVersionNeutral: true, advertisedApiVersions: '2.0' }, says('a')), /route GET \/a is version-neutral, so it cannot also declare apiVersions, deprecatedApiVersions or advertised versions/],
    [app => app.get('/a', { apiVersions: '2.0', advertisedApiVersions: '2' }, says('a')), /route GET \/a declares API version 2 twice \(2\.0 in apiVersions, 2 in advertisedApiVersions\); a route implements, deprecates or advertises a version once: remove one/],
    [app => app.get('/a', { apiVersions: '1.0', advertisedDeprecatedApiVersions: ['x'] }, says('a')), /advertisedDeprecatedApiVersions has "x", which is not a valid API version/],
    [app => app.get('/a/:id', { apiVersions: '1.0', advertisedApiVersions: '2.0' }, says('a')).delete('/a/:key', { apiVersions: '2.0' }, says('b')),
      /route GET \/a\/:id advertises API version 2.0 as implemented by another service, but route DELETE \/a\/:key implements it on this path; declare it in one place/],
    [app => app.get('/a', { deprecatedApiVersions: '1.0' }, says('a')).post('/a', { apiVersions: '2.0', advertisedDeprecatedApiVersions: '1' }, says('b')),
      /route POST \/a advertises API version 1 as implemented by another service, but route GET \/a implements it on this path/]
  ]
  for (const [declare, message] of cases) {
    const app = await build()
    t.throws(() => declare(app), message)
  }
  t.throws(() => withApiVersions({ advertisedApiVersions: '2.0' }, async () => {}), /set of withApiVersions advertises versions other services implement but implements none itself/)
  const scoped = Fastify()
  await scoped.register(async api => { await api.register(apiVersioning) })
  t.throws(() => scoped.get('/x', { advertisedApiVersions: '2.0' }, says('x')), /route GET \/x declares advertisedApiVersions, but apiVersioning is registered inside a plugin/)
})

t.test('advertised versions are in no document of this service, and in the version headers the documents show', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true, reportApiVersions: true })
  await app.register(apiVersioningOpenApi)
  app.get('/orders', { apiVersions: '1.0', advertisedApiVersions: '2.0' }, says('orders'))
  await app.ready()
  t.same(app.apiVersionDocuments().map(d => d.version), ['1.0'])
  t.equal((await app.inject('/openapi/2.0.json')).statusCode, 404)
  const document = (await app.inject('/openapi/1.0.json')).json()
  t.equal(document.paths['/orders'].get.responses['200'].headers['api-supported-versions'].example, '1.0, 2.0')
})
