import t from 'tap'
import Fastify, { type FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { ApiVersion, versionChange } from '../../lib/index.js'
import { build } from './helpers.js'

const words = versionChange({ description: 'Searches match whole words.' })
const sorted = versionChange({ description: 'Results come newest first.' })
const Result = Type.Object({ words: Type.Boolean(), sorted: Type.Boolean() })
const applied = async (request: FastifyRequest) => ({ words: words.isAppliedTo(request), sorted: sorted.isAppliedTo(request) })

t.test('isAppliedTo: true from the change\'s version on, by the version that serves the request', async t => {
  const app = await build({
    problemDetails: true,
    versionChanges: [{ version: '2024-06-01', changes: [sorted] }, { version: '2.0', changes: [words] }, { version: '1.0' }]
  }, app => {
    app.get('/search', { versionChanges: true, schema: { response: { 200: Result } } }, applied)
    // Beside the list: an ordinary route of a version between two of it.
    app.get('/legacy', { apiVersions: ['1.5', '2.5'] }, applied)
  })
  const cases: Array<[string, { words: boolean, sorted: boolean }]> = [
    ['/search?api-version=1.0', { words: false, sorted: false }],
    ['/search?api-version=1', { words: false, sorted: false }],
    ['/search?api-version=2', { words: true, sorted: false }],
    ['/search?api-version=2024-06-01', { words: true, sorted: true }],
    ['/legacy?api-version=1.5', { words: false, sorted: false }],
    ['/legacy?api-version=2.5', { words: true, sorted: false }]
  ]
  for (const [url, expected] of cases) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 200, url)
    t.same(res.json(), expected, url)
  }
})

t.test('isAppliedTo: a request served as no version gets the newest behaviour, as the code is written for it', async t => {
  const app = await build({
    assumeDefaultVersionWhenUnspecified: true,
    versionChanges: [{ version: '3.0', changes: [sorted] }, { version: '2.0', changes: [words] }, { version: '1.0' }]
  }, app => {
    app.get('/search', { versionChanges: true }, applied)
    app.get('/ping', { apiVersionNeutral: true }, applied)
    app.get('/health', applied)
    app.get('/assigned', { versionChanges: true }, async request => {
      request.apiVersion = ApiVersion.parse('2.0')
      return { words: words.isAppliedTo(request) }
    })
  })
  t.same((await app.inject('/ping')).json(), { words: true, sorted: true }, 'a neutral route asked for no version')
  t.same((await app.inject('/ping?api-version=2.0')).json(), { words: true, sorted: false }, 'a neutral route asked for one')
  t.same((await app.inject('/health?api-version=1.0')).json(), { words: true, sorted: true }, 'an unversioned route')
  t.same((await app.inject('/search')).json(), { words: false, sorted: false }, 'the default assumed: a version served')
  t.same((await app.inject('/assigned?api-version=1.0')).json(), { words: true }, 'request.apiVersion as a hook or handler set it')
})

t.test('isAppliedTo: each app answers by its own list; a change it does not list is an error naming the change', async t => {
  const routes = (app: import('fastify').FastifyInstance): void => { app.get('/search', { apiVersions: ['1.0', '2.0', '3.0'] }, applied) }
  const early = await build({ versionChanges: [{ version: '2.0', changes: [words, sorted] }, { version: '1.0' }] }, routes)
  const late = await build({ versionChanges: [{ version: '3.0', changes: [words] }, { version: '2.0', changes: [sorted] }, { version: '1.0' }] }, routes)
  t.same((await early.inject('/search?api-version=2.0')).json(), { words: true, sorted: true }, 'the change is 2.0\'s in one app')
  t.same((await late.inject('/search?api-version=2.0')).json(), { words: false, sorted: true }, '3.0\'s in another')

  const unlisted = await build({ versionChanges: [{ version: '2.0', changes: [sorted] }, { version: '1.0' }] }, routes)
  const noList = await build({}, routes)
  const bare = Fastify()
  bare.get('/search', applied)
  for (const [app, message] of [
    [unlisted, /^fastify-api-versioning: change\.isAppliedTo\(request\): the change "Searches match whole words\." is in no version of the versionChanges option of this request's app, so it has no version to compare the request's with; list it there, under the version that made it$/],
    [noList, /the change "Searches match whole words\." is in no version of the versionChanges option of this request's app/],
    [bare, /^fastify-api-versioning: change\.isAppliedTo\(request\): the change "Searches match whole words\." is in no version of the versionChanges option of this request's app, where apiVersioning is not registered \(not in the scope of the request's route\); register it there with the change listed under the version that made it$/]
  ] as const) {
    // Fastify's default error handler: a 500 whose body carries the code and message.
    const res = await app.inject('/search?api-version=2.0')
    t.equal(res.statusCode, 500)
    t.match(res.json(), { code: 'FST_API_VERSIONING_CHANGE_NOT_LISTED', message }, String(message))
  }
})

t.test('isAppliedTo: the list of the plugin in the request\'s route\'s scope', async t => {
  const app = Fastify()
  await app.register(async api => {
    await api.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [words, sorted] }, { version: '1.0' }] })
    api.get('/search', { versionChanges: true }, applied)
  }, { prefix: '/api' })
  app.get('/search', applied)
  t.same((await app.inject('/api/search?api-version=2.0')).json(), { words: true, sorted: true }, 'in its scope')
  const outside = await app.inject('/search')
  t.same([outside.statusCode, outside.json().code], [500, 'FST_API_VERSIONING_CHANGE_NOT_LISTED'], 'beside it')
  t.match(outside.json().message, /where apiVersioning is not registered \(not in the scope of the request's route\)/)
})

t.test('isAppliedTo needs a request', async t => {
  for (const [given, shown] of [[undefined, 'undefined'], [null, 'null'], [{ apiVersion: null }, '[object Object]'], ['GET /search', 'GET /search']] as const) {
    t.throws(() => words.isAppliedTo(given as unknown as FastifyRequest), {
      code: 'FST_API_VERSIONING_CHANGE_NOT_LISTED',
      message: `fastify-api-versioning: change.isAppliedTo(request) needs the Fastify request of a handler or hook (got ${shown})`
    }, shown)
  }
})

t.test('a change of behaviour alone, listed in an app, leaves its routes as they are', async t => {
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [words] }, { version: '1.0' }] })
  app.post('/search', { versionChanges: true, schema: { body: Type.Object({ q: Type.String() }) } }, async request => ({ q: (request.body as { q: string }).q, words: words.isAppliedTo(request) }))
  for (const version of ['1.0', '2.0']) {
    const res = await app.inject({ method: 'POST', url: `/search?api-version=${version}`, payload: { q: 'x' } })
    t.same(res.json(), { q: 'x', words: version === '2.0' }, version)
  }
})
