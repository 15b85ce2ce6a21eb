import t from 'tap'
import { allProblems, buildDocs, documentOf, operations } from './openapi-helpers.js'

const ok = async () => 'ok'
const strict = { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer' } } } as const
const names = (op: { parameters?: Array<{ in: string, name: string }> }) => (op.parameters ?? []).map(p => `${p.in} ${p.name}`)

t.test('the version query names are the plugin\'s: only the first is documented, on every route alike', async t => {
  const app = await buildDocs({ problemDetails: true, versionReader: { query: ['api-version', 'v'] } }, {}, app => {
    app.get('/strict', { apiVersions: '1.0', schema: { querystring: strict } }, ok)
    app.get('/loose', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' } } } } }, ok)
    app.get('/none', { apiVersions: '1.0' }, ok)
    app.get('/own', { apiVersions: '1.0', schema: { querystring: { type: 'object', properties: { V: { type: 'string', description: 'mine' }, limit: { type: 'integer' } } } } }, ok)
    app.get('/neutral', { apiVersionNeutral: true, schema: { querystring: strict } }, ok)
    app.get('/api/v:apiVersion/path', { apiVersions: '1.0', schema: { querystring: strict } }, ok)
    app.get('/plain', { schema: { querystring: { type: 'object', properties: { v: { type: 'string' } } } } }, ok)
  })
  const ops = operations(documentOf(app, '1.0'))
  t.same(names(ops['GET /strict']), ['query limit', 'query api-version', 'header api-version'], 'a strict querystring schema')
  t.same(names(ops['GET /loose']), ['query limit', 'query api-version', 'header api-version'])
  t.same(names(ops['GET /none']), ['query api-version', 'header api-version'])
  t.same(names(ops['GET /own']), ['query limit', 'query api-version', 'header api-version'], 'a name the reader takes whatever its case')
  t.same(names(ops['GET /neutral']), ['query limit'], 'a neutral route documents no version')
  t.same(names(ops['GET /api/v1.0/path']), ['query limit'], 'nor does a route with the version in its path')
  t.same(names(ops['GET /plain']), ['query v'], 'an unversioned route reads no version: its v is its own')
  t.same(await allProblems(app), [])
  t.equal((await app.inject('/strict?v=1.0')).statusCode, 200, 'the server still takes the second name')
})
