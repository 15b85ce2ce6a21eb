import t from 'tap'
import { buildDocs, documentOf, operations, problemsOf } from './openapi-helpers.js'

const SUNSET = Date.parse('2027-01-01T00:00:00Z')

t.test("a version's document states its deprecation and sunset, and a retired version has none", async t => {
  for (const [now, versions] of [[SUNSET - 1, ['0.9', '1.0', '2.0']], [SUNSET, ['0.9', '2.0']]] as const) {
    const app = await buildDocs({
      problemDetails: true,
      now: () => now,
      policies: {
        '0.9': { deprecation: { date: '2025-06-01' } },
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
    t.equal(v1.description, 'The orders API.\n\nThis API version is deprecated from 2026-01-01T12:30:00.000Z: see https://example.com/api/deprecations#v1. This API version is retired on 2027-01-01; from then on its requests are refused: see https://example.com/api/sunset#v1.')
    t.same(v1['x-api-deprecation'], { date: '2026-01-01T12:30:00.000Z', link: { href: 'https://example.com/api/deprecations#v1' } })
    t.same(v1['x-api-sunset'], { date: '2027-01-01T00:00:00.000Z', link: { href: 'https://example.com/api/sunset#v1', title: 'Retiring 1.0', type: 'text/html' }, enforce: true })
    const old = documentOf(app, '0.9').info
    t.equal(old.description, 'The orders API.\n\nThis API version is deprecated from 2025-06-01.')
    t.equal(old['x-api-sunset'], undefined)
    const v2 = documentOf(app, '2.0').info
    t.equal(v2.description, 'The orders API.\n\nThis API version will be retired: see https://example.com/api/sunset#v2.')
    t.same(v2['x-api-sunset'], { link: { href: 'https://example.com/api/sunset#v2' }, enforce: false })
  }
  const plain = await buildDocs({ problemDetails: true, policies: { '1.0': { deprecation: { link: 'https://example.com/d' } } } }, {}, app => {
    app.get('/a', { deprecatedApiVersions: '1.0' }, async () => 'a')
  })
  t.equal(documentOf(plain, '1.0').info.description, 'This API version is deprecated: see https://example.com/d.')
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
