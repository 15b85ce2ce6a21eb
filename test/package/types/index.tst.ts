import Fastify, { type FastifyReply } from 'fastify'
import { describe, expect, test } from 'tstyche'
import apiVersioning, {
  ApiVersion, apiVersioning as named, errorObjects, PROBLEM_TEXTS, ProblemDetailsSchema, versionChange, withApiVersions,
  type ApiVersioningErrorCode, type ApiVersioningOptions, type ApiVersionSource, type ProblemDocument, type ProblemWriter, type SchemaNameInstruction, type EndpointDocs
} from 'fastify-api-versioning'

const app = Fastify()

describe('the plugin', () => {
  test('registers with its options, the default and the named export alike', () => {
    expect(app.register(apiVersioning, { problemDetails: true, reportApiVersions: { supportedHeader: 'x-versions' } })).type.not.toRaiseError()
    expect(named).type.toBe(apiVersioning)
    expect(app.register(errorObjects, { allErrors: true })).type.not.toRaiseError()
  })

  test('refuses unknown options and options of the wrong type', () => {
    expect(app.register(apiVersioning, { reportApiVersion: true })).type.toRaiseError()
    expect(app.register(apiVersioning, { unsupportedApiVersionStatusCode: '400' })).type.toRaiseError()
    expect(app.register(apiVersioning, { versionReader: { query: 7 } })).type.toRaiseError()
  })

  test('options type as declared', () => {
    expect<ApiVersioningOptions['apiVersionSelector']>().type.toBeAssignableFrom<'default' | 'current' | 'lowest'>()
    expect<ApiVersioningOptions>().type.toBeAssignableFrom({ telemetry: false, logApiVersion: true, now: () => 0 })
    expect<ApiVersioningOptions['servedApiVersionHeader']>().type.toBe<string | undefined>()
    expect(app.register(apiVersioning, { servedApiVersionHeader: 'x-api-version' })).type.not.toRaiseError()
    expect(app.register(apiVersioning, { servedApiVersionHeader: true })).type.toRaiseError()
  })
})

describe('routes, requests and replies', () => {
  test('the route options take versions as strings', () => {
    expect(app.get('/a', { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.9' }, async () => 'a')).type.not.toRaiseError()
    expect(app.get('/n', { apiVersionNeutral: true }, async () => 'n')).type.not.toRaiseError()
    expect(app.get('/x', { apiVersions: 1 }, async () => 'x')).type.toRaiseError()
  })

  test('a request carries its version and where it came from', () => {
    app.get('/v', { apiVersions: '1.0' }, async (request, reply) => {
      expect(request.apiVersion).type.toBe<ApiVersion | null>()
      expect(request.apiVersionSource).type.toBe<ApiVersionSource | null>()
      expect(reply.problem({ status: 409, title: 'Conflict' })).type.toBe<FastifyReply>()
      expect(reply.problem).type.not.toBeCallableWith({ title: 'no status' })
    })
  })

  test('withApiVersions gives a plugin its versions', () => {
    expect(app.register(withApiVersions({ apiVersions: ['1.0'] }, async scope => { scope.get('/s', async () => 's') }))).type.not.toRaiseError()
  })
})

describe('the named exports', () => {
  test('ApiVersion', () => {
    expect(ApiVersion.parse('1.0')).type.toBe<ApiVersion>()
    expect(ApiVersion.tryParse('1.')).type.toBe<ApiVersion | null>()
    expect(ApiVersion.parse('1.0').compareTo(ApiVersion.parse('2.0'))).type.toBe<number>()
    expect(ApiVersion.parse('1.0').major).type.toBe<number | null>()
  })

  test('problems, writers and codes', () => {
    expect<ProblemDocument>().type.toBeAssignableFrom({ status: 400, title: 'Bad', code: 'X', extra: [1] })
    expect<ProblemWriter>().type.toBeAssignableFrom({ canWrite: () => true, write: ({ reply }: { reply: FastifyReply }) => { reply.send() } })
    expect(ProblemDetailsSchema).type.toHaveProperty('properties')
    expect(PROBLEM_TEXTS.unsupported.title).type.toBe<string>()
    expect<'FST_API_VERSIONING_INVALID_OPTION'>().type.toBeAssignableTo<ApiVersioningErrorCode>()
    expect<'FST_ERR_SOMETHING'>().type.not.toBeAssignableTo<ApiVersioningErrorCode>()
  })

  test('versionChange needs a description', () => {
    expect(versionChange).type.toBeCallableWith({ description: 'Orders have a status.' })
    expect(versionChange).type.not.toBeCallableWith({})
  })

  test("a change names a shared schema as older versions' documents named it", () => {
    expect(versionChange).type.toBeCallableWith({ description: 'Bills are orders.', schemas: [{ schema: 'Order', renamedFrom: 'Bill' }] })
    expect(versionChange).type.toBeCallableWith({ description: 'Bills are orders.', schemas: [{ schema: { $id: 'Order' }, renamedFrom: 'Bill' }] })
    expect(versionChange).type.not.toBeCallableWith({ description: 'Bills are orders.', schemas: [{ schema: 'Order' }] })
    expect(versionChange).type.not.toBeCallableWith({ description: 'Bills are orders.', schemas: [{ schema: 'Order', renamedFrom: 7 }] })
    expect<{ schema: 'Order', renamedFrom: 'Bill' }>().type.toBeAssignableTo<SchemaNameInstruction>()
  })

  test("a change says what older versions' documents showed of an endpoint, or that it is deprecated from its version on", () => {
    expect(versionChange).type.toBeCallableWith({ description: 'x', endpoints: [{ method: 'GET', url: '/orders/:id', changed: { summary: 'Read a bill', tags: ['bills'] } }] })
    expect(versionChange).type.toBeCallableWith({ description: 'x', endpoints: [{ method: ['PUT', 'PATCH'], url: '/orders/:id', deprecated: true }] })
    expect(versionChange).type.not.toBeCallableWith({ description: 'x', endpoints: [{ method: 'GET', url: '/orders/:id', changed: { summary: 7 } }] })
    expect(versionChange).type.not.toBeCallableWith({ description: 'x', endpoints: [{ method: 'GET', url: '/orders/:id', deprecated: true, added: true }] })
    expect<{ summary: 'Read a bill' }>().type.toBeAssignableTo<EndpointDocs>()
  })

  test('a change says whether it applies to a request, by its version', () => {
    const change = versionChange({ description: 'Searches match whole words.' })
    app.get<{ Querystring: { q: string } }>('/search', { versionChanges: true }, async request => {
      expect(change.isAppliedTo(request)).type.toBe<boolean>()
      expect(change.isAppliedTo).type.not.toBeCallableWith(request.raw)
    })
    expect(change.isAppliedTo).type.not.toBeCallableWith({})
    expect(change.isAppliedTo).type.not.toBeCallableWith('GET /search')
  })
})
