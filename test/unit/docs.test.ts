import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import Fastify from 'fastify'
import cors from '@fastify/cors'
import { Type } from '@sinclair/typebox'
import apiVersioning, { ApiVersion, versionChange } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'

// What the README and the guides state as fact, checked against what the code does.
const root = resolve(import.meta.dirname, '..', '..')
const read = (path: string): string => readFileSync(resolve(root, path), 'utf8')
const readme = read('README.md')
const versions = read('docs/versions.md')

t.test('the CORS snippet exposes every header the plugin sends, policies included', async t => {
  const snippet = /With @fastify\/cors[\s\S]*?```js\n([\s\S]*?)```/.exec(versions)?.[1]
  t.ok(snippet, 'the guide has the snippet')
  const app = Fastify()
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor
  await new AsyncFunction('app', 'cors', snippet?.replace(/^import .*$/gm, ''))(app, cors)
  await app.register(apiVersioning, {
    problemDetails: true,
    reportApiVersions: true,
    policies: { '1.0': { deprecation: { date: '2026-01-01', link: 'https://example.com/d' }, sunset: { date: '2030-01-01', link: 'https://example.com/s' } } }
  })
  app.get('/orders', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, async () => [])
  const response = await app.inject({ url: '/orders?api-version=1.0', headers: { origin: 'https://app.example.com' } })
  // What a script can read without exposing it: the CORS-safelisted response headers, and CORS's own.
  const safelisted = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma', 'date', 'connection', 'keep-alive', 'vary'])
  const sent = Object.keys(response.headers).filter(name => !safelisted.has(name) && !name.startsWith('access-control-'))
  t.same(sent.sort(), ['api-deprecated-versions', 'api-supported-versions', 'deprecation', 'link', 'sunset'])
  const exposed = String(response.headers['access-control-expose-headers']).split(/\s*,\s*/).map(name => name.toLowerCase())
  for (const name of sent) t.ok(exposed.includes(name), `${name} is exposed`)
  const preflight = await app.inject({ method: 'OPTIONS', url: '/orders', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'api-version' } })
  t.match(preflight.headers['access-control-allow-headers'], /api-version/)
})

t.test('the version grammar states the number limit the parser keeps', async t => {
  const section = versions.slice(versions.indexOf('## Version grammar'), versions.indexOf('## Ambiguity rules'))
  const stated = /Numbers are ASCII digits from 0 to ([\d,]+)/.exec(section)?.[1]
  t.ok(stated, 'the guide states the limit')
  const limit = Number(stated?.replaceAll(',', ''))
  t.equal(ApiVersion.tryParse(`${limit}.${limit}`)?.major, limit)
  t.equal(ApiVersion.tryParse(`1.${limit}`)?.minor, limit)
  t.equal(ApiVersion.tryParse(String(limit + 1)), null)
  t.equal(ApiVersion.tryParse(`1.${limit + 1}`), null)
})

t.test('the README is read in five minutes, and links every guide', async t => {
  t.ok(Buffer.byteLength(readme) < 20_000, `${Buffer.byteLength(readme)} bytes`)
  const guides = readdirSync(resolve(root, 'docs')).filter(name => name.endsWith('.md'))
  t.ok(guides.length >= 9)
  for (const guide of guides.map(name => `docs/${name}`)) t.match(readme, `](${guide})`, guide)
  // The benchmarks' page is the repository's (the package ships what a user reads or runs).
  t.match(readme, '](https://github.com/fastify-api-versioning/fastify-api-versioning/blob/main/benchmarks/README.md)')
  // Every relative link of the README and the guides leads to a file of the repository.
  for (const [page, text] of [['README.md', readme], ...guides.map(name => [`docs/${name}`, read(`docs/${name}`)])]) {
    for (const [, target] of text.matchAll(/\]\(((?!https?:|#)[^)#\s]+)/g)) {
      t.ok(readdirSync(resolve(root, page, '..', target, '..')).includes(target.split('/').at(-1) as string), `${page} -> ${target}`)
    }
  }
})

t.test('the README\'s OpenAPI section: a snippet that serves the documents and page, the rules, the guide', async t => {
  const start = readme.indexOf('\n## OpenAPI')
  t.ok(start > 0, 'the README has the section')
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1))
  const snippet = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
  t.match(snippet, "from 'fastify-api-versioning/openapi'", 'it says what to import')
  // The snippet as it runs, its imports given.
  const app = Fastify()
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor
  await new AsyncFunction('app', 'apiVersioning', 'apiVersioningOpenApi', snippet.replace(/^import .*$/gm, ''))(app, apiVersioning, apiVersioningOpenApi)
  app.get('/orders', { apiVersions: '1.0' }, async () => [])
  await app.ready()
  t.same(Object.keys((await app.inject('/openapi/1.0.json')).json().paths), ['/orders'])
  t.equal((await app.inject('/docs/')).statusCode, 200, 'the page')
  // A sentence for each rule, and the guide for the rest.
  for (const rule of ['**Order.**', '**Protection.**', '**400 bodies.**', '**Media types.**', '**Lifecycle.**', '**Changes.**']) t.match(section, rule, rule)
  for (const word of ['ui.uiHooks', '`hooks`', 'application/problem+json', 'application/json', '406', '415', 'at the root', 'apiVersionChanges()', '/openapi/changes.json', '](docs/openapi.md)']) t.match(section, word, word)
  t.equal((await app.inject('/openapi/changes.json')).statusCode, 200, 'the changes, where the README says')
})

t.test('the version changes guide\'s isAppliedTo example answers each version as it says', async t => {
  const guide = read('docs/version-changes.md')
  const section = guide.slice(guide.indexOf('## A change of behaviour: `isAppliedTo`'), guide.indexOf('## TypeScript'))
  const snippet = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
  t.match(snippet, 'wholeWords.isAppliedTo(request)', 'the guide has the example')
  const app = Fastify()
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor
  await new AsyncFunction('app', 'apiVersioning', 'versionChange', 'Type', snippet.replace(/^import .*$/gm, ''))(app, apiVersioning, versionChange, Type)
  // What the guide says each version gets, after the example.
  const [, older, newer, body] = /A (\S+) client gets all three products, a (\S+) client `([^`]+)`/.exec(section) ?? []
  t.same((await app.inject(`/products?q=apple&api-version=${older}`)).json(), ['red apple', 'pineapple', 'apple pie'], older)
  t.equal((await app.inject(`/products?q=apple&api-version=${newer}`)).body, body, newer)
})
