import t from 'tap'
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { buildDocs } from './openapi-helpers.js'

// The changelog clients read: {routePrefix}/changelog.json and {routePrefix}/changelog, newest version first, each
// with what it says it changed and what its document shows changed since the version before.

const Order = Type.Object({ name: Type.String(), total: Type.Number() })
const versionChanges = [
  { version: '3.0', changes: [versionChange({ description: 'Orders have a name (it was <title> & such).', fields: [{ schema: Order, field: 'name', renamedFrom: 'title' }] })] },
  { version: '2.0', changes: [versionChange({ description: 'Orders have a total, a `List<Line>` as `lines`.', fields: [{ schema: Order, field: 'total', added: true }] }), versionChange({ description: 'Searches match whole words.' })] },
  { version: '1.5', changes: [versionChange({ description: 'Nothing the documents show.' })] },
  { version: '1.0', deprecated: true }
]

async function app (openapi = {}) {
  return buildDocs({ versionChanges }, { openapi: { info: { title: 'Orders <API>', version: 'x' } }, ...openapi }, app => {
    app.get('/orders/:id', { versionChanges: true, schema: { response: { 200: Order } } }, async () => ({ name: 'n', total: 1 }))
  })
}

t.test('changelog.json: every version, newest first: its descriptions, then what changed since the one before, breaking apart', async t => {
  const served = await app()
  const res = await served.inject('/openapi/changelog.json')
  t.equal(res.statusCode, 200)
  t.same(res.json(), [
    { version: '3.0', deprecated: false, since: '2.0', descriptions: ['Orders have a name (it was <title> & such).'], breaking: ['`GET /orders/{id}`: response 200: property `name` renamed from `title`'], other: [] },
    { version: '2.0', deprecated: false, since: '1.5', descriptions: ['Orders have a total, a `List<Line>` as `lines`.', 'Searches match whole words.'], breaking: [], other: ['`GET /orders/{id}`: response 200: required property `total` added'] },
    { version: '1.5', deprecated: false, since: '1.0', descriptions: ['Nothing the documents show.'], breaking: [], other: [] },
    { version: '1.0', deprecated: true, since: null, descriptions: [], breaking: [], other: [] }
  ])
  t.equal((await served.inject('/openapi/changelog.json')).body, res.body, 'made once for the documents it is of')
})

t.test('the changelog page: HTML of its own, every text escaped, breaking changes marked, linked to each document and the docs page', async t => {
  const served = await app({ ui: true })
  const res = await served.inject('/openapi/changelog')
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  const html = res.body
  t.match(html, /^<!doctype html>/)
  t.match(html, '<title>Orders &#60;API&#62;: changelog</title>')
  t.match(html, '<p><a href="/docs">The documents of every version</a></p>')
  t.same([...html.matchAll(/<section id="v([^"]+)">/g)].map(m => m[1]), ['3.0', '2.0', '1.5', '1.0'], 'newest first')
  t.match(html, '<h2><a href="/openapi/1.0.json">1.0</a> <span class="deprecated">deprecated</span></h2>')
  t.match(html, '<p>Orders have a name (it was &#60;title&#62; &#38; such).</p>')
  t.match(html, '<h3>Breaking changes</h3>\n<ul class="breaking">\n<li><code>GET /orders/{id}</code>: response 200: property <code>name</code> renamed from <code>title</code></li>\n</ul>')
  t.match(html, '<h3>Other changes</h3>\n<ul class="other">\n<li><code>GET /orders/{id}</code>: response 200: required property <code>total</code> added</li>')
  t.match(html, '<p class="since">Its document shows no change since 1.0.</p>')
  t.match(html, '<p class="since">The first version.</p>')
  t.notMatch(html, /<script/, 'no script')
  t.notMatch(html, /<title>[^<]*<[^/]/, 'no tag of the app\'s text')
  t.notMatch((await (await app()).inject('/openapi/changelog')).body, 'The documents of every version', 'no docs page, no link to it')
})

t.test("the docs page links to the changelog, the app's own theme kept", async t => {
  const theme = { title: 'Orders', js: [{ filename: 'own.js', content: 'window.own = 1' }], css: [{ filename: 'own.css', content: 'body { color: red }' }] }
  const served = await app({ routePrefix: '/api-docs', ui: { theme } })
  const script = await served.inject('/docs/static/theme/api-versioning-changelog.js')
  t.equal(script.statusCode, 200)
  t.match(script.body, '"/api-docs/changelog"')
  t.equal((await served.inject('/docs/static/theme/api-versioning-changelog.css')).statusCode, 200)
  t.equal((await served.inject('/docs/static/theme/own.js')).body, 'window.own = 1', "the app's script")
  t.equal((await served.inject('/docs/static/theme/own.css')).body, 'body { color: red }', "the app's style")
  const page = (await served.inject('/docs/static/index.html')).body + (await served.inject('/docs/')).body
  t.match(page, 'theme/api-versioning-changelog.js')
  t.match(page, '<title>Orders</title>')
  t.equal((await served.inject('/api-docs/changelog')).statusCode, 200, 'under the routePrefix')
})

t.test("a description in a document's markdown: a '<' in it is text, which starts no tag a docs page would drop with what follows", async t => {
  const served = await app()
  t.match(served.apiVersionDocuments().find(d => d.version === '3.0')?.document.info.description, 'Orders have a name (it was &lt;title> & such).\n\n**Breaking changes**')
  t.match(served.apiVersionDocuments().find(d => d.version === '2.0')?.document.info.description, 'Orders have a total, a `List<Line>` as `lines`.', 'in a code span, as written: markdown shows it as text')
  t.same((await served.inject('/openapi/changes.json')).json().at(-1).descriptions, ['Orders have a name (it was <title> & such).'], 'as data, as written')
})

t.test("registered under a plugin's prefix, the links of the page and the documents are under it too", async t => {
  const app = Fastify()
  await app.register(apiVersioning)
  await app.register(async api => {
    await api.register(apiVersioningOpenApi, { ui: true })
    api.get('/orders', { apiVersions: '1.0' }, async () => [])
  }, { prefix: '/api' })
  await app.ready()
  t.same((await app.inject('/api/openapi/swagger-config')).json().urls, [{ url: '/api/openapi/1.0.json', name: '1.0' }], "the picker's documents")
  t.equal((await app.inject('/api/docs/json')).headers.location, '/api/openapi/1.0.json')
  t.match((await app.inject('/api/docs/static/swagger-initializer.js')).body, '/api/openapi/swagger-config')
  t.match((await app.inject('/api/docs/static/theme/api-versioning-changelog.js')).body, '"/api/openapi/changelog"')
  t.same((await app.inject('/api/openapi/changelog')).body.match(/href="[^"]*"/g), ['href="/api/docs"', 'href="/api/openapi/1.0.json"'])
})

t.test('a version retired between two served ones by its enforced sunset: the pair that skips it says what it changed too, oldest first', async t => {
  const Item = Type.Object({ id: Type.Integer(), label: Type.String() })
  const wholeWords = versionChange({ description: 'Searches match whole words.' })
  const served = await buildDocs({
    now: () => Date.parse('2030-01-01'),
    policies: { '2.0': { sunset: { date: '2029-01-01', enforce: true } } },
    versionChanges: [
      { version: '3.0', changes: [versionChange({ description: 'Items can be searched by tag.' })] },
      { version: '2.0', changes: [wholeWords, versionChange({ description: "Items call their name 'label'.", fields: [{ schema: Item, field: 'label', renamedFrom: 'name' }] })] },
      { version: '1.0' }
    ]
  }, {}, app => {
    app.get('/items', { versionChanges: true, schema: { response: { 200: Type.Array(Item) } } }, async request => [{ id: 1, label: wholeWords.isAppliedTo(request) ? 'whole' : 'part' }])
  })
  t.same((await served.inject('/items?api-version=1.0')).json(), [{ id: 1, name: 'part' }], '1.0 is served as it was')
  const descriptions = ['Searches match whole words.', "Items call their name 'label'.", 'Items can be searched by tag.']
  t.same(served.apiVersionChanges().map(c => [c.from, c.to, c.descriptions]), [['1.0', '3.0', descriptions]])
  const [entry] = (await served.inject('/openapi/changelog.json')).json()
  t.same([entry.version, entry.since, entry.descriptions, entry.breaking], ['3.0', '1.0', descriptions, ['`GET /items`: response 200: property `[].label` renamed from `name`']])
  t.match((await served.inject('/openapi/changelog')).body, '<p>Searches match whole words.</p>\n<p>Items call their name &#39;label&#39;.</p>\n<p>Items can be searched by tag.</p>')
  t.match((await served.inject('/openapi/3.0.json')).json().info.description, "### Changes since 1.0\n\nSearches match whole words.\n\nItems call their name 'label'.\n\nItems can be searched by tag.")
})
