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

t.test('the version parameter is optional only in the document of the version a request without one is served there', async t => {
  // What a request that sends no version is served on each operation, and the documents that call the version
  // parameter optional there: the same version, or none where no version is assumed.
  async function agreement (versioning: Parameters<typeof buildDocs>[0]): Promise<Record<string, { served: string, optionalIn: string[] }>> {
    const handler = async (request: { apiVersion?: unknown }) => String(request.apiVersion)
    const app = await buildDocs({ problemDetails: true, ...versioning }, {}, app => {
      app.get('/o', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, handler)
      app.get('/o', { apiVersions: ['2.0', '3.0-beta'] }, handler)
      app.get('/o', { apiVersions: '3.0' }, handler)
      // Another method of the path, its own versions: its own pick.
      app.post('/o', { apiVersions: '1.0' }, handler)
      // 4.0 is past its enforced sunset (policies below): implemented no more.
      app.get('/r', { apiVersions: ['1.0', '2.0', '4.0'] }, handler)
      app.get('/beta', { apiVersions: '5.0-beta' }, handler)
    })
    const found: Record<string, { served: string, optionalIn: string[] }> = {}
    for (const [method, url] of [['GET', '/o'], ['POST', '/o'], ['GET', '/r'], ['GET', '/beta']] as const) {
      const response = await app.inject({ method, url })
      found[`${method} ${url}`] = { served: response.statusCode === 200 ? response.body : String(response.statusCode), optionalIn: [] }
    }
    for (const { version, document } of app.apiVersionDocuments()) {
      for (const [label, operation] of Object.entries(operations(document))) {
        const parameter = (operation.parameters as Array<{ in: string, required: boolean }>).find(p => p.in === 'query')
        if (parameter?.required === false) found[label].optionalIn.push(version)
      }
    }
    t.same(await allProblems(app), [])
    return found
  }
  const policies = { '4.0': { sunset: { date: '2020-01-01', enforce: true } } }
  t.same(await agreement({ policies }), {
    'GET /o': { served: '400', optionalIn: [] }, 'POST /o': { served: '400', optionalIn: [] }, 'GET /r': { served: '400', optionalIn: [] }, 'GET /beta': { served: '400', optionalIn: [] }
  }, 'no version assumed: required in every document')
  t.same(await agreement({ policies, assumeDefaultVersionWhenUnspecified: true, defaultVersion: '2.0' }), {
    'GET /o': { served: '2.0', optionalIn: ['2.0'] },
    'POST /o': { served: '400', optionalIn: [] },
    'GET /r': { served: '2.0', optionalIn: ['2.0'] },
    'GET /beta': { served: '400', optionalIn: [] }
  }, '\'default\': defaultVersion where the operation has it')
  t.same(await agreement({ policies, assumeDefaultVersionWhenUnspecified: true, defaultVersion: '2.0', apiVersionSelector: 'current' }), {
    'GET /o': { served: '3.0', optionalIn: ['3.0'] },
    'POST /o': { served: '1.0', optionalIn: ['1.0'] },
    'GET /r': { served: '2.0', optionalIn: ['2.0'] },
    'GET /beta': { served: '400', optionalIn: [] }
  }, '\'current\': the highest version without a status that is implemented (not retired) on the method and path')
  t.same(await agreement({ policies, assumeDefaultVersionWhenUnspecified: true, defaultVersion: '2.0', apiVersionSelector: 'lowest' }), {
    'GET /o': { served: '0.9', optionalIn: ['0.9'] },
    'POST /o': { served: '1.0', optionalIn: ['1.0'] },
    'GET /r': { served: '1.0', optionalIn: ['1.0'] },
    'GET /beta': { served: '400', optionalIn: [] }
  }, '\'lowest\': a deprecated version too')
  t.same(await agreement({ policies, assumeDefaultVersionWhenUnspecified: true, apiVersionSelector: () => '1.0' }), {
    'GET /o': { served: '1.0', optionalIn: [] },
    'POST /o': { served: '1.0', optionalIn: [] },
    'GET /r': { served: '1.0', optionalIn: [] },
    'GET /beta': { served: '400', optionalIn: [] }
  }, 'a function picks per request: no document can promise a version, so none calls the parameter optional')
})
