// Type tests of fastify-api-versioning/openapi: compiled by `npm run typecheck` (part of `npm test`).
import Fastify from 'fastify'
import type { SwaggerTransform } from '@fastify/swagger'
import apiVersioning from '../lib/index.js'
import apiVersioningOpenApi, {
  apiVersioningOpenApi as named,
  type ApiVersionChanges, type ApiVersionDocument, type ApiVersioningOpenApiOptions, type GuardHooks, type OpenApiDocument, type OperationChange, type OperationChanges,
  type RouteTransform, type SwaggerConfig
} from '../lib/openapi/index.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
function expectType<T extends true> (): T | void {}

const app = Fastify()
await app.register(apiVersioning, { problemDetails: true, reportApiVersions: true })
await app.register(apiVersioningOpenApi, {
  openapi: { openapi: '3.1.0', info: { title: 'Orders' }, servers: [{ url: 'https://example.com' }] },
  routePrefix: '/openapi',
  ui: { routePrefix: '/docs', uiConfig: { docExpansion: 'list' }, uiHooks: { onRequest: (_request, _reply, done) => done() }, theme: { title: 'Orders' } },
  transform: ({ schema, url, route }) => ({ schema: { ...schema, tags: [String(route.method)] }, url }),
  transformObject: ({ document, version }) => ({ ...document, info: { ...document.info, title: `Orders ${version}` } })
})
await app.register(named, { ui: true })
// The guard of the documents (and the page): a hook or an array of hooks, callback or async style.
await app.register(apiVersioningOpenApi, {
  hooks: {
    onRequest: async (request, reply) => { if (request.headers.authorization === undefined) return reply.code(401).send() },
    preHandler: [(_request, _reply, done) => done()]
  }
})
const guard: GuardHooks = { onRequest: [(_request, _reply, done) => done()] }
await app.register(apiVersioningOpenApi, { ui: { uiHooks: guard } })
// @ts-expect-error: the guard runs onRequest and preHandler hooks only
await app.register(apiVersioningOpenApi, { hooks: { onSend: () => {} } })
// @ts-expect-error: a hook is a function
await app.register(apiVersioningOpenApi, { hooks: { onRequest: 'guard' } })
await app.register(apiVersioningOpenApi)
// A @fastify/swagger transform fits, and so does one that returns only what it changes.
const swaggerTransform: SwaggerTransform = ({ schema, url }) => ({ schema, url })
await app.register(apiVersioningOpenApi, { transform: swaggerTransform })
const partial: RouteTransform = ({ url }) => ({ url: url.replace('/internal', '') })
const options: ApiVersioningOpenApiOptions = { transform: partial, ui: false }
// @ts-expect-error: an unknown option
await app.register(apiVersioningOpenApi, { routeprefix: '/x' })
// @ts-expect-error: a prefix is a string
await app.register(apiVersioningOpenApi, { routePrefix: 1 })
// @ts-expect-error: transformObject returns the document
await app.register(apiVersioningOpenApi, { transformObject: () => 'x' })
// @ts-expect-error: ui is a boolean or options
await app.register(apiVersioningOpenApi, { ui: 'yes' })

app.get('/own', { apiVersions: '1.0', config: { swaggerTransform: false } }, async () => 'x')

const documents = app.apiVersionDocuments()
expectType<Equal<typeof documents, readonly ApiVersionDocument[]>>()
expectType<Equal<ApiVersionDocument['version'], string>>()
expectType<Equal<ApiVersionDocument['deprecated'], boolean>>()
const document: OpenApiDocument = documents[0].document
const title: string = document.info.title
const paths: Record<string, Record<string, unknown>> = document.paths
// @ts-expect-error: documents are read-only
documents[0].version = '2.0'
// What changed from each version to the next: operations as 'GET /orders/{id}', changes as sentences.
const changes = app.apiVersionChanges()
expectType<Equal<typeof changes, readonly ApiVersionChanges[]>>()
expectType<Equal<ApiVersionChanges['from'] | ApiVersionChanges['to'], string>>()
expectType<Equal<ApiVersionChanges['added'] | ApiVersionChanges['removed'] | ApiVersionChanges['hidden'] | ApiVersionChanges['deprecated'], readonly string[]>>()
expectType<Equal<ApiVersionChanges['changed'], readonly OperationChanges[]>>()
expectType<Equal<OperationChanges, { readonly operation: string, readonly breaking: boolean, readonly changes: readonly string[], readonly details: readonly OperationChange[] }>>()
// Each change with its own verdict.
expectType<Equal<OperationChange, { readonly change: string, readonly breaking: boolean }>>()
const breaking: boolean = changes.some(c => c.removed.length > 0 || c.changed.some(op => op.breaking))
const breakingLines: string[] = changes.flatMap(c => c.changed.flatMap(op => op.details.filter(d => d.breaking).map(d => `${op.operation}: ${d.change}`)))
// @ts-expect-error: the changes are read-only
changes[0].added.push('GET /x')
// @ts-expect-error: so is each operation's
changes[0].changed[0].breaking = false
// @ts-expect-error: and each change's
changes[0].changed[0].details[0].breaking = false
const config: SwaggerConfig = { urls: [{ url: '/openapi/1.0.json', name: '1.0' }], 'urls.primaryName': '1.0' }
// No version served: a document of none, and no picker.
const ended: SwaggerConfig = { spec: { openapi: '3.1.0', info: { title: 'Orders', version: '', description: 'No version of this API is served.' }, paths: {} } }
// @ts-expect-error: a picker of no version is none
const empty: SwaggerConfig = { urls: [] }
export { options, title, paths, config, ended, empty, breaking, breakingLines }
