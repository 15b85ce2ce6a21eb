import t from 'tap'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import apiVersioning from '../../lib/index.js'
import apiVersioningOpenApi, { type ApiVersioningOpenApiOptions } from '../../lib/openapi/index.js'
import { buildDocs } from './openapi-helpers.js'

const ok = async () => 'ok'
const PASS = { authorization: 'Bearer docs' }

// A guard as apps write them: a 401 without credentials, either hook style.
async function guard (request: FastifyRequest, reply: FastifyReply) {
  if (request.headers.authorization !== PASS.authorization) return reply.code(401).send({ message: 'credentials needed' })
}
function callbackGuard (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  if (request.headers.authorization !== PASS.authorization) {
    reply.code(401).send({ message: 'credentials needed' })
    return
  }
  done()
}

const DOCUMENTS = ['/openapi/1.0.json', '/openapi/1.0.yaml', '/openapi/swagger-config', '/openapi/changes.json', '/openapi/changelog', '/openapi/changelog.json', '/openapi/9.0.json']
const PAGE = ['/docs/', '/docs/json', '/docs/yaml', '/docs/static/swagger-initializer.js', '/docs/static/theme/api-versioning-changelog.js']

async function docs (openapi: ApiVersioningOpenApiOptions) {
  return buildDocs({ problemDetails: true }, openapi, app => { app.get('/orders', { apiVersions: '1.0' }, ok) })
}

t.test('the page\'s uiHooks guard every route that serves a document or its configuration, before any redirect', async t => {
  for (const uiHooks of [{ onRequest: guard }, { preHandler: callbackGuard }, { onRequest: [callbackGuard], preHandler: [guard] }]) {
    const app = await docs({ ui: { uiHooks } })
    const label = Object.keys(uiHooks).join(' and ')
    for (const url of [...PAGE, ...DOCUMENTS]) {
      const refused = await app.inject(url)
      t.equal(refused.statusCode, 401, `${url} without credentials, guarded in ${label}`)
      t.equal(refused.headers.location, undefined)
    }
    t.equal((await app.inject({ url: '/docs/json', headers: PASS })).headers.location, '/openapi/1.0.json', 'with credentials, the redirect')
    t.equal((await app.inject({ url: '/docs/yaml', headers: PASS })).statusCode, 302)
    t.equal((await app.inject({ url: '/openapi/1.0.json', headers: PASS })).statusCode, 200)
    t.equal((await app.inject({ url: '/openapi/swagger-config', headers: PASS })).statusCode, 200)
    t.equal((await app.inject({ url: '/openapi/changes.json', headers: PASS })).statusCode, 200)
    t.equal((await app.inject({ method: 'HEAD', url: '/openapi/changes.json' })).statusCode, 401, 'HEAD too')
    t.equal((await app.inject({ url: '/openapi/9.0.json', headers: PASS })).statusCode, 404)
    t.equal((await app.inject({ url: '/docs/', headers: PASS })).statusCode, 200)
  }
})

t.test('the hooks option guards the document routes without a page, and the page with one', async t => {
  const bare = await docs({ hooks: { onRequest: [guard] } })
  for (const url of DOCUMENTS) t.equal((await bare.inject(url)).statusCode, 401, url)
  t.equal((await bare.inject({ url: '/openapi/1.0.yaml', headers: PASS })).statusCode, 200)
  t.equal((await bare.inject({ url: '/openapi/changes.json', headers: PASS })).statusCode, 200)
  t.equal((await bare.inject({ method: 'HEAD', url: '/openapi/changes.json' })).statusCode, 401, 'HEAD too')
  t.equal((await bare.inject('/orders?api-version=1.0')).statusCode, 200, 'the API itself is not guarded')

  const page = await docs({ hooks: { preHandler: guard }, ui: true })
  for (const url of [...PAGE, ...DOCUMENTS]) t.equal((await page.inject(url)).statusCode, 401, url)
  t.equal((await page.inject({ url: '/docs/json', headers: PASS })).headers.location, '/openapi/1.0.json')
  t.equal((await page.inject({ url: '/openapi/swagger-config', headers: PASS })).statusCode, 200)
})

t.test('hooks and ui.uiHooks are checked at start-up, naming the option', async t => {
  const cases: Array<[unknown, RegExp]> = [
    [{ hooks: 'guard' }, /hooks must be an object with onRequest and\/or preHandler hooks \(got "guard"\)/],
    [{ hooks: { onSend: guard } }, /hooks\.onSend is not a hook this plugin runs: give onRequest or preHandler/],
    [{ hooks: { onRequest: 'guard' } }, /hooks\.onRequest must be a function or an array of functions \(got "guard"\)/],
    [{ hooks: { preHandler: [guard, null] } }, /hooks\.preHandler must be a function or an array of functions \(got an array with null\)/],
    [{ hooks: { onRequest: [] } }, /hooks\.onRequest must be a function or an array of functions \(got an empty array\)/],
    [{ hooks: { preHandler: { handler: guard } } }, /hooks\.preHandler must be a function or an array of functions \(got an object\)/],
    [{ ui: { uiHooks: { onRequest: 7 } } }, /ui\.uiHooks\.onRequest must be a function or an array of functions \(got 7\)/],
    [{ ui: { uiHooks: [] } }, /ui\.uiHooks must be an object with onRequest and\/or preHandler hooks/],
    [{ hooks: { onRequest: guard }, ui: { uiHooks: { onRequest: guard } } }, /hooks and ui\.uiHooks both guard the documents and the page: give one of them \(hooks\)/]
  ]
  for (const [options, message] of cases) {
    const app = Fastify()
    await app.register(apiVersioning)
    await t.rejects(async () => { await app.register(apiVersioningOpenApi, options as ApiVersioningOpenApiOptions) }, message, JSON.stringify(options))
  }
})
