import t from 'tap'
import { existsSync } from 'node:fs'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import ownFastify from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type VersionChangesEntry } from '../../lib/index.js'
import { passesRequest, validationStep } from '../../lib/version-changes/validation-step.js'

// On the route that serves every version of a versionChanges route, an older version's request whose conversion only
// renames and drops fields is validated by its own schemas and converted inside Fastify's validation of the route,
// by the route's first validator: no step of its own, no copy of the route's context (see validation-step.ts).

const Thing = Type.Object({ id: Type.Integer(), name: Type.String(), rush: Type.Optional(Type.Boolean({ default: false })) })
const renamed = versionChange({ description: "Things have a 'name' (it was 'title').", fields: [{ schema: Thing, field: 'name', renamedFrom: 'title' }] })
const VERSIONS: VersionChangesEntry[] = [{ version: '2.0', changes: [renamed] }, { version: '1.0' }]

// On a Fastify that gives a validator the request it validates (from 5.12.1 on): the tests' own, or under the lowest
// tested peers (scripts/lowest-peers.mjs, whose Fastify does not), the latest, kept beside it. On a Fastify before
// it, an older request takes the steps of a copy, as every request did before (version-change-older-context.test.ts
// runs with the lowest too).
const latest = new URL('../../node_modules/fastify-latest/fastify.js', import.meta.url)
const Fastify = existsSync(latest) ? (await import(latest.href) as { default: typeof ownFastify }).default : ownFastify
const inValidation = passesRequest(Fastify().version)

const contextOf = (request: FastifyRequest): object => {
  const key = Object.getOwnPropertySymbols(request).find(own => own.description === 'fastify.context') as symbol
  return (request as unknown as Record<symbol, object>)[key]
}

// A service whose requests' route contexts are kept, by version (the last request's).
async function service (versions = VERSIONS): Promise<{ server: FastifyInstance, contexts: Map<string, object> }> {
  const server = Fastify()
  await server.register(apiVersioning, { versionChanges: versions })
  const contexts = new Map<string, object>()
  server.addHook('onResponse', async request => { contexts.set((request.query as Record<string, string>)['api-version'], contextOf(request)) })
  return { server, contexts }
}

const post = async (server: FastifyInstance, version: string, payload: object, url = '/things') =>
  await server.inject({ method: 'POST', url: `${url}?api-version=${version}`, payload })

t.test('an older request that renames only: validated by its own schema and converted in Fastify\'s validation, on the route\'s own context', async t => {
  const { server, contexts } = await service()
  const checked: unknown[] = []
  const schemas: unknown[] = []
  server.post('/things', { versionChanges: true, schema: { body: Thing } }, async request => {
    // The app's own use of the route's validator: the newest's.
    checked.push(request.validateInput({ id: 1, name: 'x' }, 'body'), request.validateInput({ id: 1, title: 'x' }, 'body'))
    schemas.push((request.getValidationFunction('body') as unknown as { schema: unknown }).schema)
    return request.body
  })
  await server.ready()
  for (let i = 0; i < 2; i++) {
    t.same((await post(server, '1.0', { id: 1, title: 'a' })).json(), { id: 1, name: 'a', rush: false }, 'converted up, given its default')
    t.same((await post(server, '2.0', { id: 2, name: 'b' })).json(), { id: 2, name: 'b', rush: false })
  }
  t.equal(contexts.get('1.0') === contexts.get('2.0'), inValidation, 'no copy of the context')
  t.same(checked.slice(0, 2), [true, false])
  t.ok(schemas.every(schema => schema === schemas[1] && schema !== undefined), 'its schema, as the app reads it, the route\'s')
  const invalid = await post(server, '1.0', { id: 1, name: 'a' })
  t.same([invalid.statusCode, invalid.json().message], [400, "body must have required property 'title'"], 'validated by its own schema')
  const newest = await post(server, '2.0', { id: 1, title: 'a' })
  t.same([newest.statusCode, newest.json().message], [400, "body must have required property 'name'"], 'the newest by the route\'s')
})

t.test('path parameters validated first: the body after them, converted, passes as it is', async t => {
  const { server, contexts } = await service()
  const runs: string[] = []
  server.post('/things/:id', {
    versionChanges: true,
    schema: { params: Type.Object({ id: Type.Integer() }), body: Thing },
    // Fastify's own validation, counted: which schema validated what.
    validatorCompiler: ({ schema, httpPart }) => {
      const own = schema as unknown as { properties: Record<string, unknown> }
      const label = `${String(httpPart)}${'title' in own.properties ? ' (1.0)' : ''}`
      return data => { runs.push(label); return typeof data === 'object' }
    }
  }, async request => [request.params, request.body])
  await server.ready()
  t.same((await post(server, '1.0', { id: 1, title: 'a' }, '/things/7')).json(), [{ id: '7' }, { id: 1, name: 'a' }])
  t.same(runs.splice(0), ['params', 'body (1.0)', 'params'], 'the older request: its own, then the route\'s path parameters; its body once')
  t.same((await post(server, '2.0', { id: 1, name: 'a' }, '/things/7')).json(), [{ id: '7' }, { id: 1, name: 'a' }])
  t.same(runs.splice(0), ['params', 'body'])
  t.equal(contexts.get('1.0') === contexts.get('2.0'), inValidation)
})

t.test('an older version whose conversion runs a migration takes the steps of a copy of the context; one that renames only, on the same route, does not', async t => {
  const migrated = versionChange({
    description: 'Titles were written in capitals.',
    requests: [{ schema: Thing, migrate: request => { const body = request.body as { title: string }; body.title = body.title.toUpperCase() } }]
  })
  for (const order of [['2.0', '1.0'], ['1.0', '2.0']]) {
    const { server, contexts } = await service([{ version: '3.0', changes: [renamed] }, { version: '2.0', changes: [migrated] }, { version: '1.0' }])
    // Path parameters first: on the copy, the route's first validator is met again, as the newest's.
    server.post('/things/:n', { versionChanges: true, schema: { params: Type.Object({ n: Type.Integer() }), body: Thing } }, async request => request.body)
    await server.ready()
    const sent: Record<string, object> = { '1.0': { id: 1, title: 'a' }, '2.0': { id: 2, title: 'b', rush: true }, '3.0': { id: 3, name: 'c' } }
    const answers: Record<string, object> = { '1.0': { id: 1, name: 'A', rush: false }, '2.0': { id: 2, name: 'b', rush: true }, '3.0': { id: 3, name: 'c', rush: false } }
    for (const version of [...order, '3.0', ...order]) t.same((await post(server, version, sent[version], '/things/1')).json(), answers[version], `${version}, after ${order[0]}`)
    t.equal(contexts.get('2.0') === contexts.get('3.0'), inValidation, 'renames only: the route\'s context')
    t.not(contexts.get('1.0'), contexts.get('3.0'), 'a migration: a copy')
  }
})

t.test('a first validator by media type, or none the route\'s compiler gave: the steps of a copy of the context', async t => {
  const byType = await service()
  byType.server.post('/things', { versionChanges: true, schema: { body: { content: { 'application/json': { schema: Thing } } } } }, async request => request.body)
  await byType.server.ready()
  t.same((await post(byType.server, '1.0', { id: 1, title: 'a' })).json(), { id: 1, name: 'a', rush: false })
  t.same((await post(byType.server, '2.0', { id: 1, name: 'a' })).json(), { id: 1, name: 'a', rush: false })
  t.not(byType.contexts.get('1.0'), byType.contexts.get('2.0'))

  const none = await service()
  none.server.post('/things', {
    versionChanges: true,
    schema: { body: Thing },
    // The newest's body goes unvalidated; an older one's must have its title.
    validatorCompiler: (({ schema }: { schema: unknown }) => 'title' in (schema as { properties: object }).properties
      ? Object.assign((data: unknown) => typeof (data as { title?: unknown }).title === 'string', { errors: [{ instancePath: '/title', message: 'is missing' }] })
      : undefined) as never
  }, async request => request.body)
  await none.server.ready()
  t.same((await post(none.server, '1.0', { id: 1, title: 'a' })).json(), { id: 1, name: 'a' })
  t.equal((await post(none.server, '1.0', { id: 1 })).statusCode, 400)
  t.not(none.contexts.get('1.0'), undefined)
})

t.test('an async validation of the older request, then each kind of answer of the route\'s own validator, as Fastify takes them', async t => {
  const { server } = await service()
  // By the path parameter: what the route's validator of path parameters answers the second time it sees them (the
  // first is the older version's own validation).
  const answers: Record<string, (data: object) => unknown> = {
    value: () => ({ value: { id: 'replaced' } }),
    error: () => ({ error: new Error('its own error') }),
    false: () => false,
    async: async () => true,
    true: () => true,
    throw: () => { throw new Error('broken') }
  }
  const seen = new WeakMap<object, number>()
  server.post('/things/:id', {
    versionChanges: true,
    schema: { params: Type.Object({ id: Type.String() }), body: Thing },
    validatorCompiler: (({ schema, httpPart }: { schema: unknown, httpPart?: string }) => {
      if (httpPart === 'params') {
        return Object.assign((data: { id: string }) => {
          const times = (seen.get(data) ?? 0) + 1
          seen.set(data, times)
          return times === 1 ? true : answers[data.id](data)
        }, { errors: [{ instancePath: '', message: 'is not right' }] })
      }
      const older = 'title' in (schema as { properties: object }).properties
      return Object.assign(older ? async (data: { title?: unknown }) => typeof data.title === 'string' : () => true, { errors: [{ instancePath: '/title', message: 'is missing' }] })
    }) as never
  }, async request => request.params)
  await server.ready()
  const answer = async (id: string, payload: object = { id: 1, title: 'a' }) => {
    const reply = await post(server, '1.0', payload, `/things/${id}`)
    return [reply.statusCode, reply.statusCode === 200 ? reply.json() : reply.json().message]
  }
  t.same(await answer('value'), [200, { id: 'replaced' }], '{ value }: the part replaced')
  t.same(await answer('error'), [400, 'its own error'], '{ error }')
  t.same(await answer('false'), [400, 'params is not right'], 'false: its errors, formatted')
  t.same(await answer('async'), [200, { id: 'async' }], 'a promise')
  t.same(await answer('true'), [200, { id: 'true' }])
  t.same(await answer('throw'), [500, 'broken'], 'a validator that throws: a server error, as Fastify answers it')
  t.same(await answer('true', { id: 1 }), [400, 'body/title is missing'], 'the older body refused by its own async validator')
})

t.test('a request Fastify keeps no route context on is left to the steps of a copy, which answer it', async t => {
  const step = validationStep(() => null)
  t.equal(step({ server: { version: '5.12.8' } } as FastifyRequest, { validation: null, conversion: { up: null, renamesOnly: true, bodyAsNewest: true } }), false)
})

t.test('where a copy validates a JSON body the route has no schema of, it is validated by none', async t => {
  const Query = Type.Object({ limit: Type.Optional(Type.Integer()) })
  const change = versionChange({ description: "'limit' (it was 'max').", fields: [{ schema: Query, field: 'limit', renamedFrom: 'max' }] })
  const { server, contexts } = await service([{ version: '2.0', changes: [change] }, { version: '1.0' }])
  // Validation errors given to the handler: the steps of a copy.
  server.post('/things', { versionChanges: true, attachValidation: true, schema: { querystring: Query } }, async request => [request.query, request.body])
  await server.ready()
  t.same((await server.inject({ method: 'POST', url: '/things?api-version=1.0&max=2', payload: { any: 'thing' } })).json(), [{ 'api-version': '1.0', limit: 2 }, { any: 'thing' }])
  t.not(contexts.get('1.0'), undefined)
})

t.test('a body left out, of a version older than a field the body gained: the route\'s validator gets null, as from Fastify', async t => {
  const Note = Type.Object({ id: Type.Integer(), name: Type.String(), tag: Type.Optional(Type.String()) })
  const change = versionChange({ description: "Notes have a 'name' (it was 'title'), and may have a tag.", fields: [{ schema: Note, field: 'name', renamedFrom: 'title' }, { schema: Note, field: 'tag', added: true }] })
  const { server, contexts } = await service([{ version: '2.0', changes: [change] }, { version: '1.0' }])
  server.post('/notes', { versionChanges: true, schema: { body: Type.Union([Note, Type.Null()]) } }, async request => ({ body: request.body ?? 'none' }))
  await server.ready()
  t.same((await server.inject({ method: 'POST', url: '/notes?api-version=1.0' })).json(), { body: 'none' })
  t.same((await server.inject({ method: 'POST', url: '/notes?api-version=1.0', payload: { id: 1, title: 'a' } })).json(), { body: { id: 1, name: 'a' } })
  t.same((await server.inject({ method: 'POST', url: '/notes?api-version=2.0' })).json(), { body: 'none' })
  t.equal(contexts.get('1.0') === contexts.get('2.0'), inValidation)
})

t.test('passesRequest: Fastify gives a validator the request it validates from 5.12.1 on', async t => {
  for (const [version, passes] of [['5.8.1', false], ['5.12.0', false], ['5.12.1', true], ['5.12.8', true], ['5.13.0', true], ['6.0.0', true], ['4.29.0', false]] as const) t.equal(passesRequest(version), passes, version)
})
