import t from 'tap'
import Fastify from 'fastify'
import apiVersioning from '../../lib/index.js'
import apiVersioningOpenApi, { type OpenApiDocument } from '../../lib/openapi/index.js'
import { allProblems, buildDocs } from './openapi-helpers.js'

const ok = async () => null

t.test('operations added, removed and deprecated from each version to the next, versions in order and operations by path then method', async t => {
  const app = await buildDocs({ problemDetails: true, versionReader: { query: 'api-version', urlSegment: 'v' } }, {}, app => {
    app.put('/b', { apiVersions: '2.0-beta' }, ok)
    app.get('/a/b', { apiVersions: ['2.0-beta', '2.0'] }, ok)
    app.get('/z', { apiVersions: '1.0' }, ok)
    app.post('/a', { apiVersions: ['2.0-beta', '2.0'] }, ok)
    app.get('/a', { apiVersions: ['1.0', '2.0-beta'], deprecatedApiVersions: '2.0' }, ok)
    // Deprecated from the start: added, and deprecated.
    app.delete('/a', { deprecatedApiVersions: '2.0' }, ok)
    // Each version's path has its version: one operation all the same.
    app.get('/api/v:v/things', { apiVersions: ['1.0', '2.0-beta', '2.0'] }, ok)
    app.get('/api/v:v/things/:id', { apiVersions: ['1.0', '2.0-beta'], schema: { response: { 200: { type: 'string' } } } }, ok)
    app.get('/api/v:v/things/:id', { apiVersions: '2.0', schema: { response: { 200: { type: 'integer' } } } }, ok)
    // The same route in every document: never a change.
    app.get('/health', { apiVersionNeutral: true, schema: { querystring: { type: 'object', properties: { deep: { type: 'boolean' } } } } }, ok)
    app.get('/plain', ok)
  })
  const changes = app.apiVersionChanges()
  t.same(changes, [
    { from: '1.0', to: '2.0-beta', descriptions: [], added: ['POST /a', 'GET /a/b', 'PUT /b'], removed: ['GET /z'], hidden: [], deprecated: [], changed: [] },
    {
      from: '2.0-beta',
      to: '2.0',
      descriptions: [],
      added: ['DELETE /a'],
      removed: ['PUT /b'],
      hidden: [],
      deprecated: ['GET /a', 'DELETE /a'],
      changed: [{
        operation: 'GET /api/v2.0/things/{id}',
        breaking: true,
        changes: ['response 200: type changed from `string` to `integer`'],
        details: [{ change: 'response 200: type changed from `string` to `integer`', breaking: true }]
      }]
    }
  ], 'a 2.0-beta comes before 2.0, as ApiVersion orders them')
  t.equal(app.apiVersionChanges(), changes, 'made once while nothing changes')
  t.ok(Object.isFrozen(changes[1].changed[0].changes), 'shared, so frozen')
  t.ok(Object.isFrozen(changes[1].changed[0].details) && Object.isFrozen(changes[1].changed[0].details[0]), 'each change too')
  t.same(await allProblems(app), [])

  const served = await app.inject('/openapi/changes.json')
  t.equal(served.statusCode, 200)
  t.equal(served.headers['content-type'], 'application/json; charset=utf-8')
  t.same(served.json(), changes, 'served as apiVersionChanges() gives them')
  const head = await app.inject({ method: 'HEAD', url: '/openapi/changes.json' })
  t.equal(head.statusCode, 200)
  t.equal(head.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(head.body, '')
  t.equal((await app.inject({ method: 'POST', url: '/openapi/changes.json' })).statusCode, 404)
  t.equal((await app.inject('/openapi/changes.yaml')).statusCode, 404)
})

t.test('one version, or none that differ: no pairs, or pairs without changes', async t => {
  const one = await buildDocs({ problemDetails: true }, { routePrefix: '/api-docs' }, app => { app.get('/a', { apiVersions: '1.0' }, ok) })
  t.same(one.apiVersionChanges(), [])
  t.same((await one.inject('/api-docs/changes.json')).json(), [], 'under routePrefix')
  const same = await buildDocs({ problemDetails: true }, {}, app => { app.get('/a', { apiVersions: ['1.0', '1.1'] }, ok) })
  t.same(same.apiVersionChanges(), [{ from: '1.0', to: '1.1', descriptions: [], added: [], removed: [], hidden: [], deprecated: [], changed: [] }])
})

t.test('schemas are compared through their $refs: shared schemas, recursive ones, and the components of the base document', async t => {
  const app = await buildDocs({ problemDetails: true }, { openapi: { openapi: '3.1.0' } }, app => {
    app.addSchema({ $id: 'Node', type: 'object', properties: { id: { type: 'integer' }, next: { $ref: 'Node#' }, children: { type: 'array', items: { $ref: 'Node#' } } } })
    app.addSchema({ $id: 'Tree', type: 'object', required: ['id'], properties: { id: { type: 'string' }, label: { type: 'string' }, next: { $ref: 'Tree#' }, children: { type: 'array', items: { $ref: 'Tree#' } } } })
    app.get('/nodes', { apiVersions: '1.0', schema: { response: { 200: { $ref: 'Node#' } } } }, ok)
    app.get('/nodes', { apiVersions: '2.0', schema: { response: { 200: { $ref: 'Tree#' } } } }, ok)
    app.get('/same', { apiVersions: ['1.0', '2.0'], schema: { response: { 200: { type: 'array', items: { $ref: 'Node#' } } } } }, ok)
  })
  t.same(app.apiVersionChanges()[0].changed, [{
    operation: 'GET /nodes',
    breaking: true,
    // Each recursion stops where it meets the same two schemas again.
    changes: ['response 200: type of `id` changed from `integer` to `string`', 'response 200: property `id` newly required', 'response 200: property `label` added'],
    details: [
      { change: 'response 200: type of `id` changed from `integer` to `string`', breaking: true },
      { change: 'response 200: property `id` newly required', breaking: false },
      { change: 'response 200: property `label` added', breaking: false }
    ]
  }])
  t.same(await allProblems(app), [])
})

t.test('refs of the base document and transformObject: parameters, bodies and responses by $ref, refs that lead nowhere or in a loop', async t => {
  // What a transformObject may write: components of every kind, and refs the comparison cannot follow.
  const shaped = (version: string) => ({
    paths: {
      '/shaped/{id}': {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        post: {
          parameters: [{ $ref: '#/components/parameters/Q' }],
          requestBody: { $ref: '#/components/requestBodies/Body' },
          responses: { 200: { $ref: '#/components/responses/Ok' }, 204: { description: 'No content' } }
        }
      },
      ...(version === '1.0' ? { '/once': { get: { responses: { 200: { description: 'ok' } } } } } : {})
    },
    components: {
      parameters: {
        Id: { name: 'id', in: 'path', required: true, schema: { type: version === '1.0' ? 'string' : 'integer' } },
        Q: { name: 'q', in: 'query', required: version !== '1.0', schema: { type: 'string' } }
      },
      requestBodies: { Body: { required: version !== '1.0', content: { 'application/json': { schema: { $ref: '#/components/schemas/Loop' } } } } },
      responses: { Ok: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Result' } } } } },
      schemas: {
        Loop: { $ref: '#/components/schemas/Loop2' },
        Loop2: { $ref: '#/components/schemas/Loop' },
        Result: {
          type: 'object',
          properties: {
            self: { allOf: [{ $ref: '#/components/schemas/Result' }] },
            far: { $ref: 'other.json#/components/schemas/Far' },
            gone: { $ref: version === '1.0' ? '#/components/schemas/Gone' : '#/components/schemas/Here' },
            'a/b~c': { $ref: '#/components/schemas/a~1b~0c' },
            old: { type: 'string', nullable: true },
            size: { type: 'integer', nullable: version === '1.0' },
            kind: { const: version === '1.0' ? 'a' : 'b' },
            // Types known by their keywords alone.
            untyped: version === '1.0' ? { properties: { a: { type: 'string' } } } : { items: { type: 'string' } },
            twice: { $ref: '#/components/schemas/Twice' }
          }
        },
        // All of itself and more: itself adds nothing more.
        Twice: { allOf: [{ $ref: '#/components/schemas/Twice' }, { properties: { n: { type: version === '1.0' ? 'integer' : 'number' } } }] },
        Here: { type: 'string' },
        'a/b~c': { type: version === '1.0' ? 'boolean' : 'string' }
      }
    }
  })
  const app = await buildDocs({ problemDetails: true }, {
    openapi: { openapi: '3.0.3' },
    transformObject: ({ document, version }) => {
      const { paths, components } = shaped(version)
      return { ...document, paths: { ...document.paths, ...paths }, components: { ...document.components, ...components, schemas: { ...document.components?.schemas, ...components.schemas } } } as OpenApiDocument
    }
  }, app => { app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok) })
  t.same(app.apiVersionChanges(), [{
    from: '1.0',
    to: '2.0',
    descriptions: [],
    added: [],
    removed: ['GET /once'],
    hidden: [],
    deprecated: [],
    changed: [{
      operation: 'POST /shaped/{id}',
      breaking: true,
      changes: [
        'path parameter `id`: type changed from `string` to `integer`',
        'query parameter `q` newly required',
        'request body newly required',
        'response 200: type of `a/b~c` changed from `boolean` to `string`',
        'response 200: value `"b"` added to the enum of `kind`',
        // Result is part of itself (`self` has its properties): each pair of schemas is compared once, where it is
        // first met, properties in name order: `self.size` before `size`, and never both.
        'response 200: type of `self.twice.n` changed from `integer` to `number`',
        'response 200: type of `self.untyped` changed from `object` to `array`',
        'response 200: type of `gone` changed from any to `string`',
        'response 200: value `"a"` removed from the enum of `kind`',
        'response 200: type of `self.size` changed from `integer | null` to `integer`'
      ],
      details: [
        { change: 'path parameter `id`: type changed from `string` to `integer`', breaking: true },
        { change: 'query parameter `q` newly required', breaking: true },
        { change: 'request body newly required', breaking: true },
        { change: 'response 200: type of `a/b~c` changed from `boolean` to `string`', breaking: true },
        { change: 'response 200: value `"b"` added to the enum of `kind`', breaking: true },
        { change: 'response 200: type of `self.twice.n` changed from `integer` to `number`', breaking: true },
        { change: 'response 200: type of `self.untyped` changed from `object` to `array`', breaking: true },
        { change: 'response 200: type of `gone` changed from any to `string`', breaking: false },
        { change: 'response 200: value `"a"` removed from the enum of `kind`', breaking: false },
        { change: 'response 200: type of `self.size` changed from `integer | null` to `integer`', breaking: false }
      ]
    }]
  }], 'changes follow the documents as transformObject leaves them')
})

t.test('a request body made optional, or added optional: not breaking', async t => {
  const bodies: Record<string, unknown[]> = {
    '/optional': [{ required: true, content: {} }, { content: {} }],
    '/added': [undefined, { content: {} }]
  }
  const app = await buildDocs({ problemDetails: true }, {
    transformObject: ({ document, version }) => {
      for (const [path, [v1, v2]] of Object.entries(bodies)) {
        document.paths[path] = { post: { requestBody: version === '1.0' ? v1 : v2, responses: { 200: { description: 'ok' } } } }
      }
      return document
    }
  }, app => { app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok) })
  t.same(app.apiVersionChanges()[0].changed, [
    { operation: 'POST /added', breaking: false, changes: ['request body added'], details: [{ change: 'request body added', breaking: false }] },
    { operation: 'POST /optional', breaking: false, changes: ['request body no longer required'], details: [{ change: 'request body no longer required', breaking: false }] }
  ])
})

t.test('media types that name the version are each version\'s own: no change', async t => {
  for (const mediaType of ['v', { template: 'application/vnd.acme.v{version}+json' }, { parameter: 'v', template: 'application/vnd.acme.v{version}+json' }] as const) {
    const app = await buildDocs({ problemDetails: true, versionReader: { mediaType } }, {}, app => {
      app.post('/orders', { apiVersions: ['1.0', '2.0'], schema: { body: { type: 'object' }, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, ok)
      app.get('/text', { apiVersions: ['1.0', '2.0'], schema: { response: { 200: { content: { 'text/plain': { schema: { type: 'string' } } } } } } }, ok)
      app.get('/list', { apiVersions: '1.0', schema: { response: { 200: { type: 'array', items: { type: 'string' } } } } }, ok)
      app.get('/list', { apiVersions: '2.0', schema: { response: { 200: { type: 'array', items: { type: 'integer' } } } } }, ok)
    })
    t.same(app.apiVersionChanges()[0].changed, [
      { operation: 'GET /list', breaking: true, changes: ['response 200: type of `[]` changed from `string` to `integer`'], details: [{ change: 'response 200: type of `[]` changed from `string` to `integer`', breaking: true }] }
    ], JSON.stringify(mediaType))
  }
})

t.test('apiVersionChanges() is available once the app is ready', async t => {
  const app = Fastify()
  await app.register(apiVersioning)
  await app.register(apiVersioningOpenApi)
  t.throws(() => app.apiVersionChanges(), { code: 'FST_API_VERSIONING_NOT_READY', message: /apiVersionDocuments\(\) and apiVersionChanges\(\) are available once the app is ready/ })
  await app.ready()
  t.same(app.apiVersionChanges(), [])
})

t.test('paths are matched in linear time: a path of many `{` without `}` is read once, not again from each', async t => {
  const path = '/' + '{'.repeat(32_768)
  const app = await buildDocs({ problemDetails: true }, {
    transformObject: ({ document }) => ({ ...document, paths: { ...document.paths, [path]: { get: { parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } } } })
  }, app => { app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok) })
  const start = performance.now()
  const [changes] = app.apiVersionChanges()
  // Quadratic, as it was, this took seconds (2.6 s for 16k characters, four times that here); linear, milliseconds.
  t.ok(performance.now() - start < 1000, `${Math.round(performance.now() - start)} ms`)
  t.same(changes.changed, [], 'the same operation in both')
})

t.test('what no rule reads is said, not judged, wherever it is; what only documents is no change', async t => {
  // What a transformObject may write, and @fastify/swagger never does: parameter styles, parameters described by
  // content, encodings, callbacks, servers, header objects with their own words, OpenAPI 3.0's exclusive flags.
  const shaped = (version: string): OpenApiDocument['paths'] => {
    const one = version === '1.0'
    return {
      '/shaped': {
        servers: [{ url: one ? 'https://a.example.com' : 'https://b.example.com' }],
        summary: one ? 'Old words' : 'New words',
        post: {
          'x-internal': one,
          // A scheme no document defines: the same in both.
          security: [{ token: [] }],
          parameters: [
            { name: 'ids', in: 'query', style: one ? 'form' : 'pipeDelimited', schema: { type: 'array', items: { type: 'string' } } },
            { name: 'filter', in: 'query', content: { 'application/json': { schema: { type: one ? 'string' : 'integer' } } } },
            { name: 'n', in: 'query', schema: { type: 'integer', minimum: 0, exclusiveMinimum: !one } }
          ],
          requestBody: {
            required: true,
            content: { 'multipart/form-data': { schema: { type: 'object' }, encoding: { file: { contentType: one ? 'image/png' : 'image/jpeg' } } } }
          },
          callbacks: { done: { '{$request.body#/url}': { post: { responses: { [one ? 200 : 204]: { description: 'ok' } } } } } },
          responses: {
            200: {
              description: one ? 'Fine' : 'Good',
              headers: {
                'X-Rate': { required: one, style: one ? 'simple' : undefined, description: one ? 'a' : 'b', schema: { type: 'integer' } },
                'X-Id': { required: !one, schema: { type: 'string' } }
              }
            }
          }
        }
      },
      '/refs': {
        get: {
          responses: {
            200: {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      // Compared through its ref: the component changed.
                      a: { type: 'string', not: { $ref: '#/components/schemas/Banned' } },
                      // A ref that leads nowhere is its text.
                      b: { type: 'object', default: { $ref: one ? 'other.json#/x' : 'other.json#/y' } },
                      // A ref back into itself, the same in both.
                      c: { $ref: '#/components/schemas/Loop' }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  const app = await buildDocs({ problemDetails: true }, {
    openapi: { openapi: '3.0.3' },
    transformObject: ({ document, version }) => ({
      ...document,
      paths: { ...document.paths, ...shaped(version) },
      components: {
        ...document.components,
        schemas: {
          ...document.components?.schemas,
          Banned: { enum: [version === '1.0' ? 'x' : 'y'] },
          Loop: { type: 'object', not: { properties: { next: { $ref: '#/components/schemas/Loop' } } } }
        }
      }
    })
  }, app => { app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok) })
  const [changes] = app.apiVersionChanges()
  t.same(changes.changed.map(({ operation, details }) => ({ operation, details })), [
    {
      operation: 'GET /refs',
      details: [
        { change: 'response 200: changed (not judged): `not` of `a`', breaking: false },
        { change: 'response 200: changed (not judged): `default` of `b`', breaking: false }
      ]
    },
    {
      operation: 'POST /shaped',
      details: [
        { change: 'query parameter `n`: `exclusiveMinimum` set to `true`', breaking: true },
        { change: 'response 200: header `X-Rate` no longer required', breaking: true },
        { change: 'query parameter `filter`: changed (not judged): `content`', breaking: false },
        { change: 'query parameter `ids`: changed (not judged): `style`', breaking: false },
        { change: 'request body: changed (not judged): `encoding`', breaking: false },
        { change: 'response 200: header `X-Id` newly required', breaking: false },
        { change: 'response 200: header `X-Rate`: changed (not judged): `style`', breaking: false },
        { change: 'changed (not judged): `callbacks`, `servers`', breaking: false }
      ]
    }
  ])
})

t.test('values that lead back into themselves are the same when no difference can be reached from them; shared schemas are compared once; a schema too deep is said, not compared', async t => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
  const levels = (count: number): Record<string, unknown> => Object.fromEntries(Array.from({ length: count + 1 }, (_, i) =>
    [`D${i}`, i === count ? { type: 'string' } : { type: 'object', properties: { a: ref(`D${i + 1}`), b: ref(`D${i + 1}`) } }]))
  const schemas = (version: string): Record<string, unknown> => ({
    // A and B lead into each other; A differs, so B (which leads to A) differs too, whichever is compared first.
    A: { properties: { inner: ref('B') }, const: version === '1.0' ? 'x' : 'y' },
    B: { properties: { back: ref('A') } },
    // One loop of one schema in 1.0, the same loop written as two in 2.0: the same values.
    Loop: { not: version === '1.0' ? ref('Loop') : ref('Loop2') },
    Loop2: { not: ref('Loop') },
    ...levels(101)
  })
  const app = await buildDocs({ problemDetails: true }, {
    openapi: { openapi: '3.0.3' },
    transformObject: ({ document, version }) => ({
      ...document,
      paths: {
        ...document.paths,
        '/loops': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { a: { not: ref('A') }, b: { not: ref('B') }, c: { not: ref('Loop') }, d: version === '1.0' ? { not: ref('Loop') } : {}, e: version === '1.0' ? {} : { not: ref('Loop') } } } } } } } } },
        '/deep': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: ref('D0') } } } } } }
      },
      components: { ...document.components, schemas: { ...document.components?.schemas, ...schemas(version) } }
    })
  }, app => { app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok) })
  const [changes] = app.apiVersionChanges()
  t.same(changes.changed.map(({ operation, details }) => ({ operation, details })), [
    { operation: 'GET /deep', details: [{ change: 'not compared: a schema nests deeper than 100 levels, its $refs followed', breaking: false }] },
    {
      operation: 'GET /loops',
      details: [
        { change: 'response 200: changed (not judged): `not` of `a`', breaking: false },
        { change: 'response 200: changed (not judged): `not` of `b`', breaking: false },
        { change: 'response 200: changed (not judged): `not` of `d`', breaking: false },
        { change: 'response 200: changed (not judged): `not` of `e`', breaking: false }
      ]
    }
  ])

  // What the app's own document throws, where it is read (as a walk over what it lists) or compared, is not taken
  // for a schema too deep.
  for (const enumerable of [true, false]) {
    const broken = await buildDocs({ problemDetails: true }, {
      transformObject: ({ document, version }) => ({
        ...document,
        paths: { ...document.paths, '/broken': { get: Object.defineProperty({}, 'responses', { enumerable, get (): never { throw new Error(`no responses in ${version}`) } }) } }
      })
    }, app => { app.get('/a', { apiVersions: ['1.0', '2.0'] }, ok) })
    t.throws(() => broken.apiVersionChanges(), { message: 'no responses in 1.0' })
  }
})

t.test("security: an operation's own requirements, else the document's; the schemes they name compared, not judged", async t => {
  const app = await buildDocs({ problemDetails: true }, {
    openapi: { openapi: '3.1.0', components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } },
    transformObject: ({ document, version }) => ({
      ...document,
      ...(version === '2.0' ? { security: [{ bearer: [] }] } : {}),
      components: { ...document.components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', ...(version === '2.0' ? { bearerFormat: 'JWT' } : {}) } } }
    })
  }, app => {
    // Needs the document's requirement in 2.0.
    app.get('/inherits', { apiVersions: ['1.0', '2.0'] }, ok)
    // Open in both, whatever the document says.
    app.get('/open', { apiVersions: ['1.0', '2.0'], schema: { security: [] } }, ok)
    // Its own requirement in both: the scheme it names changed.
    app.get('/own', { apiVersions: ['1.0', '2.0'], schema: { security: [{ bearer: [] }] } }, ok)
  })
  t.same(app.apiVersionChanges()[0].changed.map(({ operation, details }) => ({ operation, details })), [
    { operation: 'GET /inherits', details: [{ change: 'security requirement `bearer` added', breaking: true }] },
    { operation: 'GET /own', details: [{ change: 'changed (not judged): security scheme `bearer`', breaking: false }] }
  ])
})
