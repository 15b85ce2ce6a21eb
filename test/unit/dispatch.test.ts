import t from 'tap'
import Fastify from 'fastify'
import rateLimit from '@fastify/rate-limit'
import apiVersioning, { ApiVersion } from '../../lib/index.js'
import { build, problem, says } from './helpers.js'

const PROBLEM_JSON = 'application/problem+json; charset=utf-8'

t.test('each version is its own route; 1 matches a route that declares 1.0', async t => {
  const app = await build(undefined, app => {
    app.get('/values', { apiVersions: ['1.0'] }, says('v1'))
    app.get('/values', { apiVersions: '2.0' }, says('v2'))
    app.get('/values', { apiVersions: ['3.0', '2024-01-01', '4.0-beta'] }, says('v3'))
  })
  const cases: Array<[string, Record<string, string>, string, string]> = [
    ['/values?api-version=1.0', {}, 'v1', '1.0'],
    ['/values?api-version=1', {}, 'v1', '1'],
    ['/values?api-version=01.00', {}, 'v1', '1.0'],
    ['/values', { 'api-version': '2.0' }, 'v2', '2.0'],
    ['/values?api-version=2', { 'api-version': '2.0' }, 'v2', '2'],
    ['/values?api-version=3', {}, 'v3', '3'],
    ['/values?api-version=2024-01-01', {}, 'v3', '2024-01-01'],
    ['/values?api-version=4.0-BETA', {}, 'v3', '4.0-BETA']
  ]
  for (const [url, headers, route, version] of cases) {
    const res = await app.inject({ url, headers })
    t.equal(res.statusCode, 200, url)
    t.same(res.json(), { route, version }, url)
  }
})

t.test('paths that declare the same versions share the router\'s tables, and each serves its own routes', async t => {
  const app = await build({ assumeDefaultVersionWhenUnspecified: true, defaultVersion: '1.0', reportApiVersions: true }, app => {
    for (const path of ['/a', '/b']) {
      app.get(path, { apiVersions: '1.0' }, says(`${path} 1`))
      app.get(path, { apiVersions: '2.0' }, says(`${path} 2`))
    }
    // The same versions, declared in the other order, and one of them deprecated.
    app.get('/c', { apiVersions: '2.0' }, says('/c 2'))
    app.get('/c', { apiVersions: '1.0' }, says('/c 1'))
    app.get('/d', { apiVersions: '2.0', deprecatedApiVersions: '1.0' }, says('/d 1 or 2'))
  })
  for (const path of ['/a', '/b', '/c']) {
    for (const version of ['1.0', '2.0']) {
      t.same((await app.inject({ url: `${path}?api-version=${version}` })).json(), { route: `${path} ${version[0]}`, version }, `${path} ${version}`)
    }
    t.same((await app.inject({ url: path })).json(), { route: `${path} 1`, version: '1.0' }, `${path}, the default version`)
    t.equal((await app.inject({ url: `${path}?api-version=3.0` })).statusCode, 400, `${path} 3.0 is unsupported`)
  }
  const deprecated = await app.inject({ url: '/d?api-version=1.0' })
  t.same(deprecated.json(), { route: '/d 1 or 2', version: '1.0' })
  t.same([deprecated.headers['api-supported-versions'], deprecated.headers['api-deprecated-versions']], ['2.0', '1.0'])
  t.equal((await app.inject({ url: '/a?api-version=2.0' })).headers['api-supported-versions'], '1.0, 2.0')
})

t.test('every version route keeps its own schema, hooks and config', async t => {
  const app = await build(undefined, app => {
    app.get('/items/:id', {
      apiVersions: '1.0',
      schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } },
      onRequest: async (request, reply) => { reply.header('x-hook', 'v1') },
      config: { name: 'first' }
    }, async (request) => ({ id: (request.params as { id: number }).id, config: (request.routeOptions.config as { name: string }).name }))
    app.get('/items/:id', {
      apiVersions: '2.0',
      onRequest: [async (request, reply) => { reply.header('x-hook', 'v2') }],
      schema: { response: { 200: { type: 'object', properties: { only: { type: 'string' } } } } }
    }, async () => ({ only: 'this', hidden: 'not this' }))
  })
  const v1 = await app.inject('/items/7?api-version=1.0')
  t.same(v1.json(), { id: 7, config: 'first' })
  t.equal(v1.headers['x-hook'], 'v1')
  const bad = await app.inject('/items/x?api-version=1.0')
  t.equal(bad.statusCode, 400, 'the v1 params schema validates')
  const v2 = await app.inject('/items/x?api-version=2.0')
  t.same(v2.json(), { only: 'this' }, 'the v2 response schema serializes')
  t.equal(v2.headers['x-hook'], 'v2')
})

t.test('versions are per method and path', async t => {
  const app = await build(undefined, app => {
    app.get('/orders', { apiVersions: '1.0' }, says('list'))
    app.get('/orders/:id', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: ['0.9'] }, says('one'))
    app.post('/orders', { apiVersions: '0.9' }, says('create'))
    app.route({ method: ['PUT', 'PATCH'], url: '/orders/:id', apiVersions: ['2.0'], handler: says('update') })
    app.route({ method: ['PUT'], url: '/orders/:id/x', apiVersions: ['2.0'], handler: says('x') })
  })
  t.same((await app.inject('/orders?api-version=0.9')).json(), problem('unsupported'))
  t.same((await app.inject('/orders/1?api-version=0.9')).json(), { route: 'one', version: '0.9' }, 'deprecated versions are routable')
  t.same((await app.inject({ method: 'POST', url: '/orders?api-version=0.9' })).json(), { route: 'create', version: '0.9' })
  t.same((await app.inject({ method: 'PATCH', url: '/orders/1?api-version=2' })).json(), { route: 'update', version: '2' })
  t.same((await app.inject({ method: 'PUT', url: '/orders/1?api-version=1' })).json(), problem('unsupported'))
  t.equal((await app.inject({ method: 'DELETE', url: '/orders/1?api-version=1' })).statusCode, 404, 'an undeclared method stays 404')
})

t.test('the four problems', async t => {
  const app = await build(undefined, app => { app.get('/values', { apiVersions: ['1.0', '2.0'] }, says('v')) })
  const cases: Array<[string, Record<string, string>, ReturnType<typeof problem>]> = [
    ['/values', {}, problem('unspecified')],
    ['/values?api-version=', {}, problem('unspecified')],
    ['/values?api-version=3.0', {}, problem('unsupported')],
    ['/values', { 'api-version': '3.0' }, problem('unsupported')],
    ['/values?api-version=1.', {}, problem('invalid')],
    ['/values?api-version=.1', {}, problem('invalid')],
    ['/values?api-version=1.0-', {}, problem('invalid')],
    ['/values?api-version=2023-02-30', {}, problem('invalid')],
    ['/values?api-version=' + 'x'.repeat(10_000), {}, problem('invalid')],
    ['/values?api-version=%zz', {}, problem('invalid')],
    ['/values?api-version=1.0&api-version=2.0', {}, problem('ambiguous')],
    ['/values?api-version=1.0', { 'api-version': '2.0' }, problem('ambiguous')],
    ['/values?api-version=abc', { 'api-version': '1.0' }, problem('ambiguous')],
    ['/values?api-version=abc&api-version=ABC', {}, problem('invalid')]
  ]
  for (const [url, headers, body] of cases) {
    const res = await app.inject({ url, headers })
    t.equal(res.statusCode, body.status, url.slice(0, 60))
    t.equal(res.headers['content-type'], PROBLEM_JSON)
    t.same(res.json(), body, url.slice(0, 60))
    t.equal(res.body.indexOf('xxxx'), -1, 'the request is not reflected')
  }
  for (const [url, headers] of [['/values?api-version=1.0', { 'api-version': '1.0' }], ['/values?api-version=1', { 'api-version': '1.0' }]] as const) {
    t.equal((await app.inject({ url, headers })).statusCode, 200, 'the same version given twice is accepted')
  }
})

t.test('a path version is read in place; the router is asked only where the URL reads otherwise than the route', async t => {
  let lookups = 0
  const app = await build(undefined, app => {
    const findRoute = app.findRoute.bind(app)
    app.findRoute = (options => { lookups++; return findRoute(options) }) as typeof app.findRoute
    app.get('/api/v:apiVersion/items', { apiVersions: '1.0' }, says('in path'))
    app.get('/values', { apiVersions: '1.0' }, says('in query'))
    app.get('/ping', { apiVersionNeutral: true }, says('neutral'))
  })
  t.same((await app.inject('/values?api-version=1.0')).json(), { route: 'in query', version: '1.0' })
  t.same((await app.inject('/values?api-version=2.0')).json(), problem('unsupported'))
  t.same((await app.inject('/ping?api-version=1.0')).json(), { route: 'neutral', version: '1.0' })
  t.equal(lookups, 0, 'no second lookup where the path has no version')
  t.same((await app.inject('/api/v1.0/items')).json(), { route: 'in path', version: '1.0' })
  t.equal(lookups, 0, 'nor where the URL repeats the route\'s text')
  t.same((await app.inject('/api/v%31.0/items')).json(), { route: 'in path', version: '1.0' })
  t.equal(lookups, 1, 'an escape is the router\'s to decode')
})

t.test('unsupportedApiVersionStatusCode sets the Unsupported status, but not for a version in the path', async t => {
  const app = await build({ problemDetails: true, unsupportedApiVersionStatusCode: 501 }, app => {
    app.get('/values', { apiVersions: '1.0' }, says('v'))
    app.get('/api/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, says('items'))
  })
  t.same((await app.inject('/values?api-version=2')).json(), problem('unsupported', 501))
  t.same((await app.inject('/values?api-version=x')).json(), problem('invalid'))
  const path = await app.inject('/api/v3/items')
  t.equal(path.statusCode, 404)
  t.same(path.json(), problem('unsupported', 404), 'a 404 with the problem body all the same')
  t.same((await app.inject('/api/v3/items?api-version=3.0')).json(), problem('unsupported', 404), 'also from the path')
})

t.test('a version in the URL path', async t => {
  const app = await build(undefined, app => {
    app.get('/api/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, says('items'))
    app.get('/api/v:apiVersion/items', { apiVersions: ['3.0'] }, says('items3'))
    app.get('/api/v:apiVersion/items/:id', { apiVersions: '1.0' }, says('item'))
    app.get('/files/:apiVersion-:name', { apiVersions: '1.0' }, says('file'))
    app.get('/other/:apiVersionX', { apiVersions: '1.0' }, says('not a version param'))
  })
  t.same((await app.inject('/api/v2.0/items')).json(), { route: 'items', version: '2.0' })
  t.same((await app.inject('/api/v1/items')).json(), { route: 'items', version: '1' })
  t.same((await app.inject('/api/v3/items')).json(), { route: 'items3', version: '3' })
  t.same((await app.inject('/api/v1.0/items/5')).json(), { route: 'item', version: '1.0' })
  t.same((await app.inject('/api/v1/items?api-version=1.0')).json(), { route: 'items', version: '1.0' }, 'the same version twice; the query value is read first')
  t.same((await app.inject('/api/v1/items?api-version=2.0')).json(), problem('ambiguous'))
  t.same((await app.inject('/api/vx/items')).json(), problem('invalid'))
  t.same((await app.inject('/api/v/items')).json(), problem('unspecified'))
  t.same((await app.inject('/files/1-readme')).json(), { route: 'file', version: '1' })
  t.same((await app.inject('/other/1?api-version=1')).json(), { route: 'not a version param', version: '1' })
  t.same((await app.inject('/other/1')).json(), problem('unspecified'))
})

t.test('assumeDefaultVersionWhenUnspecified', async t => {
  const app = await build({ problemDetails: true, assumeDefaultVersionWhenUnspecified: true, defaultVersion: '2' }, app => {
    app.get('/a', { apiVersions: ['1.0', '2.0'] }, says('a'))
    app.get('/b', { apiVersions: ['1.0'] }, says('b'))
    app.get('/n', { apiVersionNeutral: true }, says('n'))
  })
  t.same((await app.inject('/a')).json(), { route: 'a', version: '2' })
  t.same((await app.inject('/a?api-version=1')).json(), { route: 'a', version: '1' })
  t.same((await app.inject('/b')).json(), problem('unsupported'), 'the route lacks the default version')
  t.same((await app.inject('/n')).json(), { route: 'n', version: null })

  const off = await build(undefined, app => { app.get('/a', { apiVersions: '1.0' }, says('a')) })
  t.same((await off.inject('/a')).json(), problem('unspecified'))
})

t.test('version-neutral routes', async t => {
  const app = await build(undefined, app => {
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
    app.get('/values', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.9' }, says('values'))
    app.post('/ping', { apiVersionNeutral: false }, says('plain'))
  })
  t.same((await app.inject('/ping')).json(), { route: 'ping', version: null })
  t.same((await app.inject('/ping?api-version=2')).json(), { route: 'ping', version: '2' })
  t.same((await app.inject('/ping?api-version=0.9')).json(), { route: 'ping', version: '0.9' })
  t.same((await app.inject('/ping?api-version=99.0')).json(), problem('unsupported'))
  t.same((await app.inject('/ping?api-version=x')).json(), problem('invalid'))
  t.same((await app.inject('/ping?api-version=1&api-version=2')).json(), problem('ambiguous'))
  t.same((await app.inject({ method: 'POST', url: '/ping?api-version=x' })).json(), { route: 'plain', version: null }, 'apiVersionNeutral: false is unversioned')

  const alone = await build(undefined, app => { app.get('/ping', { apiVersionNeutral: true }, says('ping')) })
  t.same((await alone.inject('/ping?api-version=1.0')).json(), { route: 'ping', version: '1.0' }, 'with no versions declared, the default')
  t.same((await alone.inject('/ping?api-version=2.0')).json(), problem('unsupported'))

  const path = await build(undefined, app => {
    app.get('/v:apiVersion/ping', { apiVersionNeutral: true }, says('ping'))
    app.get('/v:apiVersion/values', { apiVersions: '1.0' }, says('values'))
  })
  t.same((await path.inject('/v1/ping')).json(), { route: 'ping', version: '1' })
  t.same((await path.inject('/v2/ping')).json(), problem('unsupported', 404))
})

t.test('routes without a versioning option ignore versions', async t => {
  const app = await build(undefined, app => {
    app.get('/health', says('health'))
    app.get('/values', { apiVersions: '1.0' }, says('v'))
    app.get('/users/special', { apiVersions: '1.0' }, says('special'))
    app.get('/users/:id', says('user'))
  })
  for (const url of ['/health', '/health?api-version=x', '/health?api-version=1&api-version=2']) {
    t.same((await app.inject({ url, headers: { 'api-version': '9' } })).json(), { route: 'health', version: null }, url)
  }
  t.same((await app.inject('/users/special?api-version=9')).json(), problem('unsupported'), 'no fall-through to a sibling parameter route')
  t.same((await app.inject('/users/special')).json(), problem('unspecified'))
  t.same((await app.inject('/users/42?api-version=1')).json(), { route: 'user', version: null })
})

t.test('paths the plugin does not own answer as without it', async t => {
  const plain = Fastify()
  plain.get('/values', says('v'))
  const expected = await plain.inject('/nope?api-version=1')

  const app = await build(undefined, app => { app.get('/values', { apiVersions: '1.0' }, says('v')) })
  const res = await app.inject('/nope?api-version=1')
  t.equal(res.statusCode, 404)
  t.same(res.json(), expected.json())
  t.equal(res.headers['content-type'], expected.headers['content-type'])

  const custom = await build(undefined, app => {
    app.get('/values', { apiVersions: '1.0' }, says('v'))
    app.setNotFoundHandler((request, reply) => { reply.code(404).send({ mine: true }) })
  })
  t.same((await custom.inject('/nope?api-version=x')).json(), { mine: true })
})

t.test('prefixes, HEAD and plugin scopes', async t => {
  const app = await build({ problemDetails: true, reportApiVersions: true }, async app => {
    await app.register(async scope => {
      scope.addHook('onRequest', async (request, reply) => { reply.header('x-scope', 'api') })
      scope.get('/values', { apiVersions: '1.0' }, says('v1'))
      scope.get('/', { apiVersions: '1.0' }, says('root'))
      await scope.register(async inner => {
        inner.get('/deep', { apiVersions: '2.0' }, says('deep'))
        inner.get('/v:apiVersion/x', { apiVersions: '2.0' }, says('x'))
      }, { prefix: '/inner' })
    }, { prefix: '/api' })
    await app.register(async scope => {
      scope.get('/values', { apiVersions: '1.0' }, says('slash'))
    }, { prefix: '/slash/' })
    app.get('/values', { apiVersions: '2.0' }, says('root v2'))
  })
  t.same((await app.inject('/api/values?api-version=1')).json(), { route: 'v1', version: '1' })
  const unsupported = await app.inject('/api/values?api-version=2')
  t.same(unsupported.json(), problem('unsupported'))
  t.equal(unsupported.headers['x-scope'], 'api', 'the hidden route lives in the same scope')
  t.same((await app.inject('/api?api-version=1')).json(), { route: 'root', version: '1' })
  t.same((await app.inject('/api/?api-version=1')).json(), { route: 'root', version: '1' })
  t.same((await app.inject('/api/?api-version=3')).json(), problem('unsupported'))
  t.same((await app.inject('/api?api-version=3')).json(), problem('unsupported'))
  t.same((await app.inject('/api/inner/deep?api-version=2')).json(), { route: 'deep', version: '2' })
  t.same((await app.inject('/api/inner/deep?api-version=1')).json(), problem('unsupported'))
  t.same((await app.inject('/api/inner/v2/x')).json(), { route: 'x', version: '2' })
  t.same((await app.inject('/api/inner/v1/x')).json(), problem('unsupported', 404))
  t.same((await app.inject('/slash/values?api-version=1')).json(), { route: 'slash', version: '1' })
  t.same((await app.inject('/slash/values?api-version=2')).json(), problem('unsupported'))
  t.same((await app.inject('/values?api-version=2')).json(), { route: 'root v2', version: '2' })

  const head = await app.inject({ method: 'HEAD', url: '/api/values?api-version=1' })
  t.equal(head.statusCode, 200)
  t.equal(head.body, '')
  t.equal(head.headers['api-supported-versions'], '1.0')
  const headBad = await app.inject({ method: 'HEAD', url: '/api/values?api-version=9' })
  t.equal(headBad.statusCode, 400)
  t.equal(headBad.headers['content-type'], PROBLEM_JSON)
  t.equal(headBad.body, '')
})

t.test('HEAD routes follow the GET routes they come from', async t => {
  const app = await build(undefined, app => {
    app.get('/a', { apiVersions: '1.0', exposeHeadRoute: false }, says('a1'))
    app.get('/a', { apiVersions: '2.0' }, says('a2'))
    app.head('/b', { apiVersions: '1.0' }, async (request, reply) => { reply.header('x-b', String(request.apiVersion)).send() })
    app.get('/b', { apiVersions: '1.0' }, says('b'))
  })
  t.equal((await app.inject({ method: 'HEAD', url: '/a?api-version=2' })).statusCode, 200)
  t.equal((await app.inject({ method: 'HEAD', url: '/a?api-version=1' })).statusCode, 400, 'the 1.0 route has no HEAD')
  t.equal((await app.inject({ method: 'HEAD', url: '/b?api-version=1.0' })).headers['x-b'], '1.0')
  t.equal((await app.inject({ method: 'HEAD', url: '/b?api-version=3' })).statusCode, 400)
})

t.test('router options carry over to versions in the path', async t => {
  const app = await build(undefined, app => {
    app.get('/API/v:apiVersion/items', { apiVersions: '1.0' }, says('items'))
  }, { routerOptions: { caseSensitive: false, ignoreTrailingSlash: true } })
  t.same((await app.inject('/api/V1/items/')).json(), { route: 'items', version: '1' })
})

t.test('hostile paths end as Fastify ends them, never in a crash', async t => {
  const app = await build(undefined, app => {
    app.get('/api/v:apiVersion/items', { apiVersions: '1.0' }, says('items'))
    app.get('/v:apiVersion/ping', { apiVersionNeutral: true }, says('ping'))
    app.get('/host', { apiVersions: '1.0', constraints: { host: 'example.com' } }, says('host'))
  })
  // A parameter beyond maxParamLength: 414 in recent Fastify 5, 404 in earlier ones (the lowest-peer run).
  const plain = Fastify()
  plain.get('/api/v:version/items', says('items'))
  const tooLong = (await plain.inject('/api/v' + '1'.repeat(10_000) + '/items')).statusCode
  t.ok(tooLong === 414 || tooLong === 404, `Fastify's own answer: ${tooLong}`)
  t.equal((await app.inject('/api/v' + '1'.repeat(10_000) + '/items')).statusCode, tooLong)
  t.equal((await app.inject('/v' + '1'.repeat(10_000) + '/ping')).statusCode, tooLong)
  t.equal((await app.inject('/api/v%zz/items')).statusCode, 400)
  t.same((await app.inject('/api/v%31/items')).json(), { route: 'items', version: '1' }, 'path values are decoded')
  t.same((await app.inject({ url: '/host?api-version=1', headers: { host: 'example.com' } })).json(), { route: 'host', version: '1' }, 'other constraints still apply')
})

t.test('request.apiVersion is there from routing on: in app-wide onRequest hooks too', async t => {
  const seen: unknown[] = []
  const app = await build(undefined, app => {
    app.addHook('onRequest', async (request) => { seen.push(['app onRequest', request.apiVersion]) })
    app.addHook('preHandler', async (request) => { seen.push(['app preHandler', String(request.apiVersion)]) })
    app.get('/a', { apiVersions: '1.0', onRequest: async (request) => { seen.push(['route onRequest', String(request.apiVersion)]) } }, says('a'))
  })
  await app.inject('/a?api-version=1')
  t.same((seen as Array<[string, unknown]>).map(([at, version]) => [at, String(version)]), [['app onRequest', '1'], ['route onRequest', '1'], ['app preHandler', '1']])
})

t.test('request.apiVersion can be set, and is null where no version applies', async t => {
  const app = await build(undefined, app => {
    app.get('/a', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('a'))
    app.get('/:name', says('plain'))
    app.get('/set', { apiVersions: '1.0' }, async request => {
      request.apiVersion = ApiVersion.parse('1.5')
      return String(request.apiVersion)
    })
  })
  const host = (host: string) => app.inject({ url: '/a?api-version=1', headers: { host } })
  t.same((await host('a.example')).json(), { route: 'a', version: '1' })
  t.same((await host('b.example')).json(), { route: 'plain', version: null }, 'a route the router goes on to after a host mismatch has no version')
  t.equal((await app.inject('/set?api-version=1')).body, '1.5')
  t.same((await app.inject('/x?api-version=1')).json(), { route: 'plain', version: null })
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

t.test('versions of one path from two plugin scopes keep their scope: its hooks, decorators and per-route plugins', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true })
  await app.register(rateLimit, { global: false })
  await app.register(async v1 => {
    v1.decorateRequest('era', 'old')
    v1.addHook('onRequest', async (request, reply) => { reply.header('x-scope', 'v1') })
    v1.get('/items', { apiVersions: '1.0', config: { rateLimit: { max: 1, timeWindow: 60_000 } } }, async request => ({ era: (request as unknown as { era: string }).era, config: request.routeOptions.config }))
  })
  await app.register(async v2 => {
    v2.decorateRequest('era', 'new')
    v2.addHook('onRequest', async (request, reply) => { reply.header('x-scope', 'v2') })
    v2.get('/items', { apiVersions: '2.0' }, async request => ({ era: (request as unknown as { era: string }).era, config: request.routeOptions.config }))
  })
  const v1 = await app.inject('/items?api-version=1.0')
  t.equal(v1.headers['x-scope'], 'v1')
  t.match(v1.json(), { era: 'old', config: { rateLimit: { max: 1 } } })
  t.equal((await app.inject('/items?api-version=1.0')).statusCode, 429, 'the rate limit of version 1.0 alone')
  for (let i = 0; i < 3; i++) {
    const v2 = await app.inject('/items?api-version=2.0')
    t.equal(v2.statusCode, 200)
    t.equal(v2.headers['x-scope'], 'v2')
    t.equal(v2.json().era, 'new')
    t.notOk('rateLimit' in v2.json().config)
  }
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

t.test('a version served on another host only is unsupported on this one, where a route of the path serves', async t => {
  const seen: unknown[] = []
  const app = await build({ problemDetails: true }, app => {
    app.get('/h', { apiVersions: '1.0', constraints: { host: 'a.example' }, onRequest: async request => { seen.push(request.apiVersion) } }, says('a host'))
    app.get('/h', { apiVersions: '2.0', constraints: { host: 'b.example' } }, says('b host'))
    app.get('/v:apiVersion/h', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('a host path'))
    app.get('/v:apiVersion/h', { apiVersions: '2.0', constraints: { host: 'b.example' } }, says('b host path'))
  })
  const on = (host: string, url: string) => app.inject({ url, headers: { host } })
  t.same((await on('a.example', '/h?api-version=1')).json(), { route: 'a host', version: '1' })
  t.same((await on('b.example', '/h?api-version=2')).json(), { route: 'b host', version: '2' })
  t.same((await on('a.example', '/h?api-version=2')).json(), problem('unsupported'), "b's version on a")
  t.same(seen.map(String), ['1', 'null'], 'the problem serves no version to the hooks it runs')
  t.same((await on('b.example', '/h?api-version=1')).json(), problem('unsupported'), "a's version on b")
  t.same((await on('a.example', '/v2/h')).json(), problem('unsupported', 404), 'in the path')
  t.same((await on('b.example', '/v2/h')).json(), { route: 'b host path', version: '2' })
  t.equal((await on('c.example', '/h?api-version=2')).statusCode, 404, 'a host no route serves: as Fastify answers')
  t.match((await on('c.example', '/h?api-version=2')).json(), { message: 'Route GET:/h?api-version=2 not found' })
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
