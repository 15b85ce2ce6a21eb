// Type tests: compiled by `npm run typecheck` (part of `npm test`); a wrong type fails the build.
import Fastify, { type FastifyReply } from 'fastify'
import { Type, type Static } from '@sinclair/typebox'
import { metrics } from '@opentelemetry/api'
import { MeterProvider } from '@opentelemetry/sdk-metrics'
import apiVersioning, {
  ApiVersion, apiVersioning as named, errorObjects, ProblemDetailsSchema, PROBLEM_TEXTS,
  withApiVersions, type ApiVersionSet, type ApiVersioningOptions, type ApiVersionProblem, type ApiVersionSource, type CustomReader, type ErrorObject,
  type ProblemDetails, type ProblemDocument, type ProblemWriter, type VersionOutcomeName,
  versionChange, type ConvertToApiVersionOptions, type EndpointInstruction, type EnumInstruction, type EnumMember, type FieldInstruction, type RequestInstruction, type WebhookInstruction, type WebhookOption,
  type RequestToMigrate, type ResponseInstruction, type ResponseToMigrate, type VersionChange, type VersionChangeOptions, type VersionChangesEntry
} from '../lib/index.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
function expectType<T extends true> (): T | void {}

const app = Fastify()
await app.register(errorObjects, { allErrors: true })
await app.register(apiVersioning, {
  problemDetails: true,
  reportApiVersions: true,
  assumeDefaultVersionWhenUnspecified: false,
  defaultVersion: '1.0',
  unsupportedApiVersionStatusCode: 400,
  problemTypeBase: 'https://docs.api-versioning.org/problems',
  versionReader: { query: ['api-version'], header: false, urlSegment: 'apiVersion' },
  problemWriters: []
})
await app.register(named)
// @ts-expect-error: an unknown option
await app.register(apiVersioning, { reportApiVersion: true })
const tenant: CustomReader = request => request.headers['x-tenant-version'] as string | undefined
await app.register(apiVersioning, { versionReader: { custom: tenant } })
await app.register(apiVersioning, { versionReader: { custom: () => ['1.0', '1'] } })
await app.register(apiVersioning, { reportApiVersions: { supportedHeader: 'x-api-versions', deprecatedHeader: 'x-api-deprecated' } })
// @ts-expect-error: the header names are texts
await app.register(apiVersioning, { reportApiVersions: { supportedHeader: true } })
await app.register(apiVersioning, { telemetry: true })
await app.register(apiVersioning, { telemetry: { meterProvider: new MeterProvider() } })
await app.register(apiVersioning, { telemetry: { meterProvider: metrics.getMeterProvider() } })
// @ts-expect-error: a meter provider has getMeter
await app.register(apiVersioning, { telemetry: { meterProvider: {} } })
expectType<Equal<VersionOutcomeName, 'served' | 'unsupported' | 'invalid' | 'ambiguous' | 'unspecified' | 'retired' | 'error'>>()
// @ts-expect-error: a custom reader gives texts
await app.register(apiVersioning, { versionReader: { custom: () => 1 } })
// @ts-expect-error: a status code is a number
await app.register(apiVersioning, { unsupportedApiVersionStatusCode: '404' })
// @ts-expect-error: allErrors is a boolean
await app.register(errorObjects, { allErrors: 1 })

app.get('/values', { apiVersions: ['1.0'] }, async (request) => {
  expectType<Equal<typeof request.apiVersion, ApiVersion | null>>()
  expectType<Equal<typeof request.apiVersionSource, ApiVersionSource | null>>()
  expectType<Equal<ApiVersionSource, 'query' | 'header' | 'path' | 'media-type' | 'custom' | 'assumed'>>()
  return { version: String(request.apiVersion) }
})
app.get('/values', { apiVersions: '2.0', deprecatedApiVersions: ['1.5'] }, async () => 'v2')
app.get('/ping', { apiVersionNeutral: true }, async () => 'pong')
app.route({ method: 'GET', url: '/r', apiVersions: ['3.0'], handler: async () => 'r' })
// @ts-expect-error: versions are strings
app.get('/bad', { apiVersions: [1] }, async () => 'x')
// @ts-expect-error: neutral is a boolean
app.get('/bad', { apiVersionNeutral: 'yes' }, async () => 'x')

app.get('/problem', async (request, reply) => {
  const sent = reply.problem({ status: 409, title: 'Conflict', detail: 'd', instance: '/x', extra: [1] })
  expectType<Equal<typeof sent, FastifyReply>>()
  // @ts-expect-error: a problem needs a status
  reply.problem({ title: 'no status' })
  return sent
})

const v = ApiVersion.parse('1.0')
const maybe: ApiVersion | null = ApiVersion.tryParse('x')
expectType<Equal<typeof v.groupVersion, string | null>>()
expectType<Equal<typeof v.major, number | null>>()
expectType<Equal<typeof v.minor, number | null>>()
expectType<Equal<typeof v.status, string | null>>()
expectType<Equal<ReturnType<typeof v.compareTo>, number>>()
const equal: boolean = v.equals(maybe)
const equalText: boolean = v.equals('1')
const order: number = v.compareTo('2.0')
// @ts-expect-error: a version or its text, not a number
v.equals(1)
// @ts-expect-error: a version or its text, not a number
v.compareTo(2)
const unknownValue: unknown = JSON.parse('null')
if (unknownValue instanceof ApiVersion) expectType<Equal<typeof unknownValue, ApiVersion>>()
expectType<Equal<ReturnType<typeof ApiVersion[typeof Symbol.hasInstance]>, boolean>>()
const text: string = v.toString()
// @ts-expect-error: ApiVersion is made by parse() or tryParse()
const made = new ApiVersion()

const writer: ProblemWriter = {
  canWrite: ({ problem, request, reply }) => problem.status >= 400 && request.url !== '' && !reply.sent,
  write: async ({ problem, reply }) => { reply.code(problem.status).send(problem.title) }
}
// A writer may return the reply, as plain JS arrow functions do.
const replying: ProblemWriter = { name: 'replying', canWrite: () => true, write: ({ problem, reply }) => reply.code(problem.status).send() }
const options: ApiVersioningOptions = { problemWriters: [writer, replying] }
const extended: ProblemDetails = { type: 'about:blank', status: 400, traceId: 'abc', errors: [{ field: 'x' }] }
expectType<Equal<typeof extended.status, number | undefined>>()
// @ts-expect-error: a standard member keeps its type
const wrong: ProblemDetails = { status: '400' }
const body: Static<typeof ProblemDetailsSchema> = { type: 'about:blank', status: 400, code: 'X' }
// ProblemDetails is written out (apps without @sinclair/typebox have it): its members are the schema's.
type Members<T> = { [K in keyof T as string extends K ? never : K]: T[K] }
expectType<Equal<Members<ProblemDetails>, Static<typeof ProblemDetailsSchema>>>()
const problem: ApiVersionProblem = { type: 't', title: 't', status: 400, detail: 'd', code: PROBLEM_TEXTS.invalid.code }
const document: ProblemDocument = problem
const legacy: ErrorObject = { error: { code: 'UnsupportedApiVersion', message: 'm', target: 'api-version', innerError: { message: 'd' } } }
export { equal, equalText, order, text, made, options, body, document, legacy, extended, wrong }

// The version lifecycle and media types
await app.register(apiVersioning, {
  assumeDefaultVersionWhenUnspecified: true,
  apiVersionSelector: ({ request, supported, deprecated }) => {
    expectType<Equal<typeof supported, readonly ApiVersion[]>>()
    return String(request.headers['x-version'] ?? deprecated[0] ?? supported[0])
  },
  policies: {
    '1.0': {
      deprecation: { date: new Date(), link: 'https://example.com/d' },
      sunset: { date: '2027-01-01', link: { href: 'https://example.com/s', title: 't', type: 'text/html' }, enforce: true }
    }
  },
  now: () => Date.now(),
  logApiVersion: true,
  versionReader: { mediaType: { parameter: 'v', template: 'application/vnd.acme.v{version}+json' } }
})
await app.register(apiVersioning, { apiVersionSelector: 'current', versionReader: { mediaType: true } })
// @ts-expect-error: an unknown selector
await app.register(apiVersioning, { apiVersionSelector: 'highest' })
// @ts-expect-error: enforce is a boolean
await app.register(apiVersioning, { policies: { '1.0': { sunset: { enforce: 'yes' } } } })
const set: ApiVersionSet = { apiVersions: ['1.0', '2.0'], deprecatedApiVersions: '0.9' }
await app.register(withApiVersions(set, async scope => { scope.get('/in-set', async () => 'x') }), { prefix: '/set' })
await app.register(withApiVersions({ apiVersionNeutral: true }, (scope, opts, done) => { done() }))
// @ts-expect-error: a set has versions, not routes
withApiVersions({ routes: [] }, async () => {})

// Version changes: the newest version written once, the older ones from declared changes.
const Order = Type.Object({ id: Type.Integer(), createdAt: Type.String() }, { $id: 'Order' })
const renamed: VersionChange = versionChange({
  description: "Orders call their creation time 'createdAt'.",
  fields: [
    { schema: Order, field: 'createdAt', renamedFrom: 'created' },
    { schema: Order, field: 'legacy', removed: { schema: Type.String(), required: true } },
    { schema: 'Order', field: 'anything', added: true },
    { schema: Order as object, field: 'createdBefore', changed: { required: false } }
  ],
  endpoints: [{ method: ['GET', 'HEAD'], url: '/orders/:id/lines', added: true }],
  requests: [{ route: 'POST /orders', migrate: (request: RequestToMigrate) => { request.body = { ...(request.body as object) } } }],
  responses: [{ schema: Order, errors: true, migrate: async (response: ResponseToMigrate) => { response.statusCode = 200 } }]
})
expectType<Equal<typeof renamed.description, string>>()
// @ts-expect-error: Order has no field 'creatdAt'
versionChange({ description: 'x', fields: [{ schema: Order, field: 'creatdAt', renamedFrom: 'created' }] })
// @ts-expect-error: one of renamedFrom, added, removed and changed
versionChange({ description: 'x', fields: [{ schema: Order, field: 'id', added: true, renamedFrom: 'key' }] })
// @ts-expect-error: a change says what changed
versionChange({ fields: [] })
// @ts-expect-error: an endpoint is added or removed
versionChange({ description: 'x', endpoints: [{ method: 'GET', url: '/a' }] })
const Status = Type.Union([Type.Literal('open'), Type.Literal('paid')])
versionChange({ description: 'Paid orders.', enums: [{ schema: Status, added: ['paid'] }, { schema: 'Kind', removed: ['old', 2, null] }, { schema: { enum: ['a'] }, added: ['a'] }] })
// @ts-expect-error: Status has no member 'express'
versionChange({ description: 'x', enums: [{ schema: Status, added: ['express'] }] })
// @ts-expect-error: one of added and removed
versionChange({ description: 'x', enums: [{ schema: Status, added: ['open'], removed: ['old'] }] })
// @ts-expect-error: a member is a JSON value
versionChange({ description: 'x', enums: [{ schema: 'Kind', removed: [{ a: 1 }] }] })
const enumInstruction: EnumInstruction<typeof Status> = { schema: Status, added: ['open'] }
// @ts-expect-error: typed for its schema, a member it has
const wrongEnum: EnumInstruction<typeof Status> = { schema: Status, added: ['shipped'] }
const member: EnumMember = null
const webhookChange = versionChange({ description: 'Shipped orders are told.', webhooks: [{ name: 'order.shipped', added: true }] })
// @ts-expect-error: a webhook is added or removed
versionChange({ description: 'x', webhooks: [{ name: 'order.shipped' }] })
const webhookInstruction: WebhookInstruction = { name: 'order.created', removed: true }
const webhookOption: WebhookOption = { schema: Order, description: 'An order.' }
await Fastify().register(apiVersioning, { webhooks: { 'order.paid': webhookOption } })
// @ts-expect-error: a webhook's payload has a schema
await Fastify().register(apiVersioning, { webhooks: { 'order.paid': { description: 'x' } } })
const entries: VersionChangesEntry[] = [{ version: '2.0', changes: [renamed] }, { version: '1.0', deprecated: true }]
const changing = Fastify()
await changing.register(apiVersioning, { versionChanges: entries, versionChangesCompile: 'eager' })
// @ts-expect-error: compiled 'lazy' or 'eager'
await Fastify().register(apiVersioning, { versionChangesCompile: 'now' })
changing.get('/orders/:id', { versionChanges: true, schema: { response: { 200: Order } } }, async () => ({ id: 1, createdAt: 'now' }))
// @ts-expect-error: versionChanges is true or left out
changing.get('/bad', { versionChanges: false }, async () => 'x')
const converted: Promise<unknown> = changing.convertToApiVersion({ schema: Order, value: { id: 1 }, version: '1.0' })
const convertOptions: ConvertToApiVersionOptions = { schema: 'Order', value: null, version: ApiVersion.parse('1.0') }
const convertWebhook: ConvertToApiVersionOptions = { webhook: 'order.paid', value: {}, version: '1.0' }
// @ts-expect-error: a schema or a webhook, not both
const convertBoth: ConvertToApiVersionOptions = { webhook: 'order.paid', schema: Order, value: {}, version: '1.0' }
const instruction: FieldInstruction<typeof Order> = { schema: Order, field: 'id', added: true }
// @ts-expect-error: typed for its schema, a field it has
const wrongInstruction: FieldInstruction<typeof Order> = { schema: Order, field: 'name', added: true }
const endpoint: EndpointInstruction = { method: 'DELETE', url: '/orders/:id', removed: true }
const statusEndpoint: EndpointInstruction = { method: 'POST', url: '/orders', changed: { status: 200, summary: 'Place an order', url: '/bills' } }
const hiddenEndpoint: EndpointInstruction = { method: ['GET', 'POST'], url: '/exports', hidden: true }
const datedEndpoint: EndpointInstruction = { method: 'DELETE', url: '/orders/:id', deprecated: { date: new Date(), link: { href: 'https://example.com', title: 'Why' } } }
// @ts-expect-error: a deprecation's date is a Date or a text
const wrongDate: EndpointInstruction = { method: 'DELETE', url: '/orders/:id', deprecated: { date: 2026 } }
// @ts-expect-error: hidden is true or left out
const notHidden: EndpointInstruction = { method: 'GET', url: '/exports', hidden: false }
const changeOptions: VersionChangeOptions = { description: 'x', endpoints: [endpoint] }
const requestInstruction: RequestInstruction = { schema: Order, migrate: () => {} }
const responseInstruction: ResponseInstruction = { route: 'GET /orders', migrate: () => undefined }
export { webhookChange, webhookInstruction }
export { enumInstruction, wrongEnum, member, statusEndpoint, hiddenEndpoint, notHidden, datedEndpoint, wrongDate }
export { convertWebhook, convertBoth }
export { converted, convertOptions, instruction, wrongInstruction, changeOptions, requestInstruction, responseInstruction }
