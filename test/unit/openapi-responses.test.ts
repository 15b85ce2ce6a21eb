import t from 'tap'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { Ajv } from 'ajv'
import apiVersioning, { errorObjects, ProblemDetailsSchema } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { ALL_400, allProblems, buildDocs, documentOf, errorObjectsAt, operations, problemsAt } from './openapi-helpers.js'

const ok = async () => 'ok'
const problem = { schema: { $ref: '#/components/schemas/ProblemDetails' } }
const fastifyError = { schema: { $ref: '#/components/schemas/FastifyError' } }
const errorObject = { schema: { $ref: '#/components/schemas/ErrorObject' } }
const strict = { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer' } } } as const

t.test('a route that validates documents its 400 with both bodies, each under the media type the server sends', async t => {
  const app = await buildDocs({ problemDetails: true }, { openapi: { openapi: '3.0.3' } }, app => {
    app.get('/query', { apiVersions: '1.0', schema: { querystring: strict } }, ok)
    app.post('/body', { apiVersions: '1.0', schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } }, ok)
    app.get('/params/:id', { apiVersions: '1.0', schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, ok)
    app.get('/headers', { apiVersionNeutral: true, schema: { headers: { type: 'object', required: ['x-n'], properties: { 'x-n': { type: 'integer' } } } } }, ok)
    app.get('/none', { apiVersions: '1.0' }, ok)
  })
  const ops = operations(documentOf(app, '1.0'))
  for (const label of ['GET /query', 'POST /body', 'GET /params/{id}']) {
    t.same(ops[label].responses['400'], {
      description: 'Unspecified, invalid, ambiguous or unsupported API version, or a request that fails validation',
      content: { 'application/problem+json': problemsAt(400, ALL_400), 'application/json': fastifyError }
    }, label)
  }
  t.same(ops['GET /headers'].responses['400'].content, { 'application/problem+json': problemsAt(400, ['invalid', 'ambiguous', 'unsupported']), 'application/json': fastifyError })
  t.same(ops['GET /none'].responses['400'].content, { 'application/problem+json': problemsAt(400, ALL_400) }, 'nothing to validate, one body')
  // The shape is the one Fastify's error handler writes, for a schema that fails and for a body that is no JSON.
  const validate = new Ajv({ strict: false }).compile(documentOf(app, '1.0').components?.schemas?.FastifyError as object)
  const failures = [
    await app.inject('/query?api-version=1.0&limit=x'),
    await app.inject({ method: 'POST', url: '/body?api-version=1.0', headers: { 'content-type': 'application/json' }, payload: '{"n":' })
  ]
  for (const failure of failures) {
    t.equal(failure.statusCode, 400)
    t.match(failure.headers['content-type'], /^application\/json/)
    t.ok(validate(failure.json()), failure.body)
  }
  t.notOk(validate({ message: 'no status' }), 'statusCode, error and message are required')
  t.same(await allProblems(app), [])

  t.match(failures[0].json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: String })
  const version = await app.inject('/query?api-version=x')
  t.match(version.headers['content-type'], /^application\/problem\+json/)
})

t.test('an unversioned route that validates documents the 400 the server answers: Fastify\'s validation error', async t => {
  const app = await buildDocs({ problemDetails: true }, {}, app => {
    app.get('/plain', { schema: { querystring: strict } }, ok)
    app.post('/plain', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } }, ok)
    app.get('/plain/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, ok)
    app.get('/plain-headers', { schema: { headers: { type: 'object', required: ['x-n'], properties: { 'x-n': { type: 'integer' } } } } }, ok)
    app.get('/mine', { schema: { querystring: strict, response: { 400: { description: 'Mine', type: 'object', properties: { why: { type: 'string' } } } } } }, ok)
    app.get('/problem', { schema: { querystring: strict, response: { 400: { content: { 'application/problem+json': { schema: { type: 'object', properties: { why: { type: 'string' } } } } } } } } }, ok)
    app.get('/range', { schema: { querystring: strict, response: { '4xx': { description: 'Any client error', type: 'object', properties: { why: { type: 'string' } } } } } }, ok)
    app.get('/unchecked', ok)
    app.get('/versioned', { apiVersions: '1.0' }, ok)
  })
  const document = documentOf(app, '1.0')
  const ops = operations(document)
  for (const label of ['GET /plain', 'POST /plain', 'GET /plain/{id}', 'GET /plain-headers']) {
    t.same(ops[label].responses['400'], { description: 'A request that fails validation', content: { 'application/json': fastifyError } }, label)
  }
  t.same(ops['GET /mine'].responses['400'], {
    description: 'Mine', content: { 'application/json': { schema: { description: 'Mine', type: 'object', properties: { why: { type: 'string' } } } } }
  }, 'a 400 the route declares under application/json stands for its validation errors')
  t.same(ops['GET /problem'].responses['400'], {
    description: "A request that fails validation, or the route's own response",
    content: { 'application/problem+json': { schema: { type: 'object', properties: { why: { type: 'string' } } } }, 'application/json': fastifyError }
  }, 'one under another media type is kept beside it')
  t.notOk(ops['GET /range'].responses['400'], 'a 4XX the route declares under application/json stands too')
  t.notOk(ops['GET /unchecked'].responses['400'], 'nothing to validate, no 400')
  t.same(await allProblems(app), [])

  // What the server answers, checked against the document.
  const validate = new Ajv({ strict: false }).compile(document.components?.schemas?.FastifyError as object)
  const failures = [
    await app.inject('/plain?limit=x'),
    await app.inject({ method: 'POST', url: '/plain', payload: {} }),
    await app.inject('/plain/x'),
    await app.inject('/plain-headers')
  ]
  for (const failure of failures) {
    t.equal(failure.statusCode, 400, failure.body)
    t.match(failure.headers['content-type'], /^application\/json/)
    t.ok(validate(failure.json()), failure.body)
    t.match(failure.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request' })
  }

  // With errorObjects and allErrors, Fastify's errors are rewritten: the document says so.
  const legacy = Fastify()
  await legacy.register(errorObjects, { allErrors: true })
  await legacy.register(apiVersioning)
  await legacy.register(apiVersioningOpenApi)
  legacy.get('/plain', { schema: { querystring: strict } }, ok)
  await legacy.ready()
  t.same(operations(documentOf(legacy, '1.0'))['GET /plain'].responses['400'].content, { 'application/json': errorObject })
  t.type((await legacy.inject('/plain?limit=x')).json().error, 'object', 'as the server answers')
  t.same(await allProblems(legacy), [])
})

t.test('a route with attachValidation answers no validation error of Fastify\'s: its handler decides, so none is documented', async t => {
  const app = await buildDocs({ problemDetails: true }, {}, app => {
    app.get('/plain', { attachValidation: true, schema: { querystring: strict } }, ok)
    app.get('/versioned', { apiVersions: '1.0', attachValidation: true, schema: { querystring: strict } }, ok)
  })
  const ops = operations(documentOf(app, '1.0'))
  t.notOk(ops['GET /plain'].responses['400'])
  t.same(ops['GET /versioned'].responses['400'], { description: 'Unspecified, invalid, ambiguous or unsupported API version', content: { 'application/problem+json': problemsAt(400, ALL_400) } })
  t.equal((await app.inject('/plain?limit=x')).statusCode, 200, 'as the server answers')
  t.equal((await app.inject('/versioned?api-version=1.0&limit=x')).statusCode, 200)
})

t.test('a 400 the route declares is merged with the version problem, not replaced', async t => {
  const app = await buildDocs({ problemDetails: true }, {}, app => {
    app.get('/a', { apiVersions: '1.0', schema: { querystring: strict, response: { 400: { description: 'Mine', type: 'object', properties: { why: { type: 'string' } } } } } }, ok)
    app.get('/b', { apiVersions: '1.0', schema: { response: { 400: { content: { 'application/problem+json': { schema: { type: 'object', properties: { why: { type: 'string' } } } } } } } } }, ok)
  })
  const ops = operations(documentOf(app, '1.0'))
  t.same(ops['GET /a'].responses['400'], {
    description: 'Mine; or unspecified, invalid, ambiguous or unsupported API version',
    content: {
      'application/json': { schema: { description: 'Mine', type: 'object', properties: { why: { type: 'string' } } } },
      'application/problem+json': problemsAt(400, ALL_400)
    }
  }, 'the declared body stays, and says what a validation error is')
  t.same(ops['GET /b'].responses['400'].content, {
    'application/problem+json': { schema: { anyOf: [{ type: 'object', properties: { why: { type: 'string' } } }, problem.schema] }, examples: problemsAt(400, ALL_400).examples }
  }, 'two bodies under one media type are either')
  t.same(await allProblems(app), [])

  // With errorObjects, version errors and (with allErrors) validation errors are error objects under application/json.
  for (const allErrors of [false, true]) {
    const legacy = Fastify()
    await legacy.register(errorObjects, { allErrors })
    await legacy.register(apiVersioning, { problemDetails: true })
    await legacy.register(apiVersioningOpenApi)
    legacy.get('/q', { apiVersions: '1.0', schema: { querystring: strict } }, ok)
    legacy.get('/p', { schema: { response: { 409: ProblemDetailsSchema } } }, async (request, reply) => reply.problem({ status: 409, title: 'Conflict' }))
    legacy.get('/typed', { schema: { response: { 409: { content: { 'application/problem+json': { schema: ProblemDetailsSchema } } } } } }, async (request, reply) => reply.problem({ status: 409, title: 'Conflict' }))
    await legacy.ready()
    const ops = operations(documentOf(legacy, '1.0'))
    t.same(ops['GET /q'].responses['400'].content, {
      'application/json': allErrors ? errorObjectsAt(400, ALL_400) : { schema: { anyOf: [errorObject.schema, fastifyError.schema] }, examples: errorObjectsAt(400, ALL_400).examples }
    }, `allErrors: ${allErrors}`)
    t.same(ops['GET /p'].responses['409'].content, allErrors ? { 'application/json': { schema: { anyOf: [problem.schema, errorObject.schema] } } } : { 'application/json': problem, 'application/problem+json': problem },
      'a problem the route sends, as the app writes it, and Fastify\'s own 409 through the schema')
    t.match((await legacy.inject('/p')).headers['content-type'], allErrors ? /^application\/json/ : /^application\/problem\+json/)
    t.same(ops['GET /typed'].responses['409'].content, allErrors ? { 'application/json': errorObject } : { 'application/problem+json': problem }, 'one declared under its media type')
    const typed = await legacy.inject('/typed')
    t.match(typed.headers['content-type'], allErrors ? /^application\/json/ : /^application\/problem\+json/)
    t.equal(typeof typed.json().error, allErrors ? 'object' : 'undefined')
    t.same(await allProblems(legacy), [])
    const body = (await legacy.inject('/q?api-version=1.0&limit=x')).json()
    t.ok(allErrors ? typeof body.error === 'object' : body.statusCode === 400, 'as the server answers')
  }

  const bare = await buildDocs({}, {}, app => { app.get('/q', { apiVersions: '1.0', schema: { querystring: strict } }, ok) })
  t.same(operations(documentOf(bare, '1.0'))['GET /q'].responses['400'].content, { 'application/json': fastifyError }, 'version errors without a body')
})

t.test('with the media type as the only reader, an unsupported version is 406, or 415 for any request with a Content-Type, whatever its method or body schema', async t => {
  const app = await buildDocs({ problemDetails: true, versionReader: { query: false, header: false, urlSegment: false, mediaType: 'v' } }, {}, app => {
    app.get('/orders', { apiVersions: '1.0' }, ok)
    app.post('/orders', { apiVersions: '1.0', schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } } }, ok)
    app.post('/notes', { apiVersions: '1.0' }, ok)
    app.delete('/orders/:id', { apiVersions: '1.0' }, ok)
    app.get('/neutral', { apiVersionNeutral: true }, ok)
    app.get('/plain', ok)
  })
  const ops = operations(documentOf(app, '1.0'))
  const unsupported = (status: number) => ({ description: 'Unsupported API version', content: { 'application/problem+json': problemsAt(status, ['unsupported']) } })
  for (const [label, method, url] of [['GET /orders', 'GET', '/orders'], ['POST /orders', 'POST', '/orders'], ['POST /notes', 'POST', '/notes'], ['DELETE /orders/{id}', 'DELETE', '/orders/7'], ['GET /neutral', 'GET', '/neutral']] as const) {
    t.same(Object.keys(ops[label].responses), ['200', '400', '406', '415'], label)
    t.same(ops[label].responses['406'], unsupported(406), label)
    t.same(ops[label].responses['415'], unsupported(415), label)
    // As the server answers: 415 when the request has a Content-Type (with a body or not), else 406.
    for (const [headers, payload, status] of [
      [{ 'content-type': 'application/json; v=9.0' }, '{}', 415],
      [{ 'content-type': 'application/json; v=9.0' }, undefined, 415],
      [{ 'content-type': 'text/plain', accept: 'application/json; v=9.0' }, 'x', 415],
      [{ accept: 'application/json; v=9.0' }, undefined, 406]
    ] as const) {
      const res = await app.inject({ method, url, headers, payload })
      t.equal(res.statusCode, status, `${label} ${JSON.stringify(headers)}`)
      t.match(res.headers['content-type'], /^application\/problem\+json/)
    }
  }
  t.same(ops['GET /orders'].responses['400'].description, 'Unspecified, invalid or ambiguous API version')
  t.same(Object.keys(ops['GET /plain'].responses), ['200'], 'an unversioned route reads no version')
  t.equal((await app.inject({ url: '/plain', headers: { 'content-type': 'application/json; v=9.0', accept: 'application/json; v=9.0' } })).statusCode, 200)
  t.same(await allProblems(app), [])

  const mixed = await buildDocs({ problemDetails: true, versionReader: { mediaType: 'v' } }, {}, app => { app.get('/orders', { apiVersions: '1.0' }, ok) })
  t.same(Object.keys(operations(documentOf(mixed, '1.0'))['GET /orders'].responses), ['200', '400'], 'with other readers, the usual status')
})

t.test('a response whose schema is ProblemDetails is documented as the server sends it: reply.problem() and, without a media type, Fastify\'s own errors', async t => {
  const problemJson = { content: { 'application/problem+json': { schema: { $ref: 'ProblemDetails#' } } } }
  const conflict = async (request: FastifyRequest, reply: FastifyReply) => reply.problem({ status: 409, title: 'Conflict', detail: 'taken' })
  const thrown = async () => { throw Object.assign(new Error('gone'), { statusCode: 409 }) }
  const app = await buildDocs({ problemDetails: true }, {}, app => {
    app.addSchema(ProblemDetailsSchema)
    app.get('/ref', { apiVersions: '1.0', schema: { querystring: strict, response: { 200: { type: 'string' }, '4xx': { $ref: 'ProblemDetails#' } } } }, ok)
    app.get('/object', { schema: { response: { 409: ProblemDetailsSchema } } }, conflict)
    app.get('/thrown', { schema: { response: { 409: ProblemDetailsSchema } } }, thrown)
    app.get('/typed', { apiVersions: '1.0', schema: { querystring: strict, response: { '4xx': problemJson } } }, ok)
    app.get('/typed-thrown', { schema: { response: { 409: problemJson } } }, thrown)
    app.get('/other', { schema: { response: { 409: { type: 'object', title: 'ProblemDetails', properties: { x: { type: 'string' } } } } } }, ok)
  })
  const document = documentOf(app, '1.0')
  const ops = operations(document)
  const both = { 'application/json': problem, 'application/problem+json': problem }
  t.same(ops['GET /ref'].responses['4XX'].content, both, 'by $ref, without a media type')
  t.same(ops['GET /ref'].responses['400'].content, { 'application/json': problem, 'application/problem+json': problemsAt(400, ALL_400) }, 'the range is merged into the version problem\'s 400, and stands for the validation error')
  t.same(ops['GET /object'].responses['409'].content, both, 'the exported object')
  t.same(ops['GET /typed'].responses['4XX'].content, { 'application/problem+json': problem }, 'under its media type: reply.problem() alone')
  t.same(ops['GET /typed'].responses['400'].content, { 'application/problem+json': problemsAt(400, ALL_400), 'application/json': fastifyError }, 'and Fastify\'s errors stay whole')
  t.same(ops['GET /typed-thrown'].responses['409'].content, { 'application/problem+json': problem })
  t.same(Object.keys(ops['GET /other'].responses['409'].content), ['application/json'], 'a schema of another shape is left alone')
  t.same(await allProblems(app), [])

  // What the server sends, each body valid against the document's schema for its status and media type.
  const ajv = new Ajv({ strict: false })
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) ajv.addSchema(schema as object, `#/components/schemas/${name}`)
  const cases = [
    ['/ref?api-version=1.0&limit=x', 'GET /ref', '400', 'application/json', { type: 'about:blank', code: 'FST_ERR_VALIDATION' }],
    ['/object', 'GET /object', '409', 'application/problem+json', { title: 'Conflict', detail: 'taken' }],
    ['/thrown', 'GET /thrown', '409', 'application/json', { type: 'about:blank' }],
    ['/typed?api-version=1.0&limit=x', 'GET /typed', '400', 'application/json', { statusCode: 400, code: 'FST_ERR_VALIDATION', message: 'querystring/limit must be integer' }],
    // What a handler throws is its own (documented nowhere): here it stays whole.
    ['/typed-thrown', 'GET /typed-thrown', null, 'application/json', { statusCode: 409, message: 'gone' }]
  ] as const
  for (const [url, label, status, type, body] of cases) {
    const res = await app.inject(url)
    t.match(res.headers['content-type'], new RegExp(`^${type.replace('+', '\\+')}`), url)
    t.match(res.json(), body, url)
    if (status === null) continue
    t.equal(String(res.statusCode), status, url)
    const documented = ops[label].responses[status] ?? ops[label].responses[status[0] + 'XX']
    t.ok(ajv.validate(documented.content[type].schema as object, res.json()), `${url}: ${res.body} is what the document says`)
  }
  // A 409 Fastify writes through ProblemDetails without a media type, against one declared under its media type:
  // the document says which is which, so the first is not application/json's FastifyError.
  t.notOk(ajv.validate(fastifyError.schema, (await app.inject('/thrown')).json()))
})

t.test('the version headers say what the server sends, on the path as the router sees it', async t => {
  const app = await buildDocs({ problemDetails: true, reportApiVersions: true }, {}, app => {
    app.get('/orders/:id', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, ok)
    app.get('/orders/:orderId', { apiVersions: '2.0' }, ok)
    app.get('/hidden', { apiVersions: '1.0', schema: { hide: true } }, ok)
    app.get('/hidden', { apiVersions: '3.0' }, ok)
  })
  for (const version of ['1.0', '2.0']) {
    const op = Object.values(operations(documentOf(app, version)))[0]
    const served = await app.inject(`/orders/7?api-version=${version}`)
    t.same(op.responses['200'].headers['api-supported-versions'].example, served.headers['api-supported-versions'], version)
    t.same(op.responses['200'].headers['api-deprecated-versions']?.example, served.headers['api-deprecated-versions'], version)
  }
  const hidden = operations(documentOf(app, '3.0'))['GET /hidden'].responses['200'].headers['api-supported-versions'].example
  t.equal(hidden, (await app.inject('/hidden?api-version=3.0')).headers['api-supported-versions'], 'hidden routes count, as for the server')

  const loose = Fastify({ routerOptions: { caseSensitive: false, ignoreTrailingSlash: true } })
  await loose.register(apiVersioning, { reportApiVersions: true })
  await loose.register(apiVersioningOpenApi)
  loose.get('/Items', { apiVersions: '1.0' }, ok)
  loose.get('/items/', { apiVersions: '2.0' }, ok)
  await loose.ready()
  t.equal(operations(documentOf(loose, '1.0'))['GET /Items'].responses['200'].headers['api-supported-versions'].example, '1.0, 2.0')
  t.equal((await loose.inject('/items?api-version=1.0')).headers['api-supported-versions'], '1.0, 2.0')
})
