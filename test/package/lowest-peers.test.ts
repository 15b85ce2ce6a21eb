import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LOWEST_PEERS } from '../../lib/openapi/peers.js'
import { FASTIFY_RANGE } from '../../lib/fastify-range.js'
import { appWithPackage, root } from './packed.js'

// The lowest versions the package claims (package.json's peer ranges start at them) are devDependency aliases
// (fastify-lowest, @fastify/swagger-lowest, ...), installed with the rest: an app gets them under their real
// names, and uses the packed package through both entries. The versions before them fail start-up saying so.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const alias = (name: string): string => (manifest.devDependencies[name] as string).replace(/^npm:(@?[^@]+)@/, '')
const installed = (name: string): string => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version

t.test('the lowest versions are one list: the aliases, the peer ranges, the start-up checks', async t => {
  t.equal(alias('fastify-lowest'), '5.8.1')
  t.equal(FASTIFY_RANGE, '^5.8.1')
  t.equal(alias('@fastify/swagger-lowest'), LOWEST_PEERS['@fastify/swagger'])
  t.equal(alias('@fastify/swagger-ui-lowest'), LOWEST_PEERS['@fastify/swagger-ui'])
  t.same(manifest.peerDependencies, {
    '@fastify/swagger': `^${LOWEST_PEERS['@fastify/swagger']}`,
    '@fastify/swagger-ui': `^${LOWEST_PEERS['@fastify/swagger-ui']} || ^6.0.0`,
    '@opentelemetry/api': `^${alias('@opentelemetry/api-lowest')}`,
    '@sinclair/typebox': `^${alias('@sinclair/typebox-0.33')} || ^0.34.0`,
    fastify: FASTIFY_RANGE
  })
  t.same(manifest.peerDependenciesMeta, { '@fastify/swagger': { optional: true }, '@fastify/swagger-ui': { optional: true }, '@opentelemetry/api': { optional: true }, '@sinclair/typebox': { optional: true } })
  t.notOk('@sinclair/typebox' in (manifest.dependencies ?? {}), 'TypeBox is no dependency: only types use it')
  for (const name of ['fastify-lowest', '@fastify/swagger-lowest', '@fastify/swagger-ui-lowest', '@opentelemetry/api-lowest', 'fastify-too-old', '@fastify/swagger-too-old', '@sinclair/typebox-0.33']) {
    t.equal(installed(name), alias(name), `${name} is installed at ${alias(name)}`)
  }
})

const script = `
import Fastify from 'fastify'
import { createRequire } from 'node:module'
import apiVersioning, { ProblemDetailsSchema } from 'fastify-api-versioning'
import apiVersioningOpenApi from 'fastify-api-versioning/openapi'
const require = createRequire(import.meta.url)
const versions = ['fastify', '@fastify/swagger', '@fastify/swagger-ui'].map(name => require(name + '/package.json').version)
const app = Fastify()
try {
  await app.register(apiVersioning, { problemDetails: true, reportApiVersions: true, policies: { '1.0': { deprecation: { date: '2025-01-01' } } } })
  await app.register(apiVersioningOpenApi, {
    openapi: { info: { title: 'Orders', version: '1' } },
    ui: { routePrefix: '/docs' },
    hooks: { onRequest: async (request, reply) => { if (request.headers.authorization !== 'yes') reply.code(401).send() } }
  })
} catch (error) {
  console.log(JSON.stringify({ versions, error: error.message, code: error.code }))
  process.exit(0)
}
app.addSchema({ $id: 'Order', type: 'object', properties: { id: { type: 'integer' } } })
app.get('/orders/:id', { apiVersions: ['1.0', '2.0'], schema: { response: { 200: { $ref: 'Order#' }, 404: ProblemDetailsSchema } } }, async (request, reply) =>
  request.params.id === '0' ? reply.code(404).send({ status: 404, title: 'No order' }) : { id: Number(request.params.id) })
app.get('/orders', { apiVersions: '2.0', config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, summary: 'own' }, url }) } }, async () => [])
await app.ready()
const auth = { authorization: 'yes' }
const get = url => app.inject({ url, headers: auth })
const json = (await get('/openapi/2.0.json')).json()
const yaml = await get('/openapi/1.0.yaml')
const page = await get('/docs/')
const css = await app.inject('/docs/static/swagger-ui.css')
console.log(JSON.stringify({
  versions,
  documents: app.apiVersionDocuments().map(d => [d.version, d.deprecated]),
  paths: Object.keys(json.paths),
  summary: json.paths['/orders'].get.summary,
  component: Object.keys(json.components.schemas).sort(),
  parameter: json.paths['/orders/{id}'].get.parameters.find(p => p.name === 'api-version').schema.enum,
  yaml: [yaml.statusCode, yaml.headers['content-type'], yaml.body.startsWith('openapi: ')],
  config: (await get('/openapi/swagger-config')).json(),
  page: [page.statusCode, page.headers['content-type']],
  css: [css.statusCode, css.headers['content-type']],
  redirect: (await get('/docs/json')).headers.location,
  guarded: [(await app.inject('/openapi/1.0.json')).statusCode, (await app.inject('/docs/')).statusCode],
  served: [(await app.inject('/orders/7?api-version=1.0')).json(), (await app.inject('/orders/0?api-version=2.0')).json(), (await app.inject('/orders/7?api-version=3.0')).json().code]
}))
`

t.test('fastify, @fastify/swagger and @fastify/swagger-ui at their lowest versions: documents, the docs page, problems', async t => {
  const app = appWithPackage(t.teardown)
  app.link('fast-json-stringify')
  app.link('fastify', 'fastify-lowest')
  app.link('@fastify/swagger', '@fastify/swagger-lowest')
  app.link('@fastify/swagger-ui', '@fastify/swagger-ui-lowest')
  app.write('lowest.mjs', script)
  t.same(JSON.parse(app.node('lowest.mjs')), {
    versions: ['5.8.1', LOWEST_PEERS['@fastify/swagger'], LOWEST_PEERS['@fastify/swagger-ui']],
    documents: [['1.0', true], ['2.0', false]],
    paths: ['/orders/{id}', '/orders'],
    summary: 'own',
    component: ['Order', 'ProblemDetails'],
    parameter: ['2.0'],
    yaml: [200, 'application/yaml; charset=utf-8', true],
    config: { urls: [{ url: '/openapi/2.0.json', name: '2.0' }, { url: '/openapi/1.0.json', name: '1.0 (deprecated)' }], 'urls.primaryName': '2.0' },
    page: [200, 'text/html; charset=utf-8'],
    css: [200, 'text/css; charset=utf-8'],
    redirect: '/openapi/2.0.json',
    guarded: [401, 401],
    served: [{ id: 7 }, { type: 'about:blank', title: 'No order', status: 404 }, 'UnsupportedApiVersion']
  })
})

t.test('older versions fail start-up, saying what was found and what is needed', async t => {
  const app = appWithPackage(t.teardown)
  app.link('fast-json-stringify')
  app.link('fastify', 'fastify-lowest')
  app.link('@fastify/swagger', '@fastify/swagger-too-old')
  app.link('@fastify/swagger-ui', '@fastify/swagger-ui-lowest')
  app.write('lowest.mjs', script)
  t.same(JSON.parse(app.node('lowest.mjs')), {
    versions: ['5.8.1', '9.3.0', LOWEST_PEERS['@fastify/swagger-ui']],
    error: 'fastify-api-versioning/openapi needs @fastify/swagger ^9.4.0 (9.4.0 or newer), but found @fastify/swagger 9.3.0; upgrade it: npm install @fastify/swagger@^9.4.0',
    code: 'FST_API_VERSIONING_MISSING_PEER'
  }, '@fastify/swagger 9.3.0, which has no decorator option')

  const old = appWithPackage(t.teardown)
  old.link('fast-json-stringify')
  old.link('fastify', 'fastify-too-old')
  old.link('@fastify/swagger', '@fastify/swagger-lowest')
  old.link('@fastify/swagger-ui', '@fastify/swagger-ui-lowest')
  old.write('lowest.mjs', script)
  t.same(JSON.parse(old.node('lowest.mjs')), {
    versions: ['5.7.4', LOWEST_PEERS['@fastify/swagger'], LOWEST_PEERS['@fastify/swagger-ui']],
    error: "fastify-plugin: fastify-api-versioning - expected '^5.8.1' fastify version, '5.7.4' is installed",
    code: 'FST_ERR_PLUGIN_VERSION_MISMATCH'
  }, 'Fastify 5.7.4: fastify-plugin\'s check, with the range')
})
