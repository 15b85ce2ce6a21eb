import t from 'tap'
import { Type, TypeGuard } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import fc from 'fast-check'
import fastJson from 'fast-json-stringify'
import Fastify from 'fastify'
import { Writable } from 'node:stream'
import { isDeepStrictEqual } from 'node:util'
import apiVersioning, { errorObjects, ProblemDetailsSchema, PROBLEM_TEXTS, type ProblemWriter } from '../../lib/index.js'
import { problemJson } from '../../lib/problems/problem-json.js'
import { build, problem, says } from './helpers.js'

function logs () {
  const lines: Array<{ level: number, msg: string }> = []
  const stream = new Writable({ write (chunk, _, done) { lines.push(JSON.parse(String(chunk))); done() } })
  return { lines, logger: { stream, level: 'warn' } }
}

t.test('reply.problem() sends a problem document through the schema', async t => {
  const app = await build(undefined, app => {
    app.get('/teapot', async (request, reply) => reply.problem({ status: 418, title: 'Teapot', detail: 'Short and stout', instance: '/teapot/1', balance: 30, accounts: ['a'] }))
    app.get('/bare', async (request, reply) => reply.problem({ status: 422 }))
    app.get('/string-status', async (request, reply) => reply.problem({ status: '422' as unknown as number }))
    app.get('/bad', async (request, reply) => reply.problem({ title: 'no status' } as unknown as { status: number }))
    app.get('/bad-status', async (request, reply) => reply.problem({ status: 99 }))
    app.get('/null', async (request, reply) => reply.problem(null as unknown as { status: number }))
  })
  const res = await app.inject('/teapot')
  t.equal(res.statusCode, 418)
  t.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8')
  t.same(res.json(), { type: 'about:blank', title: 'Teapot', status: 418, detail: 'Short and stout', instance: '/teapot/1', balance: 30, accounts: ['a'] })
  t.equal(res.body.indexOf('"type"'), 1, 'members in the order of the schema')
  t.same((await app.inject('/bare')).json(), { type: 'about:blank', status: 422 })
  for (const url of ['/bad', '/bad-status', '/null', '/string-status']) {
    const bad = await app.inject(url)
    t.equal(bad.statusCode, 500, url)
    t.match(bad.json().message, /reply.problem\(\) needs a problem (object|whose status is an integer from 400 to 599 \(got (undefined|99|"422")\))$/)
  }
})

// Symbol keys as strings, so that a deep comparison sees TypeBox's Kind and Optional markers.
function canonical (value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Reflect.ownKeys(value).map(key => [String(key), canonical((value as Record<PropertyKey, unknown>)[key])]))
}

t.test('ProblemDetailsSchema is a TypeBox schema for routes and documents', async t => {
  const built = Type.Object({
    type: Type.Optional(Type.String({ format: 'uri-reference', default: 'about:blank', description: 'Identifies the problem type', examples: ['https://docs.api-versioning.org/problems#unsupported'] })),
    title: Type.Optional(Type.String({ description: 'A short summary of the problem type', examples: ['Unsupported API version'] })),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: 'The HTTP status code of this response', examples: [400] })),
    detail: Type.Optional(Type.String({ description: 'An explanation specific to this occurrence', examples: ['The specified API version is not supported'] })),
    instance: Type.Optional(Type.String({ format: 'uri-reference', description: 'Identifies this occurrence', examples: ['/orders/42'] })),
    code: Type.Optional(Type.String({ description: 'The error code of the earlier error-object format', examples: ['UnsupportedApiVersion'] }))
  }, { $id: 'ProblemDetails', title: 'ProblemDetails', additionalProperties: true })
  t.same(canonical(ProblemDetailsSchema), canonical(built), 'exactly what TypeBox builds, Kind and Optional markers included')
  t.ok(TypeGuard.IsObject(ProblemDetailsSchema))
  t.ok(Value.Check(ProblemDetailsSchema, { status: 400, code: 'X', extra: true }))
  t.notOk(Value.Check(ProblemDetailsSchema, { status: 99 }))
  t.equal(ProblemDetailsSchema.$id, 'ProblemDetails')
  t.equal(ProblemDetailsSchema.additionalProperties, true)
  t.same(Object.keys(ProblemDetailsSchema.properties), ['type', 'title', 'status', 'detail', 'instance', 'code'])
  t.equal(PROBLEM_TEXTS.ambiguous.code, 'AmbiguousApiVersion')
  const app = Fastify()
  app.addSchema(ProblemDetailsSchema)
  app.get('/x', { schema: { response: { '4xx': { $ref: 'ProblemDetails#' } } } }, async (request, reply) => {
    reply.code(409)
    return { status: 409, title: 'Conflict', extra: 1 }
  })
  t.same((await app.inject('/x')).json(), { type: 'about:blank', title: 'Conflict', status: 409, extra: 1 })
})

// The plugin writes problems with its own serializer (lib/problems/problem-json.ts), for a cold start without
// fast-json-stringify: it must write what fast-json-stringify writes for ProblemDetailsSchema, or throw as it does.
t.test('problem documents are written as fast-json-stringify writes them with ProblemDetailsSchema', async t => {
  const reference = fastJson(ProblemDetailsSchema)
  const outcome = (write: (value: unknown) => string, value: unknown) => {
    try {
      return { json: write(value) }
    } catch (error) {
      // The same error, whatever each calls the value in its message (`value.toString is not a function` here,
      // `value_type_1.toString is not a function` in fast-json-stringify's generated code).
      return { error: [(error as Error).constructor.name, (error as Error).message.replace(/^[\w$]+(?=\.[\w$]+ is not a function)/, 'value')] }
    }
  }
  const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '\ud800', '\udc00', 'é', '😀'), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 60 })
  const value = fc.oneof(
    text, fc.integer({ min: 100, max: 599 }), fc.double(), fc.bigInt(), fc.boolean(), fc.constant(null), fc.constant(undefined),
    fc.date(), fc.constantFrom(/a+"b/, /x\//), fc.constantFrom(() => 1, Symbol('s')), fc.constant('400.7'), fc.constant({ toString: () => 'shown' }),
    fc.jsonValue(), fc.array(fc.integer(), { maxLength: 3 }), fc.constant(10n)
  )
  const member = fc.constantFrom('type', 'title', 'status', 'detail', 'instance', 'code')
  const problem = fc.tuple(fc.dictionary(member, value), fc.dictionary(fc.oneof(member, text), value, { maxKeys: 4 }))
    .map(([members, others]) => ({ ...others, ...members }))
  const documents = fc.oneof({ weight: 8, arbitrary: problem }, problem.map(p => ({ toJSON: () => p })), fc.constantFrom(null, undefined, 5, 'ab'))
  const every = [
    { status: 400 }, { type: 'https://x', title: 'T', status: 404, detail: 'D', instance: '/i', code: 'C', extra: [1] },
    { title: null, detail: new Date(0), instance: /r"x/, code: 7, status: '422' }, { status: 1.9 }, { status: -0 }, { status: 12n },
    { status: Infinity }, { status: NaN }, { status: 'x' }, { title: new Date(NaN) }, { a: undefined, b: () => 1, c: Symbol('c'), d: 1 },
    { amount: 10n }, { toJSON: () => ({ status: 409 }) }, { toJSON: 1, status: 400 }, null, undefined, 5,
    // A member whose toString is not a function: both throw a TypeError (fast-check found it, seed -1478179853).
    { type: { toString: 0 } }
  ]
  for (const [i, document] of every.entries()) t.same(outcome(problemJson, document), outcome(reference, document), `example ${i}`)
  fc.assert(fc.property(documents, document => isDeepStrictEqual(outcome(problemJson, document), outcome(reference, document))), { numRuns: 2000 })
})

t.test('problem writers: the first that can write does', async t => {
  const seen: string[] = []
  const teapots: ProblemWriter = {
    canWrite: ({ problem }) => problem.status === 418,
    write: ({ reply }) => { seen.push('teapots'); reply.code(418).send('short and stout') }
  }
  const unsupported: ProblemWriter = {
    canWrite: ({ problem }) => problem.code === 'UnsupportedApiVersion',
    async write ({ problem, request, reply }) {
      await new Promise(resolve => setTimeout(resolve, 5))
      seen.push(`unsupported ${request.url}`)
      reply.code(problem.status).type('text/plain').send(`${problem.title}; try 1.0`)
    }
  }
  const failing: ProblemWriter = {
    canWrite: ({ problem }) => problem.code === 'InvalidApiVersion',
    write: async () => { throw new Error('writer failed') }
  }
  const app = await build({ problemDetails: true, problemWriters: [teapots, unsupported, failing] }, app => {
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    app.get('/teapot', async (request, reply) => reply.problem({ status: 418 }))
  })
  const res = await app.inject('/a?api-version=2')
  t.equal(res.statusCode, 400)
  t.equal(res.body, 'Unsupported API version; try 1.0')
  t.equal((await app.inject('/teapot')).body, 'short and stout')
  t.same((await app.inject('/a')).json(), problem('unspecified'), 'the default writer takes the rest')
  const failed = await app.inject('/a?api-version=x')
  t.equal(failed.statusCode, 500, 'a failing writer gives an error response, not a hang')
  t.same(seen, ['unsupported /a?api-version=2', 'teapots'])
})

t.test('errorObjects registered before apiVersioning writes version errors in the earlier format', async t => {
  const app = Fastify()
  await app.register(errorObjects)
  await app.register(apiVersioning, { problemDetails: true, versionReader: { query: ['api-version', 'v'], header: 'x-version' } })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  app.get('/other', async (request, reply) => reply.problem({ status: 409, title: 'Conflict' }))
  app.get('/throws', async () => { throw new Error('boom') })

  const res = await app.inject('/a?api-version=3.0')
  t.equal(res.statusCode, 400)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.same(res.json(), { error: { code: 'UnsupportedApiVersion', message: 'Unsupported API version', target: 'api-version', innerError: { message: 'The specified API version is not supported' } } })
  t.equal(res.body, '{"error":{"code":"UnsupportedApiVersion","message":"Unsupported API version","target":"api-version","innerError":{"message":"The specified API version is not supported"}}}')
  t.equal((await app.inject({ url: '/a', headers: { 'x-version': 'x' } })).json().error.target, 'x-version')
  t.equal((await app.inject('/a?v=1&v=2')).json().error.target, 'v')
  t.same((await app.inject('/a')).json(), { error: { code: 'ApiVersionUnspecified', message: 'Unspecified API version', target: 'api-version', innerError: { message: 'An API version is required, but was not specified' } } })
  t.same((await app.inject('/other')).json(), { type: 'about:blank', title: 'Conflict', status: 409 }, 'other problems stay problem details')
  t.equal((await app.inject('/throws')).json().message, 'boom', 'other errors keep their format')
})

t.test('the error-object target of an unspecified version is the first place a version may be given', async t => {
  for (const [versionReader, target] of [[{ query: false, header: 'X-Version' }, 'x-version'], [{ query: false, header: false }, 'apiVersion']] as const) {
    const app = Fastify()
    await app.register(errorObjects)
    await app.register(apiVersioning, { problemDetails: true, versionReader })
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    t.equal((await app.inject('/a')).json().error.target, target)
  }
})

t.test('errorObjects with allErrors writes every error response in the earlier format', async t => {
  const app = Fastify()
  await app.register(errorObjects, { allErrors: true })
  await app.register(apiVersioning, { problemDetails: true })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  app.get('/other', async (request, reply) => reply.problem({ status: 409, title: 'Conflict', detail: '' }))
  app.get('/throws', async () => { throw new Error('boom') })
  app.get('/coded', async () => { throw Object.assign(new Error('no'), { statusCode: 403, code: 'E_NOPE' }) })
  app.get('/mine', async (request, reply) => reply.code(400).send({ statusCode: 400, error: 'Bad', message: 'm', extra: true }))
  app.get('/text', async (request, reply) => reply.code(400).type('application/json').send('not json'))
  app.get('/ok', async () => ({ statusCode: 200, error: 'none', message: 'fine' }))
  app.get('/plain', async (request, reply) => reply.code(400).send('plain text'))
  app.get('/validated', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, says('v'))

  t.same((await app.inject('/a?api-version=x')).json().error.code, 'InvalidApiVersion')
  t.same((await app.inject('/other')).json(), { error: { code: 'Conflict', message: 'Conflict' } })
  t.same((await app.inject('/throws')).json(), { error: { code: 'InternalServerError', message: 'boom' } })
  t.same((await app.inject('/coded')).json(), { error: { code: 'E_NOPE', message: 'no' } })
  const missing = await app.inject('/nope')
  t.equal(missing.statusCode, 404)
  t.same(missing.json(), { error: { code: 'NotFound', message: 'Route GET:/nope not found' } })
  t.equal(missing.headers['content-length'], String(missing.body.length))
  t.same((await app.inject('/validated?n=x')).json(), { error: { code: 'FST_ERR_VALIDATION', message: 'querystring/n must be integer' } })
  t.same((await app.inject('/mine')).json(), { statusCode: 400, error: 'Bad', message: 'm', extra: true }, 'a format of the app is left alone')
  t.equal((await app.inject('/text')).body, 'not json')
  t.equal((await app.inject('/plain')).body, 'plain text')
  t.same((await app.inject('/ok')).json(), { statusCode: 200, error: 'none', message: 'fine' })
})

t.test('errorObjects registered after apiVersioning is not selected, and says so', async t => {
  const { lines, logger } = logs()
  const app = Fastify({ logger })
  await app.register(apiVersioning, { problemDetails: true })
  await app.register(errorObjects, { allErrors: true })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  await app.ready()
  t.match(lines, [{ level: 40, msg: /errorObjects was registered after apiVersioning, so it is not selected; register it before apiVersioning/ }])
  t.same((await app.inject('/a?api-version=2')).json(), problem('unsupported'))
  t.same((await app.inject('/nope')).json().statusCode, 404)
})

t.test('errorObjects options are checked', async t => {
  const app = Fastify()
  app.register(errorObjects, { allErrors: 'yes' as unknown as boolean })
  await t.rejects(async () => { await app.ready() }, /fastify-api-versioning errorObjects: allErrors must be a boolean/)
})

t.test('problemDetails: false with writers warns that they are not used for version errors', async t => {
  const { lines, logger } = logs()
  const app = Fastify({ logger })
  await app.register(errorObjects)
  await app.register(apiVersioning)
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  app.get('/other', async (request, reply) => reply.problem({ status: 409 }))
  t.match(lines, [{ level: 40, msg: /problemDetails is false, so version errors have no body/ }])
  t.equal((await app.inject('/a?api-version=2')).body, '')
  t.same((await app.inject('/other')).json(), { type: 'about:blank', status: 409 }, 'reply.problem() still writes')
})

t.test('errorObjects codes are identifiers made from the reason phrase', async t => {
  const app = Fastify()
  await app.register(errorObjects, { allErrors: true })
  await app.register(apiVersioning, { problemDetails: true })
  app.get('/:status', async (request, reply) => { reply.code(Number((request.params as { status: string }).status)).send(new Error('x')) })
  app.get('/problem/:status', async (request, reply) => reply.problem({ status: Number((request.params as { status: string }).status), title: 't' }))
  const cases: Array<[number, string]> = [[418, 'ImATeapot'], [414, 'URITooLong'], [203, ''], [500, 'InternalServerError'], [404, 'NotFound']]
  for (const [status, code] of cases) {
    if (code === '') continue
    t.equal((await app.inject('/' + status)).json().error.code, code, String(status))
  }
  t.same((await app.inject('/problem/409')).json(), { error: { code: 'Conflict', message: 't' } }, 'problems without a code get one too')
  t.equal((await app.inject('/problem/499')).json().error.code, 'Error', 'a status without a reason phrase')
})
