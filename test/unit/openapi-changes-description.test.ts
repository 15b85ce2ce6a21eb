import t from 'tap'
import { parse } from 'yaml'
import { buildDocs, documentOf, problemsOf } from './openapi-helpers.js'

const ok = async () => null
const total = { type: 'object', properties: { total: { type: 'integer' } } }

t.test("each version's description says what changed since the version before it, breaking changes first", async t => {
  for (const openapi of ['3.0.3', '3.1.0']) {
    const app = await buildDocs({ problemDetails: true }, { openapi: { openapi, info: { title: 'Orders', description: 'The orders API.' } } }, app => {
      app.get('/orders', { apiVersions: '1.0', deprecatedApiVersions: '0.9', schema: { querystring: { type: 'object', properties: {} }, response: { 200: total } } }, ok)
      app.get('/orders', { apiVersions: '2.0', schema: { querystring: { type: 'object', properties: { page: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { count: { type: 'integer' } } } } } }, ok)
      app.post('/orders', { apiVersions: '2.0' }, ok)
      app.get('/orders/:id', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, ok)
    })
    t.equal(documentOf(app, '0.9').info.description, 'The orders API.\n\nThis API version is deprecated.', 'the first version: nothing before it')
    t.equal(documentOf(app, '1.0').info.description, 'The orders API.\n\n### Changes since 0.9\n\nNo operation changed.', 'operations no longer deprecated are no change')
    t.equal(documentOf(app, '2.0').info.description, [
      'The orders API.',
      '### Changes since 1.0',
      '**Breaking changes**',
      '- `GET /orders/{id}` removed\n' +
      '- `GET /orders`: response 200: property `total` removed',
      '**Other changes**',
      '- `POST /orders` added\n' +
      '- `GET /orders`: query parameter `page` added\n' +
      '- `GET /orders`: response 200: property `count` added'
    ].join('\n\n'), openapi)
    for (const { version, document } of app.apiVersionDocuments()) t.same(await problemsOf(document), [], `${openapi} ${version}: valid with its description`)
    t.equal((await app.inject('/openapi/2.0.json')).json().info.description, documentOf(app, '2.0').info.description, 'served as JSON')
    t.equal(parse((await app.inject('/openapi/2.0.yaml')).body).info.description, documentOf(app, '2.0').info.description, 'and as YAML')
  }
})

t.test('without a description of its own, a document says only what changed; after the lifecycle notes when it has them', async t => {
  const app = await buildDocs({ problemDetails: true, policies: { '2.0': { sunset: { date: '2030-01-01' } } } }, {}, app => {
    app.get('/a', { apiVersions: '1.0' }, ok)
    app.get('/b', { apiVersions: ['1.0', '2.0'] }, ok)
    app.get('/c', { deprecatedApiVersions: '2.0' }, ok)
  })
  t.equal(documentOf(app, '1.0').info.description, undefined)
  t.equal(documentOf(app, '2.0').info.description, [
    'This API version is retired on 2030-01-01.',
    '### Changes since 1.0',
    '**Breaking changes**',
    '- `GET /a` removed',
    '**Other changes**',
    '- `GET /c` added\n- `GET /c` deprecated'
  ].join('\n\n'))

  const added = await buildDocs({ problemDetails: true }, {}, app => {
    app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok)
    app.get('/b', { apiVersions: '2.0' }, ok)
  })
  t.equal(documentOf(added, '2.0').info.description, '### Changes since 1.0\n\n**Other changes**\n\n- `GET /b` added', 'no breaking changes: no such list')
})

t.test('an operation that differs only where no rule judges is said to have changed, never "No operation changed."', async t => {
  const page = (fallback: number) => ({ type: 'object', properties: { page: { type: 'integer', default: fallback } } })
  const app = await buildDocs({ problemDetails: true }, {}, app => {
    app.get('/orders', { apiVersions: '1.0', schema: { querystring: page(1), summary: 'Orders' } }, ok)
    app.get('/orders', { apiVersions: '2.0', schema: { querystring: page(0), summary: 'The orders' } }, ok)
  })
  t.equal(documentOf(app, '2.0').info.description, '### Changes since 1.0\n\n**Other changes**\n\n- `GET /orders`: query parameter `page`: changed (not judged): `default`')
})
