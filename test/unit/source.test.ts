import t from 'tap'
import Fastify from 'fastify'
import apiVersioning, { type ApiVersioningOptions } from '../../lib/index.js'
import { build, logged } from './helpers.js'

const reads = (request: { apiVersion: unknown, apiVersionSource: unknown }) => ({ version: request.apiVersion === null ? null : String(request.apiVersion), source: request.apiVersionSource })

t.test('request.apiVersionSource says where the served version came from', async t => {
  const options: ApiVersioningOptions = {
    problemDetails: true,
    versionReader: { mediaType: true, custom: req => req.headers['x-custom'] as string | undefined }
  }
  const app = await build(options, app => {
    app.get('/a', { apiVersions: ['1.0', '2.0'] }, async request => reads(request))
    app.get('/v:apiVersion/a', { apiVersions: '1.0' }, async request => reads(request))
    app.get('/n', { apiVersionNeutral: true }, async request => reads(request))
    app.get('/plain', async request => reads(request))
  })
  const cases: Array<[string, Record<string, string>, unknown]> = [
    ['/a?api-version=1.0', {}, { version: '1.0', source: 'query' }],
    ['/a', { 'api-version': '2.0' }, { version: '2.0', source: 'header' }],
    ['/v1/a', {}, { version: '1', source: 'path' }],
    ['/a', { accept: 'application/json;v=2' }, { version: '2', source: 'media-type' }],
    ['/a', { 'x-custom': '1' }, { version: '1', source: 'custom' }],
    // The first reader, in the order query, header, path, media type, custom, that gave it.
    ['/v1/a?api-version=1.0', { 'api-version': '1' }, { version: '1.0', source: 'query' }],
    ['/v1/a', { 'api-version': '1.0', 'x-custom': '1' }, { version: '1.0', source: 'header' }],
    // request.apiVersion keeps the text of the reader the source names: the path's, not the media type's.
    ['/v1.0/a', { accept: 'application/json;v=1', 'x-custom': '1' }, { version: '1.0', source: 'path' }],
    ['/v1/a', { accept: 'application/json;v=1.0', 'x-custom': '1.00' }, { version: '1', source: 'path' }],
    ['/a', { accept: 'application/json;v=1', 'x-custom': '1.0' }, { version: '1', source: 'media-type' }],
    ['/n?api-version=1.0', {}, { version: '1.0', source: 'query' }],
    ['/n?api-version=9.0', {}, null],
    ['/n', {}, { version: null, source: null }],
    ['/plain?api-version=1.0', {}, { version: null, source: null }]
  ]
  for (const [url, headers, expected] of cases) {
    const res = await app.inject({ url, headers })
    if (expected === null) t.equal(res.statusCode, 400, url)
    else t.same(res.json(), expected, `${url} ${JSON.stringify(headers)}`)
  }
})

t.test('a version the request did not give is assumed; an assigned one is the request\'s own', async t => {
  const app = await build({ assumeDefaultVersionWhenUnspecified: true }, app => {
    app.get('/a', { apiVersions: '1.0' }, async request => reads(request))
    app.get('/b', {
      apiVersions: '1.0',
      onRequest: async request => { request.apiVersionSource = 'custom' }
    }, async request => reads(request))
  })
  t.same((await app.inject('/a')).json(), { version: '1.0', source: 'assumed' })
  t.same((await app.inject('/a?api-version=1')).json(), { version: '1', source: 'query' })
  t.same((await app.inject('/b?api-version=1')).json(), { version: '1', source: 'custom' }, 'as apiVersion, it may be set')
})

t.test('logApiVersion puts the source beside the version in the log bindings', async t => {
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'info', stream } })
  await app.register(apiVersioning, { logApiVersion: true, assumeDefaultVersionWhenUnspecified: true })
  app.get('/a', { apiVersions: '1.0' }, async () => 'a')
  await app.inject('/a?api-version=1.0')
  await app.inject('/a')
  const completed = lines.filter(line => line.msg === 'request completed')
  t.same(completed.map(line => [line.apiVersion, line.apiVersionSource]), [['1.0', 'query'], ['1.0', 'assumed']])
})
