import t from 'tap'
import Fastify, { type FastifyInstance } from 'fastify'
import apiVersioning, { ApiVersion, withApiVersions, type ApiVersioningOptions } from '../../lib/index.js'
import { build, logged, problem, says } from './helpers.js'

const DEPRECATION_LINK = '<https://example.com/api/deprecations#v1>; rel="deprecation"'
const SUNSET_LINK = '<https://example.com/api/sunset#v1>; rel="sunset"; title="Retiring 1.0"; type="text/html"'
const policies: ApiVersioningOptions['policies'] = {
  '1.0': {
    deprecation: { date: '2026-01-01T00:00:00Z', link: 'https://example.com/api/deprecations#v1' },
    sunset: { date: '2027-01-01', link: { href: 'https://example.com/api/sunset#v1', title: 'Retiring 1.0', type: 'text/html' }, enforce: true }
  },
  0.9: { deprecation: { date: new Date('2025-06-01T00:00:00Z') } },
  '3.0': { deprecation: { date: '2030-01-01' }, sunset: { date: '2029-01-01' } }
}
const BEFORE = Date.parse('2026-06-01T00:00:00Z')
const SUNSET = Date.parse('2027-01-01T00:00:00Z')

function clock (start: number) {
  const state = { time: start, now: () => state.time }
  return state
}

t.test('a version with a policy sends Deprecation, Sunset and Link on its responses, success and error', async t => {
  const time = clock(BEFORE)
  const app = await build({ problemDetails: true, reportApiVersions: true, policies, now: time.now }, app => {
    app.get('/orders/:id', { apiVersions: ['1.0', '2.0', '3.0'], deprecatedApiVersions: ['0.9', '0.8'], schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, says('orders'))
    app.get('/own', { apiVersions: '1.0' }, async (request, reply) => {
      reply.header('deprecation', '@1').header('sunset', 'Thu, 01 Jan 1970 00:00:00 GMT').header('link', '</next>; rel="successor-version"')
      return 'own'
    })
    app.get('/plain', async () => 'plain')
    app.register(async scope => {
      scope.addHook('onRequest', async (request, reply) => reply.code(401).send('who?'))
      scope.get('/guarded', { apiVersions: '1.0' }, says('guarded'))
    })
  })
  const v1 = await app.inject('/orders/1?api-version=1.0')
  t.equal(v1.statusCode, 200)
  t.equal(v1.headers.deprecation, '@1767225600')
  t.equal(v1.headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT')
  t.equal(v1.headers.link, `${DEPRECATION_LINK}, ${SUNSET_LINK}`)

  const invalid = await app.inject('/orders/x?api-version=1')
  t.equal(invalid.statusCode, 400, 'a validation error of the route')
  t.equal(invalid.headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT')
  t.equal(invalid.headers.deprecation, '@1767225600')

  const old = await app.inject('/orders/1?api-version=0.9')
  t.equal(old.headers.deprecation, '@1748736000')
  t.equal(old.headers.sunset, undefined)
  t.equal(old.headers.link, undefined)
  const noPolicy = await app.inject('/orders/1?api-version=0.8')
  t.equal(noPolicy.headers.deprecation, undefined, 'a deprecated version without a policy has no date to send')
  t.equal(noPolicy.headers['api-deprecated-versions'], '0.8, 0.9')
  t.equal((await app.inject('/orders/1?api-version=2')).headers.deprecation, undefined)

  const late = await app.inject('/orders/1?api-version=3.0')
  t.equal(late.headers.deprecation, undefined, 'no Deprecation dated after the sunset')
  t.equal(late.headers.sunset, 'Mon, 01 Jan 2029 00:00:00 GMT')

  const unsupported = await app.inject('/orders/1?api-version=4.0')
  t.same(unsupported.json(), problem('unsupported'))
  t.equal(unsupported.headers.sunset, undefined, 'version errors carry no policy headers')
  t.equal(unsupported.headers.link, undefined)

  const own = await app.inject('/own?api-version=1')
  t.equal(own.headers.deprecation, '@1', "the route's own Deprecation stays")
  t.equal(own.headers.sunset, 'Thu, 01 Jan 1970 00:00:00 GMT')
  t.equal(own.headers.link, `</next>; rel="successor-version", ${DEPRECATION_LINK}, ${SUNSET_LINK}`, 'links are appended to its own')
  t.equal((await app.inject('/plain?api-version=1')).headers.link, undefined)
  const guarded = await app.inject('/guarded?api-version=1')
  t.equal(guarded.statusCode, 401)
  t.equal(guarded.headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT', 'a response an app-wide hook sends is one of the version too')
  t.equal(guarded.headers['api-supported-versions'], '1.0')

  // A route with other constraints learns its version in its own first hook: an app-wide hook answers before.
  const bound = await build({ problemDetails: true, policies, now: time.now }, app => {
    app.addHook('onRequest', async (request, reply) => { if (request.url.includes('guard')) return reply.code(401).send('who?') })
    app.get('/a', { apiVersions: '1.0', constraints: { host: 'a.example' } }, says('a'))
  })
  const early = await bound.inject({ url: '/a?api-version=1&guard', headers: { host: 'a.example' } })
  t.equal(early.statusCode, 401)
  t.equal(early.headers.sunset, undefined, 'no version read yet, no version to speak for')
  t.equal((await bound.inject({ url: '/a?api-version=1', headers: { host: 'a.example' } })).headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT')
})

t.test('an enforced sunset retires the version from its date on', async t => {
  const time = clock(BEFORE)
  const app = await build({ problemDetails: true, reportApiVersions: true, policies, now: time.now }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'] }, says('orders'))
    app.get('/legacy', { apiVersions: '2.0', deprecatedApiVersions: '1.0' }, says('legacy'))
    app.get('/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, says('items'))
  })
  const before = await app.inject('/orders?api-version=1.0')
  t.equal(before.statusCode, 200)
  t.equal(before.headers['api-supported-versions'], '1.0, 2.0')
  t.equal((await app.inject('/legacy?api-version=1.0')).headers['api-deprecated-versions'], '1.0')

  time.time = SUNSET
  const after = await app.inject('/orders?api-version=1.0')
  t.equal(after.statusCode, 400)
  t.same(after.json(), problem('unsupported'))
  t.equal(after.headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT', 'the client finds out why')
  t.equal(after.headers.link, `${DEPRECATION_LINK}, ${SUNSET_LINK}`)
  t.equal(after.headers.deprecation, undefined)
  t.equal(after.headers['api-supported-versions'], '2.0')
  const legacy = await app.inject('/legacy?api-version=2.0')
  t.equal(legacy.headers['api-deprecated-versions'], undefined, 'it leaves api-deprecated-versions too')
  t.equal(legacy.headers.sunset, undefined)
  const path = await app.inject('/v1/items')
  t.equal(path.statusCode, 404)
  t.same(path.json(), problem('unsupported', 404))
  t.equal((await app.inject('/v2/items')).statusCode, 200)
  t.equal((await app.inject('/orders?api-version=9')).headers.sunset, undefined)
  t.same((await app.inject('/orders')).json(), problem('unspecified'))

  time.time = BEFORE
  t.equal((await app.inject('/orders?api-version=1.0')).headers['api-supported-versions'], '1.0, 2.0', 'the clock decides, both ways')
})

t.test('a version-neutral route serves a version with its policy headers, and a retired version no more', async t => {
  const time = clock(BEFORE)
  const app = await build({ problemDetails: true, policies, now: time.now }, app => {
    app.get('/orders', { apiVersions: ['0.9', '1.0', '2.0'] }, says('orders'))
    app.get('/ping', { apiVersionNeutral: true }, says('ping'))
  })
  // Before the sunset: what a versioned route of the version sends, telemetry's `deprecated` included.
  const before = await app.inject('/ping?api-version=1.0')
  t.same(before.json(), { route: 'ping', version: '1.0' })
  t.equal(before.headers.deprecation, '@1767225600')
  t.equal(before.headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT')
  t.equal(before.headers.link, `${DEPRECATION_LINK}, ${SUNSET_LINK}`)
  t.equal((await app.inject('/ping?api-version=0.9')).headers.deprecation, '@1748736000')
  const current = await app.inject('/ping?api-version=2.0')
  t.same([current.headers.deprecation, current.headers.sunset, current.headers.link], [undefined, undefined, undefined])
  t.same((await app.inject('/ping')).json(), { route: 'ping', version: null })

  // After it: implemented nowhere, so answered as a version no route declares, with why.
  time.time = SUNSET
  const after = await app.inject('/ping?api-version=1.0')
  t.equal(after.statusCode, 400)
  t.same(after.json(), problem('unsupported'))
  t.same((await app.inject('/ping?api-version=9.0')).json(), problem('unsupported'), 'as a version no route declares')
  t.equal(after.headers.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT', 'the client finds out why, as on a versioned route')
  t.equal(after.headers.link, `${DEPRECATION_LINK}, ${SUNSET_LINK}`)
  t.same((await app.inject('/ping?api-version=2.0')).json(), { route: 'ping', version: '2.0' })
  t.same((await app.inject('/ping')).json(), { route: 'ping', version: null })
  time.time = BEFORE
  t.equal((await app.inject('/ping?api-version=1')).statusCode, 200, 'the clock decides, both ways')
})

t.test('selectors choose the version of a request that gives none', async t => {
  // ASP.NET's data sets: supported, deprecated, current, lowest.
  const sets: Array<[string[], string[], string, string]> = [
    [['1.0', '2.0'], ['3.0'], '3.0', '1.0'],
    [['2.0', '3.1-Beta'], ['1.0', '3.0'], '3.0', '1.0'],
    [['0.9-RC', '1.0', '2.0'], ['3.0'], '3.0', '1.0'],
    [['1.0-beta'], [], '1.0', '1.0']
  ]
  for (const [supported, deprecated, current, lowest] of sets) {
    for (const [selector, expected] of [['current', current], ['lowest', lowest], ['default', '1.0']] as const) {
      const app = await build({ assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: selector, problemDetails: true }, app => {
        for (const v of supported) app.get('/x', { apiVersions: v }, says(v))
        for (const v of deprecated) app.get('/x', { deprecatedApiVersions: v }, says(v))
      })
      const res = await app.inject('/x')
      const label = `${selector} of ${supported} + deprecated ${deprecated}`
      if (expected === '1.0' && ![...supported, ...deprecated].includes('1.0')) {
        t.same(res.json(), problem('unsupported'), label + ': the default is not implemented')
      } else {
        t.same(res.json(), { route: expected, version: expected }, label)
      }
      t.equal((await app.inject('/x?api-version=' + supported[0])).json().route, supported[0], 'a given version still wins')
    }
  }
})

t.test('a selector that is resolved per path, and moves on when a version retires', async t => {
  const time = clock(BEFORE)
  const app = await build({ assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: 'lowest', policies, now: time.now, problemDetails: true }, app => {
    app.get('/a', { apiVersions: ['1.0', '2.0'] }, says('a'))
    app.get('/b', { apiVersions: ['2.0', '4.0'] }, says('b'))
  })
  t.same((await app.inject('/a')).json(), { route: 'a', version: '1.0' })
  t.same((await app.inject('/b')).json(), { route: 'b', version: '2.0' })
  time.time = SUNSET
  t.same((await app.inject('/a')).json(), { route: 'a', version: '2.0' })
  time.time = BEFORE
  t.same((await app.inject('/a')).json(), { route: 'a', version: '1.0' })
})

t.test('a function selector', async t => {
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'debug', stream } })
  const seen: unknown[] = []
  await app.register(apiVersioning, {
    problemDetails: true,
    assumeDefaultVersionWhenUnspecified: true,
    apiVersionSelector: ({ request, supported, deprecated }) => {
      seen.push([supported.map(String), deprecated.map(String), Object.isFrozen(supported)])
      const wanted = request.headers['x-client'] as string
      if (wanted === 'throw') throw new Error('selector broke')
      if (wanted === 'object') return ApiVersion.parse('2')
      return wanted
    }
  })
  app.get('/x', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.9' }, says('x'))
  const ask = (client: string) => app.inject({ url: '/x', headers: { 'x-client': client } })
  t.same((await ask('2')).json(), { route: 'x', version: '2.0' }, 'the declared version is served')
  t.same((await ask('object')).json(), { route: 'x', version: '2.0' })
  t.same((await ask('0.9')).json(), { route: 'x', version: '0.9' })
  t.same((await ask('3.0')).json(), problem('unsupported'), 'a version not implemented here')
  t.same((await ask('nonsense')).json(), problem('unsupported'))
  t.same((await ask('throw')).json(), problem('unsupported'))
  t.same(seen[0], [['1.0', '2.0'], ['0.9'], true])
  // Any client can make it fail again: the first failure is an error, the later ones debug lines with a count.
  const failures = lines.filter(line => /apiVersionSelector failed/.test(line.msg))
  t.same(failures.map(line => [line.level, line.msg, line.failures]), [
    [50, 'fastify-api-versioning: apiVersionSelector failed; the request is answered as Unsupported (logged once; later failures at debug level, counted)', undefined],
    [20, 'fastify-api-versioning: apiVersionSelector failed; the request is answered as Unsupported', 2]
  ])
  t.match(failures.map(line => line.err?.message), [/returned "nonsense", which is not an API version/, /^selector broke$/])
})

t.test('a function selector is not offered versions past their enforced sunset', async t => {
  const time = clock(BEFORE)
  const offered: string[][] = []
  const app = await build({
    problemDetails: true,
    assumeDefaultVersionWhenUnspecified: true,
    now: time.now,
    policies,
    apiVersionSelector: ({ supported, deprecated }) => {
      offered.push([...supported, ...deprecated].map(String))
      return supported[0]
    }
  }, app => { app.get('/x', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.9' }, says('x')) })
  t.same((await app.inject('/x')).json(), { route: 'x', version: '1.0' })
  time.time = SUNSET
  t.same((await app.inject('/x')).json(), { route: 'x', version: '2.0' })
  t.same(offered, [['1.0', '2.0', '0.9'], ['2.0', '0.9']])
})

t.test('a clock that throws or gives no time after start-up is a 500 for that request, logged once; the process lives', async t => {
  let mode: 'ok' | 'throw' | 'nan' | 'text' | 'infinite' | 'nothing' | 'bigint' | 'rejects' | 'resolves' = 'ok'
  const now = () => {
    if (mode === 'throw') throw new Error('clock broke')
    // A promise that rejects, left unhandled, would end the process (tap fails the run on one).
    if (mode === 'rejects') return Promise.reject(new Error('async clock broke')) as unknown as number
    if (mode === 'resolves') return Promise.resolve(BEFORE) as unknown as number
    return ({ ok: BEFORE, nan: NaN, text: '2026' as unknown as number, infinite: Infinity, nothing: undefined as unknown as number, bigint: 10n as unknown as number, throw: 0 })[mode]
  }
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'warn', stream } })
  await app.register(apiVersioning, { problemDetails: true, reportApiVersions: true, policies, now })
  app.get('/orders', { apiVersions: ['1.0', '2.0'] }, says('orders'))
  app.get('/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, says('items'))
  app.get('/other', { apiVersions: '3.0' }, says('other'))
  const current = Fastify({ logger: { level: 'warn', stream } })
  await current.register(apiVersioning, { problemDetails: true, policies, now, assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: 'lowest' })
  current.get('/a', { apiVersions: ['1.0', '2.0'] }, says('a'))
  const picked = Fastify({ logger: { level: 'warn', stream } })
  await picked.register(apiVersioning, { problemDetails: true, policies, now, assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: ({ supported }) => supported[0] })
  picked.get('/a', { apiVersions: ['1.0', '2.0'] }, says('a'))
  await Promise.all([app.ready(), current.ready(), picked.ready()])

  const requests: Array<[string, FastifyInstance, string]> = [
    ['enforced version, read while routing', app, '/orders?api-version=1.0'],
    ['enforced version in the path', app, '/v1.0/items'],
    ['a version the clock does not retire, whose report depends on it', app, '/orders?api-version=2.0'],
    ['an unsupported version, whose report depends on it', app, '/orders?api-version=3.0'],
    ["'lowest' across an enforced sunset", current, '/a'],
    ['a function selector offered the versions still in force', picked, '/a']
  ]
  for (const [label, server, url] of requests) {
    for (const failure of ['throw', 'nan', 'text', 'infinite', 'nothing', 'bigint', 'rejects', 'resolves'] as const) {
      lines.length = 0
      mode = failure
      const res = await server.inject(url)
      t.equal(res.statusCode, 500, `${label}: ${failure}`)
      t.equal(res.headers['api-supported-versions'], undefined, `${label}: ${failure}: nothing reported`)
      t.equal(lines.length, 1, `${label}: ${failure}: logged once`)
      t.match(lines[0]?.err?.message, failure === 'throw'
        ? /the now option \(the clock of the version policies: enforced sunsets, deprecation dates\) threw: clock broke/
        : failure === 'rejects' || failure === 'resolves'
          ? /the now option \(the clock of the version policies: enforced sunsets, deprecation dates\) returned a promise; it must return the time synchronously, as Date\.now does$/
          : /the now option \(the clock of the version policies: enforced sunsets, deprecation dates\) returned (NaN|"2026"|Infinity|undefined|10n), not a time in ms since the epoch/, `${label}: ${failure}`)
      t.equal(lines[0]?.level, 50)
      mode = 'ok'
      t.equal((await server.inject(url)).statusCode, url.includes('3.0') ? 400 : 200, `${label}: the next request is served`)
    }
  }
  // The clock is read only for a version implemented where the request goes: elsewhere it is Unsupported.
  for (const failure of ['throw', 'nan', 'rejects'] as const) {
    lines.length = 0
    mode = failure
    const res = await app.inject('/other?api-version=1.0')
    t.equal(res.json().code, 'UnsupportedApiVersion', failure)
    t.equal(res.headers.sunset, undefined, '1.0 is not retired here: it never was here')
    t.same(lines, [])
  }
  mode = 'ok'
  // Each rejection was handled: none is left for the event loop's next turn.
  await new Promise(resolve => setImmediate(resolve))
})

t.test('a request reads the clock once: what is enforced and what is reported agree', async t => {
  // A clock that crosses the sunset between two reads of one request.
  let reads = 0
  const now = () => (reads++ % 2 === 0 ? SUNSET - 1 : SUNSET)
  const app = await build({ problemDetails: true, reportApiVersions: true, policies, now }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'] }, says('orders'))
  })
  for (let i = 0; i < 4; i++) {
    const res = await app.inject('/orders?api-version=1.0')
    const served = res.statusCode === 200
    t.equal(res.headers['api-supported-versions'], served ? '1.0, 2.0' : '2.0', `request ${i}: ${res.statusCode}`)
  }
})

t.test('lifecycle options are checked at start-up', async t => {
  const cases: Array<[ApiVersioningOptions, RegExp]> = [
    [{ now: 5 as unknown as () => number }, /now must be a function that returns the time in ms since the epoch, as Date.now does \(got number\)/],
    [{ now: () => 'soon' as unknown as number }, /now must be a function .* \(got a function returning soon\)/],
    [{ now: () => { throw new Error('no clock yet') } }, /now must be a function that returns the time in ms since the epoch, as Date.now does \(it threw: no clock yet\)/],
    // Its rejection handled: unhandled, it would end the process (tap fails the test on one).
    [{ now: (async () => { throw new Error('no clock yet') }) as unknown as () => number }, /now must be a function .* \(got a function returning a promise\)/],
    [{ apiVersionSelector: 'highest' as 'current' }, /apiVersionSelector must be 'default', 'current', 'lowest' or a function/],
    [{ logApiVersion: 'yes' as unknown as boolean }, /logApiVersion must be a boolean/],
    [{ policies: { '1.0': { sunset: { date: '2027-02-30' } } } }, /policies\['1.0'\].sunset.date/],
    [{ policies: { 1: {}, '1.0': {} } as ApiVersioningOptions['policies'] }, /the same version/]
  ]
  for (const [options, message] of cases) {
    const app = Fastify()
    app.register(apiVersioning, options)
    await t.rejects(async () => { await app.ready() }, message)
  }
  const warnings: string[] = []
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { warnings.push(JSON.parse(line).msg) } } } })
  await app.register(apiVersioning, { apiVersionSelector: 'current', policies: { '7.0': { deprecation: { date: '2026-01-01' } } } })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  await app.ready()
  t.match(warnings, [/apiVersionSelector is used only with assumeDefaultVersionWhenUnspecified: true/, /policies has a policy for 7.0, which no route declares/])
})

t.test('logApiVersion names the version in the request completed line, as declared (as metrics name it)', async t => {
  const lines: Array<Record<string, unknown>> = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } } })
  await app.register(apiVersioning, { logApiVersion: true })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  app.get('/b', { apiVersions: '2', constraints: { host: 'b.example' } }, says('b'))
  app.get('/n', { apiVersionNeutral: true }, says('n'))
  await app.inject('/a?api-version=1')
  await app.inject({ url: '/b?api-version=2.0', headers: { host: 'b.example' } })
  await app.inject('/n?api-version=1')
  await app.inject('/n?api-version=2.00')
  await app.inject('/n')
  const completed = lines.filter(line => line.msg === 'request completed')
  t.same(completed.map(line => line.apiVersion), ['1.0', '2', '1.0', '2', undefined])
  t.same((await app.inject('/a?api-version=1')).json(), { route: 'a', version: '1' }, 'request.apiVersion keeps the request\'s spelling')

  const plain: Record<string, unknown> = { info () {}, error () {}, debug () {}, fatal () {}, warn () {}, trace () {}, level: 'info', silent () {}, child: () => plain }
  const quiet = await build({ logApiVersion: true }, app => { app.get('/a', { apiVersions: '1.0' }, says('a')) }, { loggerInstance: plain as never })
  t.equal((await quiet.inject('/a?api-version=1')).statusCode, 200, 'a logger without setBindings is left alone')
})

t.test('logApiVersion logs only a version a route served, also when an onRequest hook answers', async t => {
  const lines: Array<Record<string, unknown>> = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } } })
  await app.register(apiVersioning, { logApiVersion: true, problemDetails: true, policies: { 0.9: { sunset: { date: '2020-01-01', enforce: true } } } })
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization === undefined) return reply.code(401).send({ message: 'who are you?' })
  })
  app.get('/a', { apiVersions: ['0.9', '1.0'] }, async request => {
    request.log.info('in the handler')
    return 'a'
  })
  app.get('/v:apiVersion/p', { apiVersions: '1.0' }, says('p'))
  app.get('/h', { apiVersions: '1.0', constraints: { host: 'h.example' } }, says('h'))
  app.get('/n', { apiVersionNeutral: true }, says('n'))
  const auth = { authorization: 'Bearer x' }
  const completed = async (url: string, headers: Record<string, string> = auth) => {
    lines.length = 0
    const res = await app.inject({ url, headers })
    return [res.statusCode, lines.find(line => line.msg === 'request completed')?.apiVersion]
  }
  t.same(await completed('/a?api-version=1.0'), [200, '1.0'])
  t.equal(lines.find(line => line.msg === 'in the handler')?.apiVersion, '1.0', 'the handler logs it too')
  t.same(await completed('/a?api-version=1.0', {}), [401, '1.0'], 'answered by an app-wide onRequest hook: still logged')
  t.same(await completed('/v1.0/p'), [200, '1.0'])
  t.same(await completed('/h?api-version=1.0', { ...auth, host: 'h.example' }), [200, '1.0'])
  t.same(await completed('/h?api-version=1.0', { host: 'h.example' }), [401, '1.0'])
  t.same(await completed('/n?api-version=1.0'), [200, '1.0'])
  t.same(await completed('/n?api-version=1.0', {}), [401, '1.0'], 'a neutral route too')
  for (const url of ['/a?api-version=9.0-' + 'a'.repeat(8000), '/a?api-version=2.0', '/a?api-version=x', '/a?api-version=1.0&api-version=2.0', '/a', '/a?api-version=0.9', '/v9.0/p', '/n?api-version=7.0']) {
    const [status, logged] = await completed(url)
    t.equal(logged, undefined, `${url.slice(0, 40)}: ${status}, nothing served, nothing logged`)
    t.equal((await completed(url, {}))[1], undefined, `${url.slice(0, 40)} refused by the hook: nothing logged`)
  }
})

t.test('withApiVersions gives a group of routes its versions', async t => {
  async function orders (scope: FastifyInstance) {
    scope.get('/', says('list'))
    scope.get('/:id', { apiVersions: '3.0' }, says('own'))
    scope.get('/health', { apiVersionNeutral: true }, says('health'))
    await scope.register(async inner => { inner.get('/deep', says('deep')) })
    await scope.register(withApiVersions({ apiVersions: '5.0' }, async (inner: FastifyInstance) => { inner.get('/inner', says('inner')) }))
  }
  function callback (scope: FastifyInstance, options: unknown, done: () => void) {
    scope.get('/cb', says('cb'))
    done()
  }
  const app = await build({ problemDetails: true, reportApiVersions: true }, async app => {
    await app.register(withApiVersions({ apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.9' }, orders), { prefix: '/orders' })
    await app.register(withApiVersions({ apiVersions: '1.0' }, callback))
    await app.register(withApiVersions({ apiVersionNeutral: true }, { default: async (scope: FastifyInstance) => { scope.get('/free', says('free')) } }))
    app.get('/outside', says('outside'))
  })
  const list = await app.inject('/orders?api-version=2')
  t.same(list.json(), { route: 'list', version: '2' })
  t.equal(list.headers['api-deprecated-versions'], '0.9')
  t.same((await app.inject('/orders?api-version=0.9')).json(), { route: 'list', version: '0.9' })
  t.same((await app.inject('/orders?api-version=3')).json(), problem('unsupported'))
  t.same((await app.inject('/orders/1?api-version=3')).json(), { route: 'own', version: '3' })
  t.same((await app.inject('/orders/1?api-version=1')).json(), problem('unsupported'), "a route's own declaration replaces the set")
  t.same((await app.inject('/orders/health')).json(), { route: 'health', version: null })
  t.same((await app.inject('/orders/deep?api-version=1')).json(), { route: 'deep', version: '1' }, 'nested plugins take it')
  t.same((await app.inject('/orders/inner?api-version=5')).json(), { route: 'inner', version: '5' })
  t.same((await app.inject('/orders/inner?api-version=1')).json(), problem('unsupported'), 'an inner set replaces an outer one')
  t.same((await app.inject('/cb?api-version=1')).json(), { route: 'cb', version: '1' })
  t.same((await app.inject('/free?api-version=2')).json(), { route: 'free', version: '2' })
  t.same((await app.inject('/outside?api-version=x')).json(), { route: 'outside', version: null }, 'routes outside are untouched')

  const bad: Array<[() => unknown, RegExp]> = [
    [() => withApiVersions(null as never, orders), /withApiVersions needs a set such as/],
    [() => withApiVersions({ apiVersion: '1.0' } as never, orders), /withApiVersions: unknown option "apiVersion"/],
    [() => withApiVersions({ apiVersions: '1.x' }, orders), /set of withApiVersions: apiVersions has "1.x"/],
    [() => withApiVersions({}, orders), /withApiVersions needs apiVersions, deprecatedApiVersions or apiVersionNeutral/],
    [() => withApiVersions({ apiVersions: '1.0' }, null as never), /withApiVersions needs a plugin function/]
  ]
  for (const [make, message] of bad) t.throws(make, message)

  const clash = Fastify()
  await clash.register(apiVersioning)
  await t.rejects(async () => {
    await clash.register(withApiVersions({ apiVersions: '1.0' }, async (scope: FastifyInstance) => {
      scope.get('/a', says('a'))
      scope.get('/a', { apiVersions: '1' }, says('b'))
    }))
  }, /route GET \/a declares API version 1, which another GET \/a route already declares/)
})
