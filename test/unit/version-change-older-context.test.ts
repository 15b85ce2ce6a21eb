import t from 'tap'
import { setFlagsFromString } from 'node:v8'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type VersionChangesEntry } from '../../lib/index.js'
import { olderContexts } from '../../lib/version-changes/older-context.js'
import { passesRequest } from '../../lib/version-changes/validation-step.js'

// On the route that serves every version of a versionChanges route, an older version's request whose schemas differ
// from the newest's is validated and converted before Fastify validates it: steps only its requests take, on a copy
// of the route's context (Fastify reads its hooks there at each step). The newest's requests pass none of them.

const Thing = Type.Object({ id: Type.Integer(), name: Type.String(), rush: Type.Optional(Type.Boolean({ default: false })) })
const renamed = versionChange({ description: "Things have a 'name' (it was 'title').", fields: [{ schema: Thing, field: 'name', renamedFrom: 'title' }] })
const VERSIONS: VersionChangesEntry[] = [{ version: '2.0', changes: [renamed] }, { version: '1.0' }]

// The names of the preValidation and preHandler hooks a request ran on, by version.
function stepsSeen (server: FastifyInstance, seen: Map<string, unknown>): void {
  server.addHook('onResponse', async request => {
    const key = Object.getOwnPropertySymbols(request).find(own => own.description === 'fastify.context') as symbol
    const context = (request as unknown as Record<symbol, Record<string, Array<{ name: string }> | null>>)[key]
    const names = (kind: string): string[] => (context[kind] ?? []).map(hook => hook.name.replace(/^bound /, ''))
    seen.set(`${request.method} ${(request.query as Record<string, string>)['api-version']}`, [names('preValidation'), names('preHandler')])
  })
}

const post = async (server: FastifyInstance, version: string, payload: object) =>
  await server.inject({ method: 'POST', url: `/things?api-version=${version}`, payload })

t.test('the newest version\'s requests pass no step of the older ones; an older one\'s run after the route\'s own, a later plugin\'s too', async t => {
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: VERSIONS })
  const seen = new Map<string, unknown>()
  stepsSeen(server, seen)
  const bodies: unknown[] = []
  // A plugin registered later adds its preValidation hook to every route.
  server.register(async scoped => {
    scoped.addHook('onRoute', route => { route.preValidation = [...[route.preValidation ?? []].flat(), async function later (request: FastifyRequest) { bodies.push(['later', { ...request.body as object }]) }] as never })
    scoped.post('/things', {
      versionChanges: true,
      schema: { body: Thing },
      preValidation: async function own (request) { bodies.push(['own', { ...request.body as object }]) }
    }, async request => request.body)
  })
  await server.ready()
  for (let i = 0; i < 2; i++) {
    t.same((await post(server, '1.0', { id: 1, title: 'a' })).json(), { id: 1, name: 'a', rush: false }, 'converted up, given the newest\'s default')
    t.same((await post(server, '2.0', { id: 2, name: 'b' })).json(), { id: 2, name: 'b', rush: false })
  }
  t.same(seen.get('POST 2.0'), [['own', 'later'], []], 'the newest: the route\'s own hooks only')
  // Its validation and conversion: the route's first validator's (see validation-step.ts), on a Fastify that gives it
  // the request; else its steps, last of them, right before Fastify's validation.
  t.same(seen.get('POST 1.0'), [passesRequest(server.version) ? ['own', 'later'] : ['own', 'later', 'apiVersionValidation'], []], 'an older one: after every hook')
  t.same(bodies.splice(0, 4), [['own', { id: 1, title: 'a' }], ['later', { id: 1, title: 'a' }], ['own', { id: 2, name: 'b' }], ['later', { id: 2, name: 'b' }]], 'each hook sees the body as the client sent it')
  const invalid = await post(server, '1.0', { id: 1, name: 'a' })
  t.same([invalid.statusCode, invalid.json().message], [400, "body must have required property 'title'"], 'validated by its own schema')
})

t.test('where the route attaches validation errors: an older request\'s handler gets its own version\'s error', async t => {
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: VERSIONS })
  const seen = new Map<string, unknown>()
  stepsSeen(server, seen)
  server.post('/things', { versionChanges: true, attachValidation: true, schema: { body: Thing } }, async request => request.validationError?.message ?? request.body)
  await server.ready()
  t.equal((await post(server, '1.0', { id: 1 })).body, "body must have required property 'title'")
  t.same((await post(server, '1.0', { id: 1, title: 'a' })).json(), { id: 1, name: 'a', rush: false })
  t.equal((await post(server, '2.0', { id: 1 })).body, "body must have required property 'name'")
  t.same(seen.get('POST 1.0'), [['apiVersionValidation'], ['apiVersionValidated']])
  t.same(seen.get('POST 2.0'), [[], []])
})

t.test('a GET route and its HEAD route: each context has its own copy', async t => {
  const Query = Type.Object({ limit: Type.Optional(Type.Integer()) })
  const change = versionChange({ description: "'limit' (it was 'max').", fields: [{ schema: Query, field: 'limit', renamedFrom: 'max' }] })
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  const queries: unknown[] = []
  server.get('/things', { versionChanges: true, schema: { querystring: Query } }, async request => { queries.push(request.query); return 'ok' })
  await server.ready()
  for (const method of ['GET', 'HEAD', 'GET', 'HEAD'] as const) {
    t.equal((await server.inject({ method, url: '/things?api-version=1.0&max=2' })).statusCode, 200, method)
    t.same(queries.pop(), { 'api-version': '1.0', limit: 2 }, `${method}: converted`)
  }
  t.equal((await server.inject({ method: 'HEAD', url: '/things?api-version=1.0&max=x' })).statusCode, 400)
})

// V8's own answer, through its natives syntax (allowed from here on, for functions compiled after this line).
setFlagsFromString('--allow-natives-syntax')
// eslint-disable-next-line no-new-func
const sameKind = new Function('a', 'b', 'return %HaveSameMap(a, b) && %HasFastProperties(a)') as (a: object, b: object) => boolean

// A service of VERSIONS, and the context each request ended on, by path and version (`/a 1.0`).
async function contextsSeen (): Promise<{ server: FastifyInstance, contexts: Map<string, object> }> {
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: VERSIONS })
  const contexts = new Map<string, object>()
  server.addHook('onResponse', async request => {
    const key = Object.getOwnPropertySymbols(request).find(own => own.description === 'fastify.context') as symbol
    contexts.set(`${request.url.split('?')[0]} ${(request.query as Record<string, string>)['api-version']}`, (request as unknown as Record<symbol, object>)[key])
  })
  return { server, contexts }
}

t.test('copies of the contexts of different routes are objects of one kind for V8, as the contexts are', async t => {
  const { server, contexts } = await contextsSeen()
  // A response sent as text, converted by an older request's first onSend step: the copy's, which it ends on.
  for (const url of ['/a', '/b']) server.post(url, { versionChanges: true, schema: { body: Thing, response: { 200: Thing } } }, async (request, reply) => await reply.type('application/json').send(JSON.stringify(request.body)))
  await server.ready()
  for (const url of ['/a', '/b']) {
    for (const version of ['1.0', '2.0']) t.equal((await server.inject({ method: 'POST', url: `${url}?api-version=${version}`, payload: { id: 1, [version === '1.0' ? 'title' : 'name']: 'x' } })).statusCode, 200)
  }
  const [a, b, olderA, olderB] = ['/a 2.0', '/b 2.0', '/a 1.0', '/b 1.0'].map(key => contexts.get(key) as object)
  t.ok(sameKind(a, b), 'the routes\' own contexts')
  t.not(olderA, a, 'an older request runs on a copy')
  // Else Fastify's reads of a context's properties, on every request of every route, see a kind a route.
  t.ok(sameKind(olderA, olderB), 'the copies of two routes\' contexts')
})

t.test('an older request whose response the plugin converted from an object goes back to the route\'s own context for onSend: no step of its own there', async t => {
  const { server, contexts } = await contextsSeen()
  server.get('/object', { versionChanges: true, schema: { response: { 200: Thing } } }, async () => ({ id: 1, name: 'x' }))
  server.get('/text', { versionChanges: true, schema: { response: { 200: Thing } } }, async (request, reply) => await reply.type('application/json').send('{"id":1,"name":"x"}'))
  await server.ready()
  for (const url of ['/object', '/text']) {
    for (const version of ['1.0', '2.0']) t.match((await server.inject(`${url}?api-version=${version}`)).json(), { id: 1, [version === '1.0' ? 'title' : 'name']: 'x' })
  }
  t.equal(contexts.get('/object 1.0'), contexts.get('/object 2.0'), 'converted from an object: the route\'s own context')
  t.not(contexts.get('/text 1.0'), contexts.get('/text 2.0'), 'a text: the copy, whose first onSend step converted it')
})

t.test('olderContexts: a request Fastify keeps no route context on is answered with an error, never served unconverted', async t => {
  const enter = olderContexts({ preValidation: null, preHandler: null, onSend: null })
  t.match(enter({ server: {} } as unknown as FastifyRequest), { statusCode: 500, code: 'FST_API_VERSIONING_CONVERSION_FAILED', message: /Fastify keeps no route context on this request/ })
})
