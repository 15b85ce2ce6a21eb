import t from 'tap'
import Fastify, { type FastifyInstance } from 'fastify'
import apiVersioning from '../../lib/index.js'

// A validation library's schema as a type provider compiles it: a Standard Schema (zod's z.strictObject, valibot's
// strictObject) that refuses the names it does not list. The plugin cannot add the version's names to it.
const strict = (...keys: string[]) => ({ '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) }, keys })
function provider (app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema }) => (data: Record<string, unknown>) => {
    const keys = (schema as { keys?: string[] }).keys
    if (keys === undefined) return true
    const unknown = Object.keys(data).filter(key => !keys.includes(key))
    return unknown.length > 0 ? { error: new Error(`Unrecognized key: ${unknown.join(', ')}`) } : { value: { ...data } }
  })
}

t.test("the version's names are taken out of what a validation library's schema of the query string or params validates", async t => {
  const app = Fastify()
  provider(app)
  await app.register(apiVersioning, { versionReader: { query: 'api-version', urlSegment: 'apiVersion' } })
  const seen = async (request: { query: unknown, params: unknown, apiVersion: unknown }) => ({ query: request.query, params: request.params, version: String(request.apiVersion) })
  app.get('/orders', { apiVersions: '1.0', schema: { querystring: strict('page') as never } }, seen)
  app.get('/v:apiVersion/orders/:id', { apiVersions: '1.0', schema: { params: strict('id') as never } }, seen)
  // A JSON Schema route: the names are added to its schema, and the handler sees them as sent.
  app.get('/lines', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { page: { type: 'string' } }, additionalProperties: false } } }, seen)
  await app.ready()
  t.same((await app.inject('/orders?api-version=1.0&page=2')).json(), { query: { page: '2' }, params: {}, version: '1.0' })
  t.same((await app.inject('/v1.0/orders/7')).json(), { query: {}, params: { id: '7' }, version: '1.0' })
  const refused = await app.inject('/orders?api-version=1.0&sort=up')
  t.equal(refused.statusCode, 400, 'other names it does not list are refused as before')
  t.match(refused.json().message, /Unrecognized key: sort/)
  t.same((await app.inject('/lines?api-version=1.0&page=2')).json().query, { 'api-version': '1.0', page: '2' })
})
