import t from 'tap'
import { build, problem, says } from './helpers.js'

t.test('reportApiVersions: every response of a versioned route carries the versions of its path', async t => {
  const app = await build({ problemDetails: true, reportApiVersions: true }, app => {
    app.get('/orders/:id', { apiVersions: ['2.0', '1.0'], deprecatedApiVersions: ['0.9'] }, says('get'))
    app.delete('/orders/:id', { apiVersions: ['3.0'], deprecatedApiVersions: ['1.0', '0.8'] }, says('delete'))
    app.get('/orders/:id/throws', { apiVersions: '1' }, async () => { throw new Error('boom') })
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
    app.get('/health', says('health'))
    app.get('/dated', { apiVersions: ['2024-01-01', '1', '2024-01-01-beta'] }, says('dated'))
    // The route's own onSend as one function, not an array: it runs, before the plugin's.
    app.get('/own', { apiVersions: '1.0', onSend: async (request, reply, payload) => { reply.header('x-own', 'yes'); return payload } }, says('own'))
  })
  const expected = { 'api-supported-versions': '1.0, 2.0, 3.0', 'api-deprecated-versions': '0.8, 0.9' }
  const requests: Array<[string, string, number]> = [
    ['GET', '/orders/1?api-version=1', 200],
    ['DELETE', '/orders/1?api-version=3', 200],
    ['GET', '/orders/1?api-version=7', 400],
    ['GET', '/orders/1', 400],
    ['GET', '/orders/1?api-version=x', 400],
    ['GET', '/orders/1?api-version=1&api-version=2', 400]
  ]
  for (const [method, url, status] of requests) {
    const res = await app.inject({ method: method as 'GET', url })
    t.equal(res.statusCode, status, `${method} ${url}`)
    t.equal(res.headers['api-supported-versions'], expected['api-supported-versions'], `${method} ${url}`)
    t.equal(res.headers['api-deprecated-versions'], expected['api-deprecated-versions'], `${method} ${url}`)
  }
  const thrown = await app.inject('/orders/1/throws?api-version=1')
  t.equal(thrown.statusCode, 500)
  t.equal(thrown.headers['api-supported-versions'], '1', 'errors keep the headers; versions print as declared')
  t.notOk(thrown.headers['api-deprecated-versions'], 'no empty header')
  t.equal((await app.inject('/dated?api-version=1')).headers['api-supported-versions'], '1, 2024-01-01-beta, 2024-01-01')
  const own = await app.inject('/own?api-version=1')
  t.match(own.headers, { 'x-own': 'yes', 'api-supported-versions': '1.0' }, "the route's own onSend hook and the version headers")
  for (const url of ['/ping', '/health', '/nope']) {
    t.notOk((await app.inject(url)).headers['api-supported-versions'], `${url} reports nothing`)
  }
})

t.test("a version-neutral route's Unsupported answer reports every route's versions (spec, rule 3); its other answers report nothing", async t => {
  let now = Date.parse('2026-01-01')
  const app = await build({ problemDetails: true, reportApiVersions: true, now: () => now, policies: { '1.0': { sunset: { date: '2027-01-01', enforce: true } } } }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.9' }, says('orders'))
    app.get('/users', { apiVersions: '3.0', deprecatedApiVersions: '2.0', advertisedApiVersions: '4.0' }, says('users'))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
  })
  const headers = async (url: string) => {
    const res = await app.inject(url)
    return [res.statusCode, res.headers['api-supported-versions'] ?? null, res.headers['api-deprecated-versions'] ?? null]
  }
  t.same(await headers('/ping?api-version=9.0'), [400, '1.0, 2.0, 3.0', '0.9'], "every route's own versions, none another service's")
  t.same(await headers('/ping?api-version=2.0'), [200, null, null], 'served: nothing')
  t.same(await headers('/ping?api-version=x'), [400, null, null], 'Invalid: nothing')
  now = Date.parse('2028-01-01')
  t.same(await headers('/ping?api-version=1.0'), [400, '2.0, 3.0', '0.9'], 'past its enforced sunset: Unsupported, and no longer listed')
  now = Number.NaN
  t.equal((await app.inject('/ping?api-version=9.0')).statusCode, 500, 'a clock that fails: its error')
  const quiet = await build({ problemDetails: true }, app => {
    app.get('/orders', { apiVersions: '1.0' }, says('orders'))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
  })
  t.notOk((await quiet.inject('/ping?api-version=9.0')).headers['api-supported-versions'], 'without reportApiVersions')
})

t.test('reportApiVersions can name the two headers', async t => {
  const app = await build({ problemDetails: true, reportApiVersions: { supportedHeader: 'X-API-Versions' } }, app => {
    app.get('/a', { apiVersions: '2.0', deprecatedApiVersions: '1.0' }, says('a'))
  })
  for (const url of ['/a?api-version=2', '/a?api-version=3']) {
    const res = await app.inject(url)
    t.equal(res.headers['x-api-versions'], '2.0', url)
    t.equal(res.headers['api-deprecated-versions'], '1.0', `${url}: the other keeps its name`)
    t.notOk(res.headers['api-supported-versions'], url)
  }
  const both = await build({ reportApiVersions: { supportedHeader: 'x-s', deprecatedHeader: 'x-d' } }, app => {
    app.get('/a', { apiVersions: '2.0', deprecatedApiVersions: '1.0' }, says('a'))
  })
  const res = await both.inject('/a?api-version=1')
  t.same([res.headers['x-s'], res.headers['x-d'], res.headers['api-deprecated-versions']], ['2.0', '1.0', undefined])
  t.notOk((await (await build({ reportApiVersions: {} }, app => { app.get('/a', { apiVersions: '1.0' }, says('a')) })).inject('/a?api-version=1')).headers['x-s'])
  t.equal((await (await build({ reportApiVersions: {} }, app => { app.get('/a', { apiVersions: '1.0' }, says('a')) })).inject('/a?api-version=1')).headers['api-supported-versions'], '1.0', '{} is true with the default names')
})

t.test('without reportApiVersions no version headers are sent', async t => {
  const app = await build(undefined, app => { app.get('/a', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, says('a')) })
  for (const url of ['/a?api-version=1', '/a?api-version=2']) {
    const res = await app.inject(url)
    t.notOk(res.headers['api-supported-versions'])
    t.notOk(res.headers['api-deprecated-versions'])
  }
})

t.test('problemDetails: false gives the status with an empty body, and the headers all the same', async t => {
  const app = await build({ reportApiVersions: true }, app => {
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    app.get('/n', { apiVersionNeutral: true }, says('n'))
  })
  for (const [url, status] of [['/a', 400], ['/a?api-version=2', 400], ['/a?api-version=x', 400], ['/a?api-version=1&api-version=2', 400], ['/n?api-version=3', 400]] as const) {
    const res = await app.inject(url)
    t.equal(res.statusCode, status, url)
    t.equal(res.body, '', url)
    t.notOk(res.headers['content-type'], url)
  }
  t.equal((await app.inject('/a?api-version=2')).headers['api-supported-versions'], '1.0')
  t.same((await app.inject('/a?api-version=1')).json(), { route: 'a', version: '1' })
})

t.test('problemTypeBase', async t => {
  const app = await build({ problemDetails: true, problemTypeBase: 'urn:problems:api-version' }, app => { app.get('/a', { apiVersions: '1.0' }, says('a')) })
  t.equal((await app.inject('/a')).json().type, 'urn:problems:api-version#unspecified')
  t.same((await app.inject('/a?api-version=3')).json(), { ...problem('unsupported'), type: 'urn:problems:api-version#unsupported' })
})

t.test('Vary names the version headers on versioned and neutral routes, after any other', async t => {
  const app = await build({ problemDetails: true, versionReader: { header: ['api-version', 'X-Version'] } }, app => {
    app.addHook('onRequest', async (request, reply) => { if (request.url.includes('cors')) reply.header('vary', 'Origin') })
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    app.get('/n', { apiVersionNeutral: true }, says('n'))
    app.get('/plain', says('plain'))
  })
  t.equal((await app.inject('/a?api-version=1')).headers.vary, 'api-version, x-version')
  t.equal((await app.inject('/a?api-version=2')).headers.vary, 'api-version, x-version')
  t.equal((await app.inject('/a?api-version=1&cors')).headers.vary, 'Origin, api-version, x-version')
  t.equal((await app.inject('/n?api-version=x')).headers.vary, 'api-version, x-version')
  t.notOk((await app.inject('/plain')).headers.vary)
  const own = await build({ problemDetails: true }, app => {
    app.get('/dup', { apiVersions: '1.0' }, async (request, reply) => reply.header('vary', 'API-Version').send('x'))
    app.get('/star', { apiVersions: '1.0' }, async (request, reply) => reply.header('vary', '*').send('x'))
    app.get('/list', { apiVersions: '1.0' }, async (request, reply) => reply.header('vary', ['Accept', 'Cookie']).send('x'))
  })
  t.equal((await own.inject('/dup?api-version=1')).headers.vary, 'API-Version', 'a name the route set is not added twice')
  t.equal((await own.inject('/star?api-version=1')).headers.vary, '*', 'nothing goes after *')
  t.equal((await own.inject('/list?api-version=1')).headers.vary, 'Accept, Cookie, api-version')
  // A member is a whole name between commas, white space around it allowed: a longer name that contains it is not it.
  const members = await build({ problemDetails: true }, app => {
    app.get('/m', { apiVersions: '1.0' }, async (request, reply) => reply.header('vary', String(request.headers['x-vary'])).send('x'))
  })
  for (const [given, sent] of [['X-Api-Version', 'X-Api-Version, api-version'], ['api-versions', 'api-versions, api-version'], ['Origin ,\tAPI-VERSION ', 'Origin ,\tAPI-VERSION '], ['api-version,Origin', 'api-version,Origin'], ['Origin, *', 'Origin, *']]) {
    t.equal((await members.inject({ url: '/m?api-version=1', headers: { 'x-vary': given } })).headers.vary, sent, given)
  }
  const queryOnly = await build({ problemDetails: true, versionReader: { header: false } }, app => {
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    app.get('/n', { apiVersionNeutral: true }, says('n'))
  })
  t.notOk((await queryOnly.inject('/a?api-version=1')).headers.vary, 'no header reader, no Vary')
  t.notOk((await queryOnly.inject('/n')).headers.vary)
})

t.test("an Unsupported version that another method of the path has: that method's versions, never a header that says it is supported", async t => {
  const app = await build({ problemDetails: true, reportApiVersions: true }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'] }, says('get'))
    app.post('/orders', { apiVersions: '2.0', deprecatedApiVersions: '1.5' }, says('post'))
  })
  const res = await app.inject({ method: 'POST', url: '/orders?api-version=1.0' })
  t.same([res.statusCode, res.json().code], [400, 'UnsupportedApiVersion'])
  t.equal(res.headers['api-supported-versions'], '2.0')
  t.equal(res.headers['api-deprecated-versions'], '1.5')
  const elsewhere = await app.inject({ method: 'POST', url: '/orders?api-version=3.0' })
  t.equal(elsewhere.headers['api-supported-versions'], '1.0, 2.0', 'a version no method has: the path\'s')
  t.equal(elsewhere.headers['api-deprecated-versions'], '1.5')
})

t.test('routes that share one frozen list of versions: each path reports its own routes, and conflicts are found', async t => {
  const shared = Object.freeze(['2.0', '1'])
  const old = Object.freeze(['0.9'])
  const app = await build({ reportApiVersions: true }, app => {
    app.get('/a', { apiVersions: shared }, says('a'))
    app.post('/a', { apiVersions: shared, deprecatedApiVersions: old }, says('post a'))
    app.get('/b', { apiVersions: shared }, says('b'))
    // The same declarations in another order on another path: its first route's form of a version is reported.
    app.get('/c', { apiVersions: ['1.0'] }, says('c'))
    app.post('/c', { apiVersions: shared }, says('post c'))
    app.get('/d', { apiVersions: shared, advertisedApiVersions: ['3.0'] }, says('d'))
    app.post('/d', { apiVersions: shared }, says('post d'))
  })
  const headers = async (method: 'GET' | 'POST', url: string): Promise<unknown[]> => {
    const res = await app.inject({ method, url: `${url}?api-version=2` })
    return [res.statusCode, res.headers['api-supported-versions'], res.headers['api-deprecated-versions']]
  }
  t.same(await headers('GET', '/a'), [200, '1, 2.0', '0.9'], 'a path of both routes')
  t.same(await headers('POST', '/a'), [200, '1, 2.0', '0.9'])
  t.same(await headers('GET', '/b'), [200, '1, 2.0', undefined], 'a path of one of them alone')
  t.same(await headers('POST', '/c'), [200, '1.0, 2.0', undefined], 'the first declared form')
  t.same(await headers('GET', '/d'), [200, '1, 2.0, 3.0', undefined], 'advertised versions are the whole path\'s')
  t.same(await headers('POST', '/d'), [200, '1, 2.0, 3.0', undefined])
  t.ok(Object.isFrozen(shared) && shared.length === 2, 'the list is as given')

  const invalid = Object.freeze(['1.0', 'one'])
  for (const attempt of ['first', 'second']) {
    await t.rejects(build({}, app => { app.get('/x', { apiVersions: invalid }, says('x')) }), /apiVersions has "one", which is not a valid API version/, `an invalid frozen list fails every app (${attempt})`)
  }
  await t.rejects(build({}, app => {
    app.get('/x', { apiVersions: shared }, says('x'))
    app.get('/x', { apiVersions: Object.freeze(['1.0']) }, says('x again'))
  }), /route GET \/x declares API version 1\.0, which another GET \/x route already declares/, 'a version of a shared list declared again')
  await t.rejects(build({}, app => {
    app.get('/x', { apiVersions: shared }, says('x'))
    app.post('/x', { apiVersions: '3.0', advertisedApiVersions: '2.0' }, says('post x'))
  }), /route POST \/x advertises API version 2\.0 as implemented by another service, but route GET \/x implements it/, 'a version of a shared list advertised on its path')
})
