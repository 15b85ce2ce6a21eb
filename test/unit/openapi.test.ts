import t from 'tap'
import Fastify from 'fastify'
import apiVersioning, { ProblemDetailsSchema } from '../../lib/index.js'
import apiVersioningOpenApi, { type ApiVersioningOpenApiOptions, type OpenApiDocument, type TransformObjectContext } from '../../lib/openapi/index.js'
import { logged } from './helpers.js'
import { ALL_400, allProblems, buildDocs, documentOf, errorObjectsAt, operations, problemsAt } from './openapi-helpers.js'

const ok = async () => 'ok'

t.test('one document per version, ascending, found on the routes; each valid', async t => {
  const app = await buildDocs({ problemDetails: true }, { openapi: { openapi: '3.1.0', info: { title: 'Orders', version: 'ignored', description: 'Orders API' } } }, app => {
    app.get('/orders', { apiVersions: '1.0', deprecatedApiVersions: '0.9', schema: { operationId: 'listOrders' } }, ok)
    app.get('/orders', { apiVersions: ['2.0', '2.1-beta'], schema: { operationId: 'listOrders' } }, ok)
    app.get('/hidden', { apiVersions: '9.0', schema: { hide: true } }, ok)
    app.get('/ping', { apiVersionNeutral: true }, ok)
    app.get('/health', ok)
  })
  t.same(app.apiVersionDocuments().map(d => [d.version, d.deprecated]), [['0.9', true], ['1.0', false], ['2.0', false], ['2.1-beta', false]],
    'a version declared on hidden routes only has no document')
  t.same(await allProblems(app), [])
  const v1 = documentOf(app, '1.0')
  t.same(v1.info, { title: 'Orders', version: '1.0', description: 'Orders API\n\n### Changes since 0.9\n\nNo operation changed.' })
  t.same(documentOf(app, '0.9').info.description, 'Orders API\n\nThis API version is deprecated.')
  t.same(Object.keys(operations(v1)), ['GET /orders', 'GET /ping', 'GET /health'], 'the version\'s operations, neutral and unversioned ones; never hidden ones')
  t.equal(operations(v1)['GET /orders'].deprecated, undefined)
  t.equal(operations(documentOf(app, '0.9'))['GET /orders'].deprecated, true, 'operations of a deprecated version are deprecated')
  t.equal(operations(documentOf(app, '2.1-beta'))['GET /orders'].operationId, 'listOrders', 'a route with several versions is in each of their documents')
  t.same(app.apiVersionDocuments(), app.apiVersionDocuments(), 'built once')
})

t.test("apiVersionDocuments() gives copies of the documents as served, the caller's own: editing them changes nothing served", async t => {
  const app = await buildDocs({ problemDetails: true }, { openapi: { info: { title: 'Orders', version: 'x' } } }, app => {
    app.get('/orders', { apiVersions: ['1.0', '2.0'] }, ok)
    app.get('/internal/stats', { apiVersions: ['1.0', '2.0'] }, ok)
  })
  const before = structuredClone(app.apiVersionDocuments())
  for (const { document } of app.apiVersionDocuments()) {
    document.servers = [{ url: 'https://api.example.com' }]
    delete document.paths['/internal/stats']
  }
  t.same(app.apiVersionDocuments(), before, 'each call its own copies')
  for (const { version, document } of before) t.same((await app.inject(`/openapi/${version}.json`)).json(), document, `${version} served as it was`)
  t.match((await app.inject('/openapi/2.0.yaml')).body, '/internal/stats:')
})

t.test('the version parameter: first query name and first header name, default and enum the version, first one required', async t => {
  const app = await buildDocs({ versionReader: { query: ['v', 'api-version'], header: ['x-version', 'api-version'] } }, {}, app => {
    app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok)
  })
  const param = (name: string, where: string, required: boolean, version: string) =>
    ({ name, in: where, description: 'The requested API version', required, schema: { type: 'string', default: version, enum: [version] } })
  t.same(operations(documentOf(app, '1.0'))['GET /a'].parameters, [param('v', 'query', true, '1.0'), param('x-version', 'header', false, '1.0')])
  t.same(operations(documentOf(app, '2.0'))['GET /a'].parameters, [param('v', 'query', true, '2.0'), param('x-version', 'header', false, '2.0')])

  const headerOnly = await buildDocs({ versionReader: { query: false }, assumeDefaultVersionWhenUnspecified: true, defaultVersion: '1' }, {}, app => {
    app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok)
  })
  t.same(operations(documentOf(headerOnly, '1.0'))['GET /a'].parameters, [param('api-version', 'header', false, '1.0')], 'not required for the assumed default version')
  t.same(operations(documentOf(headerOnly, '2.0'))['GET /a'].parameters, [param('api-version', 'header', true, '2.0')])
  t.same(await allProblems(headerOnly), [])

  const pathOnly = await buildDocs({ versionReader: { query: false, header: false } }, {}, app => {
    app.get('/a', { apiVersions: '1.0' }, ok)
  })
  t.equal(operations(documentOf(pathOnly, '1.0'))['GET /a'].parameters, undefined, 'no parameter where nothing reads one')
})

t.test('merged with the route\'s own querystring and headers schemas, never listed twice', async t => {
  const app = await buildDocs({ problemDetails: true }, {}, app => {
    app.get('/a', {
      apiVersions: '1.0',
      schema: {
        querystring: { type: 'object', properties: { 'api-version': { type: 'string', description: 'Which version' }, limit: { type: 'integer' } } },
        headers: { type: 'object', properties: { 'API-Version': { type: 'string' } } }
      }
    }, ok)
  })
  const parameters = operations(documentOf(app, '1.0'))['GET /a'].parameters
  t.same(parameters.map((p: { in: string, name: string }) => `${p.in} ${p.name}`), ['query api-version', 'query limit', 'header API-Version'])
  t.match(parameters[0], { description: 'Which version', required: true, schema: { type: 'string', default: '1.0', enum: ['1.0'] } })
  t.match(parameters[2], { required: false, schema: { default: '1.0' } })
  t.same(await allProblems(app), [])
})

t.test('a version in the path is written into the path, and its parameter removed', async t => {
  const app = await buildDocs({ problemDetails: true, versionReader: { urlSegment: 'v' } }, {}, app => {
    app.get('/api/v:v/things/:id', { apiVersions: ['1.0', '2.0'], schema: { params: { type: 'object', properties: { v: { type: 'string' }, id: { type: 'integer' } } } } }, ok)
    app.get('/api/v:v/ping', { apiVersionNeutral: true }, ok)
    app.get('/api/:version/plain', ok)
  })
  t.same(Object.keys(operations(documentOf(app, '2.0'))), ['GET /api/v2.0/things/{id}', 'GET /api/v2.0/ping', 'GET /api/{version}/plain'])
  const op = operations(documentOf(app, '1.0'))['GET /api/v1.0/things/{id}']
  t.same(op.parameters, [{ schema: { type: 'integer' }, in: 'path', name: 'id', required: true }], 'no query or header version either')
  t.same(Object.keys(op.responses), ['200', '400', '404'])
  t.same(op.responses['404'], { description: 'Unsupported API version', content: { 'application/problem+json': problemsAt(404, ['unsupported']) } })
  t.same(op.responses['400'].content['application/problem+json'], problemsAt(400, ['invalid', 'ambiguous']), 'the problems of 400 there, not the Unsupported of 404')
  t.same(op.responses['400'].description, 'Invalid or ambiguous API version, or a request that fails validation')
  t.same(operations(documentOf(app, '1.0'))['GET /api/{version}/plain'].parameters.map((p: { name: string }) => p.name), ['version'],
    'another parameter is left alone')
  t.same(await allProblems(app), [])
})

t.test('version errors as responses, the route\'s own response for a status kept', async t => {
  const app = await buildDocs({ problemDetails: true, unsupportedApiVersionStatusCode: 404 }, { openapi: { openapi: '3.0.3' } }, app => {
    app.get('/a', { apiVersions: '1.0' }, ok)
    app.get('/b', { apiVersions: '1.0', schema: { response: { 400: { description: 'Mine', type: 'object', properties: { why: { type: 'string' } } } } } }, ok)
    app.get('/n', { apiVersionNeutral: true }, ok)
    app.get('/p', ok)
  })
  const ops = operations(documentOf(app, '1.0'))
  t.same(ops['GET /a'].responses['400'], { description: 'Unspecified, invalid or ambiguous API version', content: { 'application/problem+json': problemsAt(400, ['unspecified', 'invalid', 'ambiguous']) } })
  t.same(ops['GET /a'].responses['404'], { description: 'Unsupported API version', content: { 'application/problem+json': problemsAt(404, ['unsupported']) } })
  t.equal(ops['GET /b'].responses['400'].description, 'Mine; or unspecified, invalid or ambiguous API version', 'merged with the version problem')
  t.same(Object.keys(ops['GET /b'].responses['400'].content), ['application/json', 'application/problem+json'])
  t.same(Object.keys(ops['GET /n'].responses), ['200', '400', '404'], 'a neutral route answers bad versions too')
  t.equal(ops['GET /n'].parameters, undefined, 'but asks for none')
  t.same(Object.keys(ops['GET /p'].responses), ['200'])
  const schema = documentOf(app, '1.0').components?.schemas?.ProblemDetails
  const { $id, ...exact } = JSON.parse(JSON.stringify(ProblemDetailsSchema))
  t.equal($id, 'ProblemDetails')
  // OpenAPI 3.0 has one `example` where JSON Schema has `examples`.
  for (const property of Object.values(exact.properties) as Array<Record<string, unknown>>) {
    property.example = (property.examples as unknown[])[0]
    delete property.examples
  }
  t.same(schema, exact, 'the exact ProblemDetailsSchema, under its name (without $id, which OpenAPI 3.0 forbids)')
  t.same(await allProblems(app), [])

  const assumed = await buildDocs({ problemDetails: true, assumeDefaultVersionWhenUnspecified: true }, {}, app => {
    app.get('/a', { apiVersions: '1.0' }, ok)
  })
  t.equal(operations(documentOf(assumed, '1.0'))['GET /a'].responses['400'].description, 'Invalid, ambiguous or unsupported API version')
})

t.test('no body without problemDetails; the error-object shape with errorObjects', async t => {
  const bare = await buildDocs({}, {}, app => { app.get('/a', { apiVersions: '1.0' }, ok) })
  const document = documentOf(bare, '1.0')
  t.same(operations(document)['GET /a'].responses['400'], { description: 'Unspecified, invalid, ambiguous or unsupported API version' })
  t.same(document.components, { schemas: {} }, 'only the schemas the document reaches')
  t.same(await allProblems(bare), [])

  const { errorObjects, default: apiVersioning } = await import('../../lib/index.js')
  const { default: apiVersioningOpenApi } = await import('../../lib/openapi/index.js')
  const app = Fastify()
  await app.register(errorObjects)
  await app.register(apiVersioning, { problemDetails: true })
  await app.register(apiVersioningOpenApi)
  app.get('/a', { apiVersions: '1.0' }, ok)
  await app.ready()
  const legacy = documentOf(app, '1.0')
  t.same(operations(legacy)['GET /a'].responses['400'].content, { 'application/json': errorObjectsAt(400, ALL_400) })
  t.same(Object.keys(legacy.components?.schemas ?? {}), ['ErrorObject'])
  t.same(await allProblems(app), [])
  const response = await app.inject('/a?api-version=3')
  t.same(Object.keys(response.json()), ['error'], 'as the server answers')
  t.same(response.json().error.target, 'api-version', 'with the target of the examples')

  // Only media types carry the version: the target is the media type parameter, and none for a missing version, in
  // the examples as in what is sent.
  for (const mediaType of [true, { template: 'application/vnd.acme.v{version}+json' }]) {
    const media = Fastify()
    await media.register(errorObjects)
    await media.register(apiVersioning, { problemDetails: true, versionReader: { query: false, header: false, urlSegment: false, mediaType } })
    await media.register(apiVersioningOpenApi)
    media.get('/a', { apiVersions: '1.0' }, ok)
    await media.ready()
    const responses = operations(documentOf(media, '1.0'))['GET /a'].responses
    const unsupported = responses['406'].content['application/json'].examples.unsupported.value
    const accept = mediaType === true ? 'application/json; v=9.0' : 'application/vnd.acme.v9.0+json'
    t.same((await media.inject({ url: '/a', headers: { accept } })).json(), unsupported, 'as the server answers')
    t.equal(unsupported.error.target, mediaType === true ? 'v' : 'application/vnd.acme.v{version}+json')
    const unspecified = responses['400'].content['application/json'].examples.unspecified.value
    t.same((await media.inject('/a')).json(), unspecified, 'as the server answers')
    t.same(Object.keys(unspecified.error), ['code', 'message', 'innerError'], 'no target')
  }
  const custom = Fastify()
  await custom.register(errorObjects)
  await custom.register(apiVersioning, { problemDetails: true, versionReader: { query: false, header: false, urlSegment: false, custom: req => req.headers['x-v'] as string | undefined } })
  await custom.register(apiVersioningOpenApi)
  custom.get('/a', { apiVersions: '1.0' }, ok)
  await custom.ready()
  const example = operations(documentOf(custom, '1.0'))['GET /a'].responses['400'].content['application/json'].examples.unsupported.value
  t.same((await custom.inject({ url: '/a', headers: { 'x-v': '9.0' } })).json(), example, 'the app\'s own reader: as the server answers')
  t.equal(example.error.target, 'custom')
})

t.test('reportApiVersions: the version headers on the responses of versioned routes', async t => {
  const app = await buildDocs({ problemDetails: true, reportApiVersions: true }, {}, app => {
    app.get('/a', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, ok)
    app.post('/a', { apiVersions: '2.0', schema: { response: { 201: { description: 'Made', type: 'string', headers: { 'API-Supported-Versions': { type: 'string', description: 'mine' } } } } } }, ok)
    app.get('/n', { apiVersionNeutral: true }, ok)
  })
  const ops = operations(documentOf(app, '1.0'))
  t.same(ops['GET /a'].responses['200'].headers, {
    'api-supported-versions': { description: 'The API versions this path supports', schema: { type: 'string' }, example: '1.0, 2.0' },
    'api-deprecated-versions': { description: 'The deprecated API versions this path still serves', schema: { type: 'string' }, example: '0.9' }
  })
  t.ok(ops['GET /a'].responses['400'].headers['api-supported-versions'], 'errors carry them too')
  t.equal(ops['GET /n'].responses['200'].headers, undefined)
  const post = operations(documentOf(app, '2.0'))['POST /a']
  t.same(Object.keys(post.responses['201'].headers), ['API-Supported-Versions', 'api-deprecated-versions'], 'a header the route declares is kept')
  const served = await app.inject('/a?api-version=1.0')
  t.equal(served.headers['api-supported-versions'], '1.0, 2.0')
  t.equal(served.headers['api-deprecated-versions'], '0.9')
  t.same(await allProblems(app), [])

  const named = await buildDocs({ reportApiVersions: { supportedHeader: 'X-Versions' } }, {}, app => {
    app.get('/a', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, ok)
  })
  t.same(Object.keys(operations(documentOf(named, '1.0'))['GET /a'].responses['200'].headers), ['x-versions', 'api-deprecated-versions'], 'the documents name the headers as sent')
  t.equal((await named.inject('/a?api-version=1.0')).headers['x-versions'], '1.0')
})

t.test('only the component schemas a document reaches, shared schemas under their $id', async t => {
  const app = await buildDocs({ problemDetails: true }, { openapi: { openapi: '3.1.0', components: { schemas: { Unused: { type: 'string' }, Base: { type: 'object', properties: { order: { $ref: '#/components/schemas/Order' } } } } } } }, app => {
    app.addSchema({ $id: 'Order', type: 'object', properties: { id: { type: 'integer' }, item: { $ref: 'Item#' } } })
    app.addSchema({ $id: 'Item', type: 'string' })
    app.addSchema({ $id: 'http://example.com/line.json', type: 'object', properties: { n: { type: 'integer' } } })
    app.get('/v1', { apiVersions: '1.0', schema: { response: { 200: { $ref: 'Order#' } } } }, ok)
    app.get('/v2', { apiVersions: '2.0', schema: { response: { 200: { $ref: 'http://example.com/line.json#' } } } }, ok)
  })
  t.same(Object.keys(documentOf(app, '1.0').components?.schemas ?? {}).sort(), ['Item', 'Order', 'ProblemDetails'])
  t.same(Object.keys(documentOf(app, '2.0').components?.schemas ?? {}).sort(), ['ProblemDetails', 'def-2'])
  t.same(await allProblems(app), [])
})

t.test('multi-method routes, prefixed plugins, and a route\'s own swaggerTransform', async t => {
  const app = await buildDocs({ problemDetails: true }, {}, async app => {
    app.post('/n', { apiVersions: '1.0', schema: { operationId: 'm-post' } }, ok)
    app.route({ method: ['GET', 'POST'], url: '/m', apiVersions: '1.0', schema: { operationId: 'm' }, handler: ok })
    await app.register(async scope => {
      scope.get('/:id', { apiVersions: ['1.0', '2.0'] }, ok)
      scope.get('/', { apiVersions: '2.0', config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, summary: 'own' }, url: url.replace(/\/$/, '') + '/own' }) } }, ok)
      scope.get('/x', { apiVersions: '2.0', config: { swaggerTransform: false } }, ok)
    }, { prefix: '/shop' })
  })
  t.same(Object.keys(operations(documentOf(app, '1.0'))), ['POST /n', 'GET /m', 'POST /m', 'GET /shop/{id}'])
  t.same(Object.values(operations(documentOf(app, '1.0'))).map(op => op.operationId), ['m-post', 'm', 'm-post3', undefined], 'operationIds stay unique')
  const v2 = operations(documentOf(app, '2.0'))
  t.same(Object.keys(v2), ['GET /shop/{id}', 'GET /shop/own', 'GET /shop/x'], 'a route with its own transform is still split')
  t.equal(v2['GET /shop/own'].summary, 'own')
  t.ok(v2['GET /shop/x'].parameters.length === 2)
  t.same(await allProblems(app), [])
})

t.test('the transform and transformObject options', async t => {
  const seen: string[] = []
  const app = await buildDocs({ problemDetails: true }, {
    transform: ({ schema, url }) => ({ schema: { ...schema, tags: ['t'] }, url: url.replace('/internal', '') }),
    transformObject: ({ document, version }) => {
      seen.push(version)
      return { ...document, info: { ...document.info, title: `Orders ${version}` } }
    }
  }, app => {
    app.get('/internal/a', { apiVersions: ['1.0', '2.0'] }, ok)
    app.get('/b', { apiVersions: '2.0', config: { swaggerTransform: ({ schema, url }) => ({ schema, url }) } }, ok)
  })
  t.equal(documentOf(app, '2.0').info.title, 'Orders 2.0')
  t.same(seen, ['1.0', '2.0'], 'once per version')
  t.same(Object.keys(operations(documentOf(app, '2.0'))), ['GET /a', 'GET /b'])
  t.same(operations(documentOf(app, '2.0'))['GET /a'].tags, ['t'])
  t.equal(operations(documentOf(app, '2.0'))['GET /b'].tags, undefined, 'a route\'s own transform replaces the global one')
})

// A transformObject written for @fastify/swagger (fastify-type-provider-zod's jsonSchemaTransformObject adds the
// components its transform's refs name) reads `openapiObject`: it serves as it is. Refs a document does not resolve
// are said, for each document that has them.
t.test("transformObject gets the document as openapiObject too, as @fastify/swagger's does; a ref a document does not have is warned of", async t => {
  const Node = { $ref: '#/components/schemas/Node' }
  const swaggerStyle = ({ openapiObject }: { openapiObject: OpenApiDocument }): OpenApiDocument =>
    ({ ...openapiObject, components: { ...openapiObject.components, schemas: { ...openapiObject.components?.schemas, Node: { type: 'object', properties: { children: { type: 'array', items: Node } } } } } })
  const trees = async (transformObject?: (context: TransformObjectContext) => OpenApiDocument) => {
    const { lines, stream } = logged()
    const app = Fastify({ logger: { level: 'warn', stream } })
    await app.register(apiVersioning, {})
    await app.register(apiVersioningOpenApi, { transformObject })
    // As a type provider's transform documents a recursive schema: a ref to a component it means to add.
    const documented = { response: { 200: { type: 'object', properties: { root: Node } } } }
    app.get('/trees', { apiVersions: ['1.0', '2.0'], schema: { response: { 200: { type: 'object', properties: { root: { type: 'object' } } } } }, config: { swaggerTransform: ({ url }: { url: string }) => ({ schema: documented, url }) } }, ok)
    await app.ready()
    app.apiVersionDocuments()
    await app.inject('/openapi/2.0.json')
    return { app, warnings: lines.filter(line => line.code === 'FST_API_VERSIONING_OPENAPI_DANGLING_REF').map(line => line.msg) }
  }
  await t.test('added by a transformObject of @fastify/swagger', async t => {
    const { app, warnings } = await trees(swaggerStyle)
    t.same(Object.keys(documentOf(app, '1.0').components?.schemas ?? {}).includes('Node'), true)
    t.same(warnings, [])
    t.same(await allProblems(app), [])
  })
  await t.test('left out: warned of, for each document, once as they are made', async t => {
    const { warnings } = await trees()
    t.same(warnings, ['1.0', '2.0'].map(version => `fastify-api-versioning/openapi: the document of ${version} refers to #/components/schemas/Node, which it does not have: OpenAPI tools cannot resolve them, and the changes between versions read them as any value; add the components they name (with fastify-type-provider-zod, give its jsonSchemaTransformObject as the transformObject option)`))
  })
})

t.test('a transformObject that throws or gives no document is a 500 naming it, logged; a promise\'s rejection ends nothing', async t => {
  let give: (document: OpenApiDocument) => unknown = document => document
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'error', stream } })
  await app.register(apiVersioning, { problemDetails: true })
  await app.register(apiVersioningOpenApi, { ui: true, transformObject: ({ document }) => give(document) as OpenApiDocument })
  app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok)
  await app.ready()
  const cases: Array<[string, (document: OpenApiDocument) => unknown, RegExp]> = [
    // What it threw is the cause, which loggers show after the message (pino: 'threw for version 1.0: no docs today').
    ['throws', () => { throw new Error('no docs today') }, /^fastify-api-versioning\/openapi: transformObject threw for version 1\.0(: no docs today)?$/],
    ['rejects', async () => { throw new Error('no docs today') }, /^fastify-api-versioning\/openapi: transformObject returned a promise; it must return the document synchronously \(version 1\.0\)$/],
    ['resolves', async document => document, /transformObject returned a promise; it must return the document synchronously/],
    ['gives nothing', () => undefined, /^fastify-api-versioning\/openapi: transformObject returned undefined, not a document with info and paths \(version 1\.0\)$/],
    ['gives text', () => 'openapi: 3.1.0', /transformObject returned openapi: 3\.1\.0, not a document with info and paths/],
    ['gives a document without paths', document => ({ ...document, paths: null }), /transformObject returned \[object Object\], not a document with info and paths/]
  ]
  for (const [what, transform, message] of cases) {
    give = transform
    for (const url of ['/openapi/2.0.json', '/openapi/swagger-config', '/openapi/changes.json', '/docs/json']) {
      lines.length = 0
      const res = await app.inject(url)
      t.equal(res.statusCode, 500, `${what}: ${url}`)
      t.equal(res.json().code, 'FST_API_VERSIONING_OPENAPI_TRANSFORM_FAILED', `${what}: ${url}`)
      t.match(lines, [{ err: { message } }], `${what}: ${url}: logged`)
    }
    t.throws(() => app.apiVersionDocuments(), { code: 'FST_API_VERSIONING_OPENAPI_TRANSFORM_FAILED', message })
  }
  t.equal(lines.at(-1)?.err?.message, 'fastify-api-versioning/openapi: transformObject returned [object Object], not a document with info and paths (version 1.0)')
  // Each promise's rejection was handled: none is left for the event loop's next turn.
  await new Promise(resolve => setImmediate(resolve))
  give = document => document
  t.equal((await app.inject('/openapi/2.0.json')).statusCode, 200, 'served again once it gives a document')
})

t.test('a transform that gives other than { schema?, url? } fails ready(), naming it', async t => {
  const cases: Array<[ApiVersioningOpenApiOptions['transform'], boolean, RegExp]> = [
    [() => Promise.reject(new Error('later')) as never, false, /^fastify-api-versioning\/openapi: the transform option returned a promise; return \{ schema, url \} synchronously$/],
    [() => undefined as never, false, /^fastify-api-versioning\/openapi: the transform option returned undefined, not \{ schema\?, url\? \}$/],
    [() => Promise.resolve({}) as never, true, /^fastify-api-versioning\/openapi: the config\.swaggerTransform of GET \/b returned a promise; return \{ schema, url \} synchronously$/]
  ]
  for (const [transform, own, message] of cases) {
    await t.rejects(buildDocs({ problemDetails: true }, own ? {} : { transform }, app => {
      app.get('/b', { apiVersions: '1.0', config: own ? { swaggerTransform: transform as never } : {} }, ok)
    }), { code: 'FST_API_VERSIONING_OPENAPI_OPTION', message })
  }
  await new Promise(resolve => setImmediate(resolve))
})

t.test('without versioned routes: the default version\'s document', async t => {
  const app = await buildDocs({ defaultVersion: '3.0' }, { openapi: { paths: { '/static': { summary: 'kept', get: { responses: { 200: { description: 'from the base document' } } } } } } }, app => {
    app.get('/health', ok)
  })
  t.same(app.apiVersionDocuments().map(d => [d.version, d.deprecated]), [['3.0', false]])
  t.same(Object.keys(documentOf(app, '3.0').paths), ['/static', '/health'])
  t.equal(documentOf(app, '3.0').paths['/static'].summary, 'kept', 'path items keep what is not an operation')
  t.same(await allProblems(app), [])
})

t.test('documents are available once the app is ready', async t => {
  const app = Fastify()
  const { default: apiVersioning } = await import('../../lib/index.js')
  const { default: apiVersioningOpenApi } = await import('../../lib/openapi/index.js')
  await app.register(apiVersioning)
  await app.register(apiVersioningOpenApi)
  t.throws(() => app.apiVersionDocuments(), /apiVersionDocuments\(\) and apiVersionChanges\(\) are available once the app is ready/)
  await app.ready()
  t.equal(app.apiVersionDocuments().length, 1)
})

t.test('the document checks catch what they are for', async t => {
  const { problemsOf } = await import('./openapi-helpers.js')
  const operation = (extra: object) => ({ responses: { 200: { description: 'ok' } }, ...extra })
  const problems = await problemsOf({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/a/{id}': { get: operation({ operationId: 'x', parameters: [{ name: 'q', in: 'query' }, { name: 'q', in: 'query' }] }) },
      '/b': { get: operation({ operationId: 'x', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] }) },
      '/c': { get: operation({ responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Gone' } } } } } }) }
    },
    components: { schemas: { Bad: { $id: 'Bad', type: 'object' } } }
  })
  t.match(problems, [
    /^invalid OpenAPI/,
    'GET /a/{id}: no parameter for {id}',
    'GET /a/{id}: a parameter is listed twice',
    'GET /b: path parameter id is not in the path',
    'GET /b: operationId x is not unique',
    '$ref to missing schema Gone'
  ])
})
