import t from 'tap'
import { installedVersion } from '../../lib/openapi/peers.js'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { parse } from 'yaml'
import apiVersioning from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { allProblems, buildDocs, documentOf } from './openapi-helpers.js'

const ok = async () => 'ok'

t.test('GET {routePrefix}/{version}.json and .yaml serve a version\'s document; an unknown one is 404', async t => {
  const docs = await buildDocs({ problemDetails: true }, { routePrefix: '/api-docs' }, app => {
    app.get('/orders', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, ok)
    app.get('/orders', { apiVersions: ['2.0', '3.0-beta'] }, ok)
  })
  const json = await docs.inject('/api-docs/1.0.json')
  t.equal(json.statusCode, 200)
  t.equal(json.headers['content-type'], 'application/json; charset=utf-8')
  t.same(json.json(), documentOf(docs, '1.0'))
  t.equal((await docs.inject('/api-docs/1.0.json')).body, json.body, 'the same text every time')
  t.same((await docs.inject('/api-docs/1.json')).json(), documentOf(docs, '1.0'), 'a version can be written any way it parses')
  const yaml = await docs.inject('/api-docs/2.0.yaml')
  t.equal(yaml.headers['content-type'], 'application/yaml; charset=utf-8')
  t.same(parse(yaml.body), documentOf(docs, '2.0'))
  t.equal((await docs.inject('/api-docs/2.0.yaml')).body, yaml.body)
  for (const url of ['/api-docs/4.0.json', '/api-docs/1.0.xml', '/api-docs/x.json', '/api-docs/1.0', '/openapi/1.0.json']) {
    t.equal((await docs.inject(url)).statusCode, 404, url)
  }
})

t.test('GET {routePrefix}/swagger-config: the picker\'s list, newest first, deprecated labelled, newest stable supported first', async t => {
  const app = await buildDocs({ problemDetails: true }, {}, app => {
    app.get('/orders', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, ok)
    app.get('/orders', { apiVersions: ['2.0', '3.0-beta'], deprecatedApiVersions: '2.5' }, ok)
  })
  t.same((await app.inject('/openapi/swagger-config')).json(), {
    urls: [
      { url: '/openapi/3.0-beta.json', name: '3.0-beta' },
      { url: '/openapi/2.5.json', name: '2.5 (deprecated)' },
      { url: '/openapi/2.0.json', name: '2.0' },
      { url: '/openapi/1.0.json', name: '1.0' },
      { url: '/openapi/0.9.json', name: '0.9 (deprecated)' }
    ],
    'urls.primaryName': '2.0'
  })
  const previews = await buildDocs({}, {}, app => { app.get('/a', { apiVersions: ['1.0-alpha', '1.0-beta'], deprecatedApiVersions: '0.5' }, ok) })
  t.equal((await previews.inject('/openapi/swagger-config')).json()['urls.primaryName'], '1.0-beta', 'the newest supported, when all have a status')
  const retired = await buildDocs({}, {}, app => { app.get('/a', { deprecatedApiVersions: ['0.5', '0.6'] }, ok) })
  t.equal((await retired.inject('/openapi/swagger-config')).json()['urls.primaryName'], '0.6 (deprecated)', 'the newest, when all are deprecated')
})

t.test('the document routes are unversioned and in no document', async t => {
  const app = await buildDocs({ problemDetails: true, assumeDefaultVersionWhenUnspecified: false }, {}, app => {
    app.get('/a', { apiVersions: '1.0' }, ok)
  })
  for (const url of ['/openapi/1.0.json?api-version=garbage', '/openapi/swagger-config?api-version=1&api-version=2']) {
    t.equal((await app.inject({ url, headers: { 'api-version': 'x.y' } })).statusCode, 200, url)
  }
  t.same(Object.keys(documentOf(app, '1.0').paths), ['/a'])
})

t.test('beside the app\'s own @fastify/swagger, which keeps working and sees nothing of ours', async t => {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'own', version: '1' } } })
  await app.register(apiVersioning, { problemDetails: true })
  await app.register(apiVersioningOpenApi, { openapi: { info: { title: 'versioned', version: '1' } } })
  app.get('/a', { apiVersions: '1.0', config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, summary: 'own transform' }, url }) } }, ok)
  app.get('/b', { apiVersions: '1.0', config: { swaggerTransform: false } }, ok)
  await app.ready()
  const own = app.swagger() as { info: { title: string }, paths: Record<string, Record<string, { summary?: string, parameters?: unknown }>> }
  t.equal(own.info.title, 'own')
  t.same(Object.keys(own.paths), ['/a', '/b'], 'no url suffixes, no document routes')
  t.equal(own.paths['/a'].get.summary, 'own transform')
  t.equal(own.paths['/a'].get.parameters, undefined, 'no version parameter')
  t.equal(documentOf(app, '1.0').info.title, 'versioned')
  t.same(Object.keys(documentOf(app, '1.0').paths), ['/a', '/b'])
  t.same(await allProblems(app), [])
})

t.test('routes with TypeBox schemas (@fastify/type-provider-typebox)', async t => {
  const { Type } = await import('@sinclair/typebox')
  const Order = Type.Object({ id: Type.Integer(), item: Type.String(), note: Type.Optional(Type.Union([Type.String(), Type.Null()])) }, { $id: 'Order' })
  for (const openapi of ['3.0.3', '3.1.0']) {
    const app = await buildDocs({ problemDetails: true, reportApiVersions: true }, { openapi: { openapi } }, app => {
      const typed = app.withTypeProvider<TypeBoxTypeProvider>()
      typed.get('/orders/:id', {
        apiVersions: '1.0',
        schema: { params: Type.Object({ id: Type.Integer() }), querystring: Type.Object({ 'api-version': Type.String(), expand: Type.Optional(Type.Boolean()) }), response: { 200: Order } }
      }, async request => ({ id: request.params.id, item: 'tea', note: null }))
      typed.post('/orders', { apiVersions: '2.0', schema: { body: Type.Omit(Order, ['id']), response: { 201: Order } } }, async () => ({ id: 1, item: 'tea' }))
    })
    // @fastify/swagger before 9.9.0 writes a nullable union in a 3.0 document as 3.1 has it ({ type: 'null' }):
    // its own bug, with or without this plugin (docs/openapi.md says so); the lowest-peer run meets it.
    const nullable30 = openapi === '3.0.3' && (installedVersion('@fastify/swagger') as string).localeCompare('9.9.0', 'en', { numeric: true }) < 0
    t.match(await allProblems(app), nullable30 ? [/^1\.0: invalid OpenAPI: .*"allowedValues":\["array","boolean","integer","number","object","string"\]/] : [], openapi)
    const response = await app.inject('/orders/7?api-version=1.0')
    t.same(response.json(), { id: 7, item: 'tea', note: null })
  }
})
