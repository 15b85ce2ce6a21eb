import t from 'tap'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning from '../../lib/index.js'
import { build as buildApp } from './helpers.js'

// Ajv as strict as an app can make it: additional properties are rejected, not removed. An app that uses $anchor
// names it as a keyword: Ajv 8 resolves it, but knows it as no keyword in strict mode, whatever the draft (as
// dependentSchemas, a keyword of draft 2019-09, not of Fastify's default draft-07 Ajv).
const strict = { ajv: { customOptions: { removeAdditional: false as const, keywords: ['$anchor', 'dependentSchemas'] } } }

async function build (routes: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = Fastify(strict) as unknown as FastifyInstance
  app.addSchema({ $id: 'ListQuery', type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false })
  app.addSchema({ $id: 'Sort', type: 'string', enum: ['asc', 'desc'] })
  app.addSchema({
    $id: 'http://example.com/schemas/sorted.json',
    type: 'object',
    properties: {
      sort: { $ref: 'sort.json' },
      page: { $ref: '#/definitions/page' },
      dir: { enum: ['up', 'down'] },
      owner: { $id: 'http://example.com/schemas/owner.json', type: 'string', minLength: 2 }
    },
    definitions: { page: { type: 'integer', minimum: 1 } },
    additionalProperties: false
  })
  app.addSchema({ $id: 'Composite', allOf: [{ type: 'object' }, { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false }] })
  app.addSchema({ $id: 'Tree', type: 'object', properties: { page: { type: 'integer' }, deep: {} }, additionalProperties: false, if: { required: ['deep'] }, then: { $ref: 'Tree#' } })
  app.addSchema({ $id: 'http://example.com/schemas/sort.json', type: 'string', enum: ['asc', 'desc'] })
  app.addSchema({ $id: 'Lists', definitions: { query: { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false } } })
  app.addSchema({
    $id: 'Named',
    definitions: {
      query: { $id: '#query', type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false },
      anchored: { $anchor: 'anchored', type: 'object', properties: { page: { $ref: '#/definitions/page' } }, additionalProperties: false },
      page: { type: 'integer', minimum: 1 }
    }
  })
  app.addSchema({ $id: 'Deep', definitions: { query: { type: 'object', properties: { page: { $id: '#page', allOf: [{ $ref: '#/definitions/int' }] } }, additionalProperties: false }, int: { type: 'integer', minimum: 1 } } })
  await app.register(apiVersioning, { problemDetails: true, versionReader: { query: ['api-version', 'v'] } })
  routes(app)
  return app
}

t.test('a strict params schema accepts the version route parameter, on versioned and neutral routes', async t => {
  const params = Type.Object({ id: Type.String() }, { additionalProperties: false })
  const app = await build(app => {
    app.get('/v:apiVersion/orders/:id', { apiVersions: '1.0', schema: { params } }, async request => request.params)
    app.get('/n/:apiVersion/:id', { apiVersionNeutral: true, schema: { params } }, async request => request.params)
  })
  t.same((await app.inject('/v1.0/orders/7')).json(), { apiVersion: '1.0', id: '7' })
  t.same((await app.inject('/n/1.0/7')).json(), { apiVersion: '1.0', id: '7' })
  t.equal(params.properties['apiVersion' as 'id'], undefined, "the app's schema object is not changed")
})

t.test('a strict querystring given by $ref to a shared schema accepts the version names, and nothing else', async t => {
  const app = await build(app => {
    app.get('/orders', { apiVersions: '1.0', schema: { querystring: { $ref: 'ListQuery#' } } }, async request => request.query)
    app.get('/orders', { apiVersions: '2.0', schema: { querystring: { $ref: 'ListQuery#' } } }, async request => ({ v2: request.query }))
    app.get('/typebox', { apiVersions: '1.0', schema: { querystring: Type.Ref('ListQuery') } }, async request => request.query)
    app.get('/sorted', { apiVersions: '1.0', schema: { querystring: { $ref: 'http://example.com/schemas/sorted.json' } } }, async request => request.query)
    app.get('/plain', { schema: { querystring: { $ref: 'ListQuery#' } } }, async request => request.query)
  })
  t.same((await app.inject('/orders?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.same((await app.inject('/orders?v=2.0')).json(), { v2: { v: '2.0' } }, 'two routes share one shared schema')
  t.equal((await app.inject('/orders?api-version=1.0&other=1')).statusCode, 400, 'other names are still rejected')
  t.equal((await app.inject('/orders?api-version=1.0&page=x')).statusCode, 400, 'and the schema still validates')
  t.same((await app.inject('/typebox?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.same((await app.inject('/sorted?api-version=1.0&sort=asc&page=2')).json(), { 'api-version': '1.0', sort: 'asc', page: 2 }, 'its own references still resolve')
  t.equal((await app.inject('/sorted?api-version=1.0&sort=up')).statusCode, 400)
  t.equal((await app.inject('/sorted?api-version=1.0&page=0')).statusCode, 400)
  t.same((await app.inject('/sorted?api-version=1.0&dir=up&owner=me')).json(), { 'api-version': '1.0', dir: 'up', owner: 'me' })
  t.equal((await app.inject('/sorted?api-version=1.0&dir=sideways')).statusCode, 400)
  t.equal((await app.inject('/sorted?api-version=1.0&owner=x')).statusCode, 400, 'a schema of its own $id in it still applies')
  t.equal((await app.inject('/plain?api-version=1.0')).statusCode, 400, 'an unversioned route using the shared schema is left as declared')
  t.equal((app.getSchema('ListQuery') as { properties: Record<string, unknown> }).properties['api-version'], undefined, 'the shared schema is not changed')
})

t.test('a strict querystring inside allOf, anyOf or oneOf accepts the version names, and nothing else', async t => {
  const page = { type: 'object', properties: { page: { type: 'integer' } } }
  const searched = { type: 'object', properties: { page: {}, q: { type: 'string' } }, additionalProperties: false }
  const app = await build(app => {
    app.get('/all', { apiVersions: '1.0', schema: { querystring: { allOf: [page, searched] } } }, async request => request.query)
    app.get('/all-ref', { apiVersions: '1.0', schema: { querystring: { allOf: [{ $ref: 'ListQuery#' }] } } }, async request => request.query)
    app.get('/one', { apiVersions: '1.0', schema: { querystring: { oneOf: [{ ...searched, required: ['q'] }, { $ref: 'ListQuery#' }] } } }, async request => request.query)
    app.get('/any', { apiVersions: '1.0', schema: { querystring: { anyOf: [searched, { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false }] } } }, async request => request.query)
    app.get('/when', { apiVersions: '1.0', schema: { querystring: { if: { required: ['q'] }, then: searched, else: { $ref: 'ListQuery#' } } } }, async request => request.query)
    app.get('/named', { apiVersions: '1.0', schema: { querystring: { type: 'object', propertyNames: { enum: ['page'] } } } }, async request => request.query)
  })
  t.same((await app.inject('/all?api-version=1.0&page=2&q=x')).json(), { 'api-version': '1.0', page: 2, q: 'x' })
  t.equal((await app.inject('/all?api-version=1.0&other=1')).statusCode, 400)
  t.same((await app.inject('/all-ref?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.equal((await app.inject('/all-ref?api-version=1.0&other=1')).statusCode, 400)
  t.same((await app.inject('/one?api-version=1.0&q=x')).json(), { 'api-version': '1.0', q: 'x' })
  t.same((await app.inject('/one?api-version=1.0&page=3')).json(), { 'api-version': '1.0', page: 3 })
  t.equal((await app.inject('/one?api-version=1.0&other=1')).statusCode, 400)
  t.same((await app.inject('/any?api-version=1.0&q=x')).json(), { 'api-version': '1.0', q: 'x' })
  t.same((await app.inject('/any?api-version=1.0&x=y')).json(), { 'api-version': '1.0', x: 'y' })
  t.equal((await app.inject('/any?api-version=1.0&q=x&x=y')).statusCode, 400, 'no member takes both')
  t.same((await app.inject('/when?api-version=1.0&q=x')).json(), { 'api-version': '1.0', q: 'x' })
  t.same((await app.inject('/when?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.equal((await app.inject('/when?api-version=1.0&page=2&x=1')).statusCode, 400)
  t.same((await app.inject('/named?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: '2' })
  t.equal((await app.inject('/named?api-version=1.0&x=1')).statusCode, 400)
})

t.test('a $ref with a JSON pointer, into a shared schema or the route\'s own, is extended as well', async t => {
  const app = await build(app => {
    app.get('/lists', { apiVersions: '1.0', schema: { querystring: { $ref: 'Lists#/definitions/query' } } }, async request => request.query)
    app.get('/member', { apiVersions: '1.0', schema: { querystring: { $ref: 'Composite#/allOf/1' } } }, async request => request.query)
    app.get('/tree', { apiVersions: '1.0', schema: { querystring: { $ref: 'Tree#' } } }, async request => request.query)
    app.get('/local', { apiVersions: '1.0', schema: { querystring: { definitions: { q: { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false } }, allOf: [{ $ref: '#/definitions/q' }] } } }, async request => request.query)
  })
  t.same((await app.inject('/lists?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.equal((await app.inject('/lists?api-version=1.0&x=2')).statusCode, 400)
  t.same((await app.inject('/member?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.equal((await app.inject('/member?api-version=1.0&x=2')).statusCode, 400)
  t.same((await app.inject('/tree?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 }, 'a schema that refers to itself is followed once')
  t.same((await app.inject('/local?v=1.0&page=2')).json(), { v: '1.0', page: 2 })
  t.equal((await app.inject('/local?v=1.0&x=2')).statusCode, 400)
})

t.test('a $ref to a plain-name fragment ($id \'#name\' or $anchor), into a shared schema or the route\'s own, is extended as well', async t => {
  const own = { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false }
  const app = await build(app => {
    app.get('/named', { apiVersions: '1.0', schema: { querystring: { $ref: 'Named#query' } } }, async request => request.query)
    app.get('/anchored', { apiVersions: '1.0', schema: { querystring: { $ref: 'Named#anchored' } } }, async request => request.query)
    app.get('/both', { apiVersions: '1.0', schema: { querystring: { allOf: [{ $ref: 'Named#query' }, { $ref: 'Named#anchored' }] } } }, async request => request.query)
    app.get('/local', { apiVersions: '1.0', schema: { querystring: { definitions: { q: { ...own, $anchor: 'q' }, r: { ...own, $id: '#r' } }, allOf: [{ $ref: '#q' }], anyOf: [{ $ref: '#r' }] } } }, async request => request.query)
    app.get('/deep', { apiVersions: '1.0', schema: { querystring: { $ref: 'Deep#/definitions/query' } } }, async request => request.query)
    app.get('/nested', { apiVersions: '1.0', schema: { querystring: { definitions: { q: { ...own, properties: { page: { $anchor: 'page', type: 'integer' } } } }, allOf: [{ $ref: '#/definitions/q' }], properties: { page: { $ref: '#page' } } } } }, async request => request.query)
    // Under a map of schemas by property name, a name that is also a keyword (`format`) names a schema all the same.
    app.get('/dependent', { apiVersions: '1.0', schema: { querystring: { dependentSchemas: { format: { ...own, $id: '#f' } }, allOf: [{ $ref: '#f' }] } } }, async request => request.query)
  })
  for (const url of ['/named', '/anchored', '/both', '/local', '/deep', '/nested', '/dependent']) {
    t.same((await app.inject(`${url}?api-version=1.0&page=2`)).json(), { 'api-version': '1.0', page: 2 }, url)
    t.same((await app.inject(`${url}?v=1.0`)).json(), { v: '1.0' }, url)
    t.equal((await app.inject(`${url}?api-version=1.0&other=1`)).statusCode, 400, `${url}: other names are still rejected`)
    t.equal((await app.inject(`${url}?api-version=1.0&page=x`)).statusCode, 400, `${url}: and the schema still validates`)
  }
  t.equal((await app.inject('/anchored?api-version=1.0&page=0')).statusCode, 400, 'its own references still resolve')
  t.equal((await app.inject('/deep?api-version=1.0&page=0')).statusCode, 400, 'and those under a plain-name $id in it')
  t.equal((app.getSchema('Named') as { definitions: { query: { properties: object } } }).definitions.query.properties['api-version' as never], undefined, 'the shared schema is not changed')
})

t.test('a $ref to a plain name the plugin cannot find in its schema is a start-up error naming the route and what to add', async t => {
  const app = await build(() => {})
  t.throws(() => app.get('/x', { apiVersions: '1.0', schema: { querystring: { $ref: 'Named#nothing' } } }, async () => 'x'), /route GET \/x: its querystring schema refers to Named#nothing, a plain-name fragment, but Named has no subschema with \$id '#nothing' or \$anchor 'nothing', so the plugin cannot add the version names to it; give the schema meant \$anchor: 'nothing', or refer to it by JSON pointer \(Named#\/definitions\/\.\.\.\)/)
  t.throws(() => app.get('/p/:apiVersion', { apiVersions: '1.0', schema: { params: { definitions: {}, allOf: [{ $ref: '#p' }] } } }, async () => 'x'), /route GET \/p\/:apiVersion: its params schema refers to #p, a plain-name fragment, but the route's own schema has no subschema with \$id '#p' or \$anchor 'p'/)
})

t.test('a strict shared schema added after the route is a start-up error naming the route and what to add', async t => {
  const later = Fastify(strict)
  await later.register(apiVersioning, { problemDetails: true })
  later.get('/late', { apiVersions: '1.0', schema: { querystring: { $ref: 'LateQuery#' } } }, async () => 'x')
  later.addSchema({ $id: 'LateQuery', type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false })
  await t.rejects(async () => { await later.ready() }, /route GET \/late: its querystring schema LateQuery# forbids names it does not list, and was added after the route, so the plugin could not add the version names to it; add the schema before the route \(app\.addSchema\), or add 'api-version' to its properties/)

  const open = Fastify(strict)
  await open.register(apiVersioning, { problemDetails: true })
  open.get('/open', { apiVersions: '1.0', schema: { querystring: { $ref: 'OpenQuery#' } } }, async request => request.query)
  open.addSchema({ $id: 'OpenQuery', type: 'object', properties: { page: { type: 'integer' } } })
  t.same((await open.inject('/open?api-version=1.0&x=1')).json(), { 'api-version': '1.0', x: '1' }, 'a schema added later that forbids nothing is fine')
})

t.test('a $ref that reaches nothing is left for Fastify to refuse', async t => {
  for (const ref of ['Lists#/definitions/nothing', 'Lists#/definitions/query/type/x', 'Lists#/definitions/query/required/0']) {
    const app = await build(app => { app.get('/x', { apiVersions: '1.0', schema: { querystring: { allOf: [{ $ref: ref }] } } }, async () => 'x') })
    await t.rejects(async () => { await app.ready() }, /can't resolve reference/, ref)
  }
})

t.test('strict querystring schemas accept the version query names, and nothing else', async t => {
  const query = Type.Object({ page: Type.Optional(Type.Integer()) }, { additionalProperties: false })
  const shared = { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false, $id: 'page-query' } as const
  const app = await buildApp({ problemDetails: true, versionReader: { query: ['api-version', 'v'] } }, app => {
    app.get('/orders', { apiVersions: '1.0', schema: { querystring: query } }, async request => request.query)
    app.get('/health', { apiVersionNeutral: true, schema: { query: { ...shared, $id: undefined } } as object }, async request => request.query)
    app.get('/plain', { schema: { querystring: { ...shared, $id: 'plain-query' } } }, async request => request.query)
    app.get('/mine', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { v: { type: 'string', enum: ['1'] } }, additionalProperties: false } } }, async request => request.query)
    app.get('/both', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { v: { type: 'string' }, 'api-version': { type: 'string', enum: ['1'] } }, additionalProperties: false } } }, async request => request.query)
    app.get('/bare', { apiVersions: '1.0', schema: { querystring: { type: 'object', additionalProperties: false } } }, async request => request.query)
    app.get('/open', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { page: { type: 'integer' } } } } }, async request => request.query)
  }, { ajv: { customOptions: { removeAdditional: false } } })
  t.same((await app.inject('/orders?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.same((await app.inject('/orders?v=1.0')).json(), { v: '1.0' })
  t.equal((await app.inject('/orders?api-version=1.0&page=2&other=1')).statusCode, 400, 'other names are still rejected')
  t.same((await app.inject('/health?api-version=1.0&page=2')).json(), { 'api-version': '1.0', page: 2 })
  t.equal((await app.inject('/health?nope=1')).statusCode, 400)
  t.equal((await app.inject('/plain?api-version=1.0')).statusCode, 400, 'unversioned routes are left as declared')
  t.equal((await app.inject('/mine?api-version=1&v=2')).statusCode, 400, "a route's own definition of a name is kept")
  t.equal((await app.inject('/both?api-version=1.0')).statusCode, 400, 'a route that defines every name keeps its schema')
  t.same((await app.inject('/bare?api-version=1')).json(), { 'api-version': '1' })
  t.equal((await app.inject('/bare?api-version=1&x=1')).statusCode, 400)
  t.same((await app.inject('/open?api-version=1&x=1')).json(), { 'api-version': '1', x: '1' })
  t.equal(query.properties['api-version' as 'page'], undefined, "the user's schema object is not changed")
})
