import t from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import apiVersioning from '../../lib/index.js'
import apiVersioningOpenApi, { type ApiVersioningOpenApiUiOptions } from '../../lib/openapi/index.js'
import { allProblems, buildDocs, documentOf } from './openapi-helpers.js'

const ok = async () => 'ok'

t.test('ui: the docs page, its assets served locally, its picker fed by swagger-config', async t => {
  const calls: string[] = []
  const app = await buildDocs({ problemDetails: true }, {
    ui: { routePrefix: '/reference', uiConfig: { docExpansion: 'list' }, uiHooks: { onRequest: (request, _reply, done) => { calls.push(request.url); done() } } }
  }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'] }, ok)
  })
  const page = await app.inject('/reference/')
  t.equal(page.statusCode, 200)
  t.match(page.body, /<div id="swagger-ui">/)
  t.notMatch(page.body, /https?:\/\/(?!www\.w3\.org)/, 'no asset from elsewhere')
  const init = await app.inject('/reference/static/swagger-initializer.js')
  t.match(init.body, /"configUrl":"\/openapi\/swagger-config"/)
  t.match(init.body, /"docExpansion":"list"/, 'the app\'s uiConfig is kept')
  t.equal((await app.inject('/reference/static/swagger-ui-bundle.js')).statusCode, 200)
  const json = await app.inject('/reference/json')
  t.equal(json.statusCode, 302)
  t.equal(json.headers.location, '/openapi/2.0.json', 'its own json route points at the primary version')
  t.equal((await app.inject('/reference/yaml')).headers.location, '/openapi/2.0.yaml')
  t.ok(calls.includes('/reference/'), 'the app\'s uiHooks still run')
  t.equal((await app.inject('/reference/?api-version=garbage')).statusCode, 200, 'unversioned')
})

t.test('ui: true serves the page at /docs, beside the app\'s own @fastify/swagger and @fastify/swagger-ui', async t => {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'own', version: '1' } } })
  await app.register(swaggerUi, { routePrefix: '/own-docs' })
  await app.register(apiVersioning)
  await app.register(apiVersioningOpenApi, { ui: true })
  app.get('/a', { apiVersions: '1.0' }, ok)
  await app.ready()
  t.equal((await app.inject('/docs/')).statusCode, 200)
  t.equal((await app.inject('/own-docs/json')).json().info.title, 'own')
  t.same(Object.keys((await app.inject('/own-docs/json')).json().paths), ['/a'], 'the page routes are hidden from the app\'s own document')
})

t.test('ui: authorization is kept across versions, unless the app says otherwise', async t => {
  const initializer = async (ui: ApiVersioningOpenApiUiOptions) => {
    const app = await buildDocs({ problemDetails: true }, { ui }, app => { app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok) })
    return (await app.inject('/docs/static/swagger-initializer.js')).body
  }
  t.match(await initializer({}), /"persistAuthorization":true/)
  t.match(await initializer({ uiConfig: { persistAuthorization: false } }), /"persistAuthorization":false/)
})

t.test('the ProblemDetails schema has examples a reader would believe: a 400, a request path', async t => {
  for (const openapi of ['3.0.3', '3.1.0']) {
    const app = await buildDocs({ problemDetails: true }, { openapi: { openapi } }, app => { app.get('/a', { apiVersions: '1.0' }, ok) })
    const { properties } = documentOf(app, '1.0').components?.schemas?.ProblemDetails as { properties: Record<string, Record<string, unknown>> }
    const example = (name: string) => openapi === '3.0.3' ? properties[name].example : (properties[name].examples as unknown[])[0]
    t.equal(example('status'), 400, openapi)
    t.match(example('instance'), /^\/\w/)
    t.match(example('type'), /^https:\/\/.+#unsupported$/)
    t.equal(example('code'), 'UnsupportedApiVersion')
    t.same(await allProblems(app), [], 'examples as each OpenAPI version writes them')
  }
})
