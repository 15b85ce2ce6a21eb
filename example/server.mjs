// The example service: `npm start` (or `npm run example`), then open the URLs it prints.
// An orders API in three versions (0.9 deprecated, 1.0, 2.0), one route versioned in the path, a health check
// that takes any version, TypeBox schemas, and one OpenAPI document per version with a docs page, each saying
// what changed since the version before it (breaking changes first; also at /openapi/changes.json). Placing an
// order needs a bearer token (any will do): the docs page's Authorize button keeps it across versions. Who calls
// which version is counted as OpenTelemetry metrics, printed on the console (METRICS_INTERVAL ms, default 30 s).
// The customers are written once, for 2.0: their older versions are served from the changes that led to it.
import Fastify from 'fastify'
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { Type } from '@sinclair/typebox'
import apiVersioning, { ProblemDetailsSchema, versionChange } from '../dist/esm/index.js'
import apiVersioningOpenApi from '../dist/esm/openapi/index.js'

const app = Fastify({ logger: { level: 'warn' } })
// In production the exporter would be OTLP or Prometheus; the console shows what they would receive.
const exportIntervalMillis = Number(process.env.METRICS_INTERVAL ?? 30_000)
const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis })] })
app.addHook('onClose', () => meterProvider.shutdown())
// The customers, as 2.0 has them; what each version changed, for the versions before it (docs/version-changes.md).
const Customer = Type.Object({ id: Type.Integer(), fullName: Type.String(), email: Type.String() }, { description: 'A customer' })
const customersRenamed = versionChange({
  description: "Customers have a full name (it was 'name') and an email.",
  fields: [{ schema: Customer, field: 'fullName', renamedFrom: 'name' }, { schema: Customer, field: 'email', added: true }]
})
const customerById = versionChange({
  description: 'One customer can be read by its id.',
  endpoints: [{ method: 'GET', url: '/customers/:id', added: true }]
})

await app.register(apiVersioning, {
  problemDetails: true,
  reportApiVersions: true,
  telemetry: { meterProvider },
  versionChanges: [
    { version: '2.0', changes: [customersRenamed] },
    { version: '1.0', changes: [customerById] },
    { version: '0.9', deprecated: true }
  ],
  // 0.9's responses say when it was deprecated and when it goes, with links for its clients; so do its documents.
  policies: {
    0.9: {
      deprecation: { date: '2026-01-01', link: 'https://example.com/orders-api/deprecations#v0.9' },
      sunset: { date: '2027-06-30', link: { href: 'https://example.com/orders-api/moving-to-1.0', title: 'Moving from 0.9 to 1.0' } }
    }
  }
})
await app.register(apiVersioningOpenApi, {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'Orders', description: 'An example of fastify-api-versioning: one document per API version.' },
    tags: [{ name: 'orders' }, { name: 'customers' }, { name: 'health' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } }
  },
  ui: { routePrefix: '/docs' }
})
// Problems the routes send themselves (reply.problem), under their media type: a schema without one would also be
// what Fastify writes its own errors of that status through.
app.addSchema(ProblemDetailsSchema)

const Order = Type.Object({
  id: Type.Integer(),
  item: Type.String(),
  quantity: Type.Integer({ minimum: 1 })
}, { $id: 'Order', description: 'An order' })
const NewOrder = Type.Object({ item: Type.String(), quantity: Type.Integer({ minimum: 1, default: 1 }) }, { $id: 'NewOrder' })
const Problem = { content: { 'application/problem+json': { schema: Type.Ref('ProblemDetails') } } }
const orders = [{ id: 1, item: 'tea', quantity: 2 }, { id: 2, item: 'scones', quantity: 6 }]

app.get('/orders', {
  apiVersions: '1.0',
  deprecatedApiVersions: '0.9',
  schema: { tags: ['orders'], summary: 'The items ordered', operationId: 'listOrderItems', response: { 200: Type.Array(Type.String()) } }
}, async () => orders.map(o => o.item))

app.get('/orders', {
  apiVersions: '2.0',
  schema: { tags: ['orders'], summary: 'The orders', operationId: 'listOrders', response: { 200: Type.Array(Order) } }
}, async () => orders)

app.post('/orders', {
  apiVersions: '2.0',
  // Before the version is looked at: a request without a token gets 401, whatever its version.
  onRequest: async (request, reply) => {
    if (!/^Bearer \S+$/.test(request.headers.authorization ?? '')) {
      return reply.header('www-authenticate', 'Bearer').problem({ status: 401, title: 'Unauthorized', detail: 'Placing an order needs a bearer token' })
    }
  },
  schema: {
    tags: ['orders'],
    summary: 'Place an order',
    operationId: 'placeOrder',
    security: [{ bearer: [] }],
    body: NewOrder,
    response: { 201: Order, 401: Problem }
  }
}, async (request, reply) => {
  const order = { id: orders.length + 1, ...request.body }
  orders.push(order)
  return reply.code(201).send(order)
})

app.get('/api/v:apiVersion/orders/:id', {
  apiVersions: ['1.0', '2.0'],
  schema: {
    tags: ['orders'],
    summary: 'One order, the version in the path',
    operationId: 'getOrder',
    params: Type.Object({ apiVersion: Type.String(), id: Type.Integer() }),
    response: { 200: Order, 404: Problem }
  }
}, async (request, reply) => orders.find(o => o.id === request.params.id) ??
  reply.problem({ status: 404, title: 'No such order', detail: `There is no order ${request.params.id}`, instance: request.url }))

// Written once, for 2.0: 1.0 and 0.9 call the full name 'name' and have no email; 0.9 reads no customer by id.
const customers = [{ id: 1, fullName: 'Ada Lovelace', email: 'ada@example.com' }]
app.get('/customers', {
  versionChanges: true,
  schema: { tags: ['customers'], summary: 'The customers', operationId: 'listCustomers', response: { 200: Type.Array(Customer) } }
}, async () => customers)

app.get('/customers/:id', {
  versionChanges: true,
  schema: {
    tags: ['customers'],
    summary: 'One customer',
    operationId: 'getCustomer',
    params: Type.Object({ id: Type.Integer() }),
    response: { 200: Customer, 404: Problem }
  }
}, async (request, reply) => customers.find(c => c.id === request.params.id) ??
  reply.problem({ status: 404, title: 'No such customer', detail: `There is no customer ${request.params.id}`, instance: request.url }))

app.get('/health', {
  apiVersionNeutral: true,
  schema: { tags: ['health'], summary: 'Liveness, whatever the version', operationId: 'health', response: { 200: Type.Object({ status: Type.Literal('ok') }) } }
}, async () => ({ status: 'ok' }))

const { PORT: port = '3000' } = process.env
await app.listen({ port, host: '127.0.0.1' })
const base = `http://127.0.0.1:${app.server.address().port}`
console.log(`Orders API on ${base}
  Docs page, with a version picker:  ${base}/docs/
  OpenAPI documents:                 ${app.apiVersionDocuments().map(d => `${base}/openapi/${d.version}.json`).join('\n                                     ')}
  What changed between versions:     ${base}/openapi/changes.json
  Who calls which version:           the api_version.requests counter, on this console every ${exportIntervalMillis / 1000} s
  Swagger UI configuration:          ${base}/openapi/swagger-config
Try:
  curl -i '${base}/orders?api-version=1.0'
  curl -i -H 'api-version: 2.0' ${base}/orders
  curl -i '${base}/orders?api-version=0.9'      # deprecated: Deprecation, Sunset and Link, api-deprecated-versions
  curl -i '${base}/orders?api-version=3.0'      # 400 Unsupported
  curl -i ${base}/orders                        # 400 Unspecified
  curl -i '${base}/orders?api-version=1.'       # 400 Invalid
  curl -i '${base}/orders?api-version=1&api-version=2'  # 400 Ambiguous
  curl -i -H 'api-version: 2.0' -H 'authorization: Bearer demo' -H 'content-type: application/json' -d '{"item":"jam"}' ${base}/orders
  curl -i ${base}/api/v2.0/orders/1
  curl -i ${base}/api/v9/orders/1               # 404 Unsupported
  curl -i '${base}/customers/1?api-version=2.0'  # one handler; try 1.0: 'name', no email
  curl -i ${base}/health`)
