import t from 'tap'
import Fastify from 'fastify'
import apiVersioning from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { buildDocs, documentOf, operations, problemsOf } from './openapi-helpers.js'

const SUNSET = Date.parse('2027-01-01T00:00:00Z')

t.test("a version's document states its deprecation and sunset, and a retired version has none", async t => {
  for (const [now, versions] of [[SUNSET - 1, ['0.9', '1.0', '2.0']], [SUNSET, ['0.9', '2.0']]] as const) {
    const app = await buildDocs({
      problemDetails: true,
      now: () => now,
      policies: {
        0.9: { deprecation: { date: '2025-06-01' } },
        '1.0': {
          deprecation: { date: '2026-01-01T12:30:00Z', link: 'https://example.com/api/deprecations#v1' },
          sunset: { date: '2027-01-01', link: { href: 'https://example.com/api/sunset#v1', title: 'Retiring 1.0', type: 'text/html' }, enforce: true }
        },
        '2.0': { sunset: { link: 'https://example.com/api/sunset#v2' } }
      }
    }, { openapi: { info: { title: 'Orders', version: 'x', description: 'The orders API.' } } }, app => {
      app.get('/orders', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.9' }, async () => [])
    })
    t.same(app.apiVersionDocuments().map(d => d.version), versions, `at ${new Date(now).toISOString()}`)
    for (const { document } of app.apiVersionDocuments()) t.same(await problemsOf(document), [], document.info.version)
    if (now === SUNSET) {
      t.equal((await app.inject('/openapi/1.0.json')).statusCode, 404)
      continue
    }
    const v1 = documentOf(app, '1.0').info
    t.equal(v1.description, 'The orders API.\n\nThis API version is deprecated from 2026-01-01T12:30:00.000Z: see [https://example.com/api/deprecations#v1](https://example.com/api/deprecations#v1). This API version is retired on 2027-01-01; from then on its requests are refused: see [Retiring 1.0](https://example.com/api/sunset#v1).\n\n### Changes since 0.9\n\nNo operation changed.')
    t.same(v1['x-api-deprecation'], { date: '2026-01-01T12:30:00.000Z', link: { href: 'https://example.com/api/deprecations#v1' } })
    t.same(v1['x-api-sunset'], { date: '2027-01-01T00:00:00.000Z', link: { href: 'https://example.com/api/sunset#v1', title: 'Retiring 1.0', type: 'text/html' }, enforce: true })
    const old = documentOf(app, '0.9').info
    t.equal(old.description, 'The orders API.\n\nThis API version is deprecated from 2025-06-01.')
    t.equal(old['x-api-sunset'], undefined)
    const v2 = documentOf(app, '2.0').info
    t.equal(v2.description, 'The orders API.\n\nThis API version will be retired: see [https://example.com/api/sunset#v2](https://example.com/api/sunset#v2).\n\n### Changes since 1.0\n\nNo operation changed.')
    t.same(v2['x-api-sunset'], { link: { href: 'https://example.com/api/sunset#v2' }, enforce: false })
  }
  const plain = await buildDocs({ problemDetails: true, policies: { '1.0': { deprecation: { link: 'https://example.com/d' } } } }, {}, app => {
    app.get('/a', { deprecatedApiVersions: '1.0' }, async () => 'a')
  })
  t.equal(documentOf(plain, '1.0').info.description, 'This API version is deprecated: see [https://example.com/d](https://example.com/d).')
  // Markdown links the docs page renders clickable, whatever the link's title and URL hold.
  const odd = await buildDocs({ problemDetails: true, policies: { '1.0': { deprecation: { link: { href: 'https://example.com/a_(b)?c=[d]', title: 'See [this] *now*' } } } } }, {}, app => {
    app.get('/a', { deprecatedApiVersions: '1.0' }, async () => 'a')
  })
  t.equal(documentOf(odd, '1.0').info.description, 'This API version is deprecated: see [See \\[this\\] \\*now\\*](https://example.com/a_%28b%29?c=[d]).')
})

t.test('with the media type reader, operations list their media types with the version', async t => {
  const schema = {
    body: { type: 'object', properties: { n: { type: 'integer' } } },
    response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } }
  }
  for (const [mediaType, expected] of [['v', 'application/json; v=2.0'], [{ template: 'application/vnd.acme.v{version}+json' }, 'application/vnd.acme.v2.0+json']] as const) {
    const app = await buildDocs({ problemDetails: true, versionReader: { mediaType } }, {}, app => {
      app.post('/orders', { apiVersions: '2.0', schema }, async () => ({ n: 1 }))
      app.get('/health', { apiVersionNeutral: true, schema: { response: schema.response } }, async () => ({ n: 1 }))
      app.get('/text', { apiVersions: '2.0', schema: { response: { 200: { content: { 'text/plain': { schema: { type: 'string' } } } } } } }, async () => 'x')
    })
    const document = documentOf(app, '2.0')
    t.same(await problemsOf(document), [])
    const ops = operations(document)
    const post = ops['POST /orders']
    t.same(Object.keys(post.requestBody.content), [expected], JSON.stringify(mediaType))
    t.same(Object.keys(post.responses['200'].content), [expected])
    t.same(Object.keys(post.responses['400'].content), ['application/problem+json', 'application/json'], 'errors keep their types')
    t.same(Object.keys(ops['GET /health'].responses['200'].content), ['application/json'], 'neutral routes take any version')
    t.same(Object.keys(ops['GET /text'].responses['200'].content), [typeof mediaType === 'string' ? 'text/plain; v=2.0' : 'text/plain'], 'a type the template does not cover stays')
  }
})

t.test('documents, picker and headers agree at the time a document is served, as dates pass while the app runs', async t => {
  const DEPRECATION = Date.parse('2026-01-01T00:00:00Z')
  let now = DEPRECATION - 1
  let builds = 0
  const app = await buildDocs({
    problemDetails: true,
    reportApiVersions: true,
    now: () => now,
    policies: { '1.0': { deprecation: { date: '2026-01-01' }, sunset: { date: '2027-01-01', enforce: true } } }
  }, { ui: true, transformObject: ({ document }) => { builds++; return document } }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'] }, async () => [])
  })
  const state = async () => ({
    documents: app.apiVersionDocuments().map(d => [d.version, d.deprecated, operations(d.document)['GET /orders'].deprecated ?? false]),
    picker: (await app.inject('/openapi/swagger-config')).json().urls.map((u: { name: string }) => u.name),
    served: (await app.inject('/openapi/1.0.json')).statusCode === 200 ? operations((await app.inject('/openapi/1.0.json')).json())['GET /orders'].deprecated ?? false : 'gone',
    supported: operations(documentOf(app, '2.0'))['GET /orders'].responses['200'].headers['api-supported-versions'].example,
    page: (await app.inject('/docs/json')).headers.location
  })

  t.same(await state(), { documents: [['1.0', false, false], ['2.0', false, false]], picker: ['2.0', '1.0'], served: false, supported: '1.0, 2.0', page: '/openapi/2.0.json' }, 'before the deprecation date')
  const before = builds
  for (let i = 0; i < 3; i++) app.apiVersionDocuments()
  t.equal(builds, before, 'nothing is rebuilt while nothing changes')

  now = DEPRECATION
  t.same(await state(), { documents: [['1.0', true, true], ['2.0', false, false]], picker: ['2.0', '1.0 (deprecated)'], served: true, supported: '1.0, 2.0', page: '/openapi/2.0.json' }, 'from the deprecation date')
  t.equal((await app.inject('/orders?api-version=1.0')).headers.deprecation, '@1767225600', 'as the server says')

  now = SUNSET
  t.same(await state(), { documents: [['2.0', false, false]], picker: ['2.0'], served: 'gone', supported: '2.0', page: '/openapi/2.0.json' }, 'from the enforced sunset')
  t.equal((await app.inject('/orders?api-version=2.0')).headers['api-supported-versions'], '2.0', 'as the server says')
  t.equal(builds, before + 3, 'each period built once: 1.0 and 2.0, then 2.0 alone')
})

t.test('the changes follow the documents served in each period: deprecated operations, then a version gone', async t => {
  const DEPRECATION = Date.parse('2026-01-01T00:00:00Z')
  let now = DEPRECATION - 1
  const app = await buildDocs({
    problemDetails: true,
    now: () => now,
    policies: { '2.0': { deprecation: { date: '2026-01-01' }, sunset: { date: '2027-01-01', enforce: true } } }
  }, { ui: true }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0', '3.0'] }, async () => [])
    app.get('/items', { apiVersions: '2.0' }, async () => [])
  })
  const served = async () => ({
    changes: (await app.inject('/openapi/changes.json')).json().map((c: { from: string, to: string, added: string[], removed: string[], deprecated: string[] }) =>
      [c.from, c.to, c.added, c.removed, c.deprecated]),
    description: (await app.inject('/openapi/3.0.json')).json().info.description
  })
  const before = await served()
  t.same(before, {
    changes: [['1.0', '2.0', ['GET /items'], [], []], ['2.0', '3.0', [], ['GET /items'], []]],
    description: '### Changes since 2.0\n\n**Breaking changes**\n\n- `GET /items` removed'
  }, 'before the deprecation date')
  t.equal(app.apiVersionChanges(), app.apiVersionChanges(), 'made once in a period')

  now = DEPRECATION
  t.same((await served()).changes, [['1.0', '2.0', ['GET /items'], [], ['GET /items', 'GET /orders']], ['2.0', '3.0', [], ['GET /items'], []]],
    "from the deprecation date: 2.0's operations are deprecated")

  now = SUNSET
  t.same(await served(), {
    changes: [['1.0', '3.0', [], [], []]],
    description: '### Changes since 1.0\n\nNo operation changed.'
  }, 'from the enforced sunset: 2.0 has no document, and 3.0 follows 1.0')
})

t.test('a deprecation without a date is in effect at once; one dated after the sunset never is, as for the server', async t => {
  const app = await buildDocs({
    problemDetails: true,
    now: () => SUNSET - 1,
    policies: {
      '1.0': { deprecation: { link: 'https://example.com/d' } },
      '2.0': { deprecation: { date: '2028-01-01' }, sunset: { date: '2027-06-01' } }
    }
  }, {}, app => { app.get('/orders', { apiVersions: ['1.0', '2.0', '3.0'] }, async () => []) })
  t.same(app.apiVersionDocuments().map(d => [d.version, d.deprecated]), [['1.0', true], ['2.0', false], ['3.0', false]])
  t.equal(documentOf(app, '2.0').info['x-api-deprecation'], undefined)
  t.equal(documentOf(app, '2.0').info.description, 'This API version is retired on 2027-06-01.\n\n### Changes since 1.0\n\nNo operation changed.')
})

t.test('a clock that fails while a document is served is a logged 500; the app goes on', async t => {
  const errors: string[] = []
  let clock: () => unknown = () => SUNSET
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => { errors.push(JSON.parse(line).err?.message) } } } })
  await app.register(apiVersioning, { problemDetails: true, now: () => clock() as number, policies: { '1.0': { sunset: { date: '2030-01-01', enforce: true } } } })
  await app.register(apiVersioningOpenApi, { ui: true })
  app.get('/orders', { apiVersions: '1.0' }, async () => [])
  await app.ready()
  for (const [name, bad] of [
    ['throws', () => { throw new Error('clock broke') }], ['returns NaN', () => NaN], ['returns a string', () => '2030'],
    ['returns a promise that rejects', () => Promise.reject(new Error('async clock broke'))]
  ] as const) {
    clock = bad
    for (const url of ['/openapi/1.0.json', '/openapi/swagger-config', '/docs/json']) {
      t.equal((await app.inject(url)).statusCode, 500, `${url} when now ${name}`)
    }
    t.match(errors.at(-1), name === 'returns a promise that rejects'
      ? /fastify-api-versioning\/openapi: the now option \(the clock of the version policies: enforced sunsets, deprecation dates\) returned a promise/
      : /fastify-api-versioning\/openapi: the now option \(the clock of the version policies: enforced sunsets, deprecation dates\) (threw|returned)/)
    t.throws(() => app.apiVersionDocuments(), /the now option/)
  }
  clock = () => SUNSET
  t.equal((await app.inject('/openapi/1.0.json')).statusCode, 200, 'and serves again once the clock works')
  // Each rejection was handled: none is left for the event loop's next turn.
  await new Promise(resolve => setImmediate(resolve))
})

t.test('every version retired by its enforced sunset: no document, no change; the docs page and the changelog say no version is served', async t => {
  const app = await buildDocs({
    problemDetails: true,
    now: () => Date.parse('2030-01-01'),
    policies: { '1.0': { sunset: { date: '2028-01-01', enforce: true } }, '2.0': { sunset: { date: '2029-01-01', enforce: true } } }
  }, { ui: true, openapi: { openapi: '3.1.0', info: { title: 'Orders', version: 'x' } } }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'] }, async () => [])
    app.get('/health', { apiVersionNeutral: true }, async () => 'ok')
  })
  t.equal((await app.inject('/health')).statusCode, 200, 'the API ended; its neutral routes still serve')
  t.same(app.apiVersionDocuments(), [])
  t.same(app.apiVersionChanges(), [])
  const config = (await app.inject('/openapi/swagger-config')).json()
  t.same(config, { spec: { openapi: '3.1.0', info: { title: 'Orders', version: '', description: 'No version of this API is served.' }, paths: {} } },
    'nothing to pick: the page shows a document of no version that says so (an empty picker would fail Swagger UI)')
  t.same(await problemsOf(config.spec), [])
  for (const url of ['/openapi/2.0.json', '/openapi/1.0.yaml', '/docs/json', '/docs/yaml']) {
    t.equal((await app.inject(url)).statusCode, 404, `${url}: no such document`)
  }
  t.same((await app.inject('/openapi/changes.json')).json(), [])
  t.same((await app.inject('/openapi/changelog.json')).json(), [])
  const page = await app.inject('/openapi/changelog')
  t.equal(page.statusCode, 200)
  t.match(page.body, '<p>No version of this API is served.</p>')
  t.notMatch(page.body, '<section')
})
