import t from 'tap'
import Fastify from 'fastify'
import apiVersioning, { versionChange, type VersionChangesEntry } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { rulesOf } from '../../lib/version-changes/version-change.js'
import { documentOf, operations } from './openapi-helpers.js'

const DATE = '2026-03-01'
const AT = `@${Date.UTC(2026, 2, 1) / 1000}`
const LINK = 'https://example.com/deprecations/delete-orders'

// Versions 3.0 (newest) to 1.0: DELETE /orders/:id deprecated from 2.0 on, with a date and a link.
async function orders (deprecated: unknown, more: Partial<VersionChangesEntry> = {}, options: Record<string, unknown> = {}) {
  const app = Fastify()
  const change = versionChange({ description: 'Orders are kept.', endpoints: [{ method: ['DELETE', 'GET'], url: '/orders/:id', deprecated } as never] })
  await app.register(apiVersioning, { ...options, versionChanges: [{ version: '3.0', ...more }, { version: '2.0', changes: [change] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, {})
  app.delete('/orders/:id', { versionChanges: true }, async (request, reply) => reply.code(204).send())
  app.get('/orders/:id', { versionChanges: true }, async (request, reply) => {
    const query = request.query as { fail?: string, unversioned?: string }
    if (query.fail !== undefined) throw new Error('no such order')
    // A hook or handler may say the request is served as no version.
    if (query.unversioned !== undefined) request.apiVersion = null
    return { id: 7 }
  })
  app.post('/orders', { versionChanges: true }, async () => ({ id: 8 }))
  await app.ready()
  const headers = async (method: 'GET' | 'DELETE' | 'POST' | 'HEAD', version: string, url = '/orders/7') => {
    const reply = await app.inject({ method, url: `${url}${url.includes('?') ? '&' : '?'}api-version=${version}` })
    return [reply.statusCode, reply.headers.deprecation, reply.headers.link]
  }
  return { app, headers }
}

t.test('an endpoint deprecated from a version on, with a date and a link: its responses to that version and later carry the Deprecation header and the link, as a version policy sends them', async t => {
  const { app, headers } = await orders({ date: DATE, link: LINK })
  const link = `<${LINK}>; rel="deprecation"`
  t.same(await headers('DELETE', '3.0'), [204, AT, link], 'the newest version')
  t.same(await headers('DELETE', '2.0'), [204, AT, link], 'the version that deprecated it')
  t.same(await headers('DELETE', '1.0'), [204, undefined, undefined], 'not before it')
  t.same(await headers('GET', '2.0'), [200, AT, link], 'each method it names')
  t.same(await headers('HEAD', '2.0'), [200, AT, link], "a HEAD route answers as its GET's")
  t.same(await headers('GET', '2.0', '/orders/7?fail=1'), [500, AT, link], 'errors too')
  t.same(await headers('POST', '2.0', '/orders'), [200, undefined, undefined], 'not another endpoint')
  t.same(await headers('GET', '2.0', '/orders/7?unversioned=1'), [200, undefined, undefined], 'nor a response served as no version')
  t.equal(operations(documentOf(app, '2.0'))['DELETE /orders/{id}'].deprecated, true)
  t.notOk(operations(documentOf(app, '1.0'))['DELETE /orders/{id}'].deprecated)
})

t.test('a link alone, a date alone, or true: only what is given is sent', async t => {
  t.same(await (await orders({ link: LINK })).headers('DELETE', '3.0'), [204, undefined, `<${LINK}>; rel="deprecation"`])
  t.same(await (await orders({ date: new Date(DATE) })).headers('DELETE', '3.0'), [204, AT, undefined])
  t.same(await (await orders(true)).headers('DELETE', '3.0'), [204, undefined, undefined], 'true: the documents say so, no header (no date to send)')
})

t.test("the endpoint's date wins over its version's deprecation policy; the links of both are sent", async t => {
  const policy = { policies: { '2.0': { deprecation: { date: '2025-01-01', link: 'https://example.com/v2' } } } }
  const { headers } = await orders({ date: DATE, link: LINK }, {}, policy)
  t.same(await headers('DELETE', '2.0'), [204, AT, `<${LINK}>; rel="deprecation", <https://example.com/v2>; rel="deprecation"`])
  t.same(await headers('POST', '2.0', '/orders'), [200, `@${Date.UTC(2025, 0, 1) / 1000}`, '<https://example.com/v2>; rel="deprecation"'], 'other endpoints: the version\'s')
})

t.test('a deprecation is checked when the change is made, as a version policy is', async t => {
  const rules = rulesOf(versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/a', deprecated: { date: DATE, link: { href: LINK, title: 'Why' } } }] }))
  t.match(rules?.endpoints[0], { kind: 'deprecated', deprecation: { date: new Date(DATE), link: { href: LINK, title: 'Why', rel: 'deprecation' } } })
  t.equal(rulesOf(versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/a', deprecated: true }] }))?.endpoints[0].deprecation, null)
  const rows: Array<[unknown, RegExp]> = [
    [false, /versionChange: endpoints\[0\]\.deprecated must be true or \{ date\?, link\? \}/],
    [{}, /versionChange: endpoints\[0\]\.deprecated must have a date or a link/],
    [{ date: '2026-02-30' }, /versionChange: endpoints\[0\]\.deprecated\.date is not a real date and time/],
    [{ link: 'ftp://x' }, /versionChange: endpoints\[0\]\.deprecated\.link must be an absolute http\(s\) URL/],
    [{ date: DATE, when: 1 }, /versionChange: endpoints\[0\]\.deprecated\.when is not a known setting: expected date, link/]
  ]
  for (const [deprecated, message] of rows) t.throws(() => versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/a', deprecated } as never] }), { code: 'FST_API_VERSIONING_INVALID_OPTION', message }, String(message))
})

t.test('an endpoint deprecated or hidden at an older URL stays so once a later version moves it', async t => {
  const app = Fastify()
  const moved = versionChange({ description: 'Reports are at /reports/:id (they were at /report/:id).', endpoints: [{ method: 'GET', url: '/reports/:id', changed: { url: '/report/:id' } }, { method: 'GET', url: '/files/:id', changed: { url: '/file/:id' } }] })
  const deprecated = versionChange({ description: 'Reports are deprecated; files are no longer documented.', endpoints: [{ method: 'GET', url: '/report/:id', deprecated: { date: DATE, link: LINK } }, { method: 'GET', url: '/file/:id', hidden: true }] })
  await app.register(apiVersioning, { versionChanges: [{ version: '4.0' }, { version: '3.0', changes: [moved] }, { version: '2.0', changes: [deprecated] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, {})
  app.get('/reports/:id', { versionChanges: true }, async () => ({}))
  app.get('/files/:id', { versionChanges: true }, async () => ({}))
  await app.ready()
  const link = `<${LINK}>; rel="deprecation"`
  for (const [version, url, sent] of [['1.0', '/report/1', undefined], ['2.0', '/report/1', AT], ['3.0', '/reports/1', AT], ['4.0', '/reports/1', AT]] as const) {
    const reply = await app.inject(`${url}?api-version=${version}`)
    t.same([reply.statusCode, reply.headers.deprecation, reply.headers.link], [200, sent, sent === undefined ? undefined : link], version)
  }
  const deprecatedIn = (version: string) => Object.entries(operations(documentOf(app, version))).filter(([, operation]) => operation.deprecated === true).map(([key]) => key)
  t.same(deprecatedIn('1.0'), [])
  t.same(deprecatedIn('2.0'), ['GET /report/{id}'])
  t.same(deprecatedIn('3.0'), ['GET /reports/{id}'])
  t.same(deprecatedIn('4.0'), ['GET /reports/{id}'])
  const documented = (version: string) => Object.keys(operations(documentOf(app, version))).sort()
  t.same(documented('1.0'), ['GET /file/{id}', 'GET /report/{id}'])
  t.same(documented('2.0'), ['GET /report/{id}'])
  t.same(documented('4.0'), ['GET /reports/{id}'])
})
