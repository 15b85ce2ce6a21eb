// The apps that instructions.mjs counts, by name: plain Fastify, hand-written hooks (the bar), the plugin, and
// Fastify's own version constraint (a reference). Each has the routes of servers/: /items in versions 1.0 and 2.0
// (0.9 deprecated, for the report rows), /v:apiVersion/items, and an unversioned /health.
import Fastify from 'fastify'
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { metrics } from '@opentelemetry/api'
import { payload } from './servers/payload.mjs'

// PLUGIN_DIST: another build of the plugin (say, the previous release's dist/esm/index.js), for an A/B.
const { default: apiVersioning, versionChange } = await import(process.env.PLUGIN_DIST ?? '../dist/esm/index.js')

export const KINDS = ['plain', 'hook', 'hook-vary', 'hook-report', 'dispatch', 'plugin', 'plugin-report', 'plugin-telemetry', 'plugin-telemetry-noop', 'plugin-orders', 'plugin-changes', 'fastify-constraint']

// /orders, answered with a response schema: by an ordinary versioned route ('plugin-orders'), and by a route
// written for the newest of three versions whose older ones differ by one rename a step ('plugin-changes'). Apart
// from 'plugin', whose rows keep the routes they had in earlier runs, so that they compare.
const Order = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, quantity: { type: 'integer' } } }
const order = { id: 1, name: 'tea', quantity: 2 }
// A build from before version changes (PLUGIN_DIST) has no versionChange: its apps have none.
const CHANGES = versionChange === undefined
  ? undefined
  : [
      { version: '3.0', changes: [versionChange({ description: 'quantity (was qty).', fields: [{ schema: Order, field: 'quantity', renamedFrom: 'qty' }] })] },
      { version: '2.0', changes: [versionChange({ description: 'name (was title).', fields: [{ schema: Order, field: 'name', renamedFrom: 'title' }] })] },
      { version: '1.0' }
    ]

const handler = async () => payload
const SUPPORTED = new Set(['0.9', '1.0', '2.0'])

// What the plugin does for a valid version, written by hand: read the version where it may be (the route
// parameter, the query, the header), check it against a Set, answer a problem when it is not there; with
// `vary`, the Vary header the plugin sends; with `report`, the two version headers too.
function checkVersion (vary, report) {
  return function checkVersion (request, reply, done) {
    if (vary) reply.header('vary', 'api-version')
    if (report) {
      reply.header('api-supported-versions', '1.0, 2.0')
      reply.header('api-deprecated-versions', '0.9')
    }
    const version = request.params.apiVersion ?? request.query['api-version'] ?? request.headers['api-version']
    if (!SUPPORTED.has(version)) return reply.code(400).type('application/problem+json').send({ title: 'Bad API version', status: 400 })
    done()
  }
}

// The next design step that benchmarks/results.md names, by hand, as a floor for it: no router constraint and no
// hook; one route per method and path whose handler reads every reader (as the spec asks, to find an Ambiguous
// request), sends Vary with the reply, and calls the version's own handler.
function dispatching (handlers) {
  return function dispatch (request, reply) {
    reply.header('vary', 'api-version')
    const inPath = request.params.apiVersion
    const inQuery = request.query['api-version']
    const inHeader = request.headers['api-version']
    const version = inPath ?? inQuery ?? inHeader
    const own = handlers.get(version)
    if (own === undefined || (inQuery !== undefined && inQuery !== version) || (inHeader !== undefined && inHeader !== version)) {
      return reply.code(400).type('application/problem+json').send({ title: 'Bad API version', status: 400 })
    }
    return own(request, reply)
  }
}

/** The app `kind`, not yet ready. */
export async function buildApp (kind) {
  // `scale-<kind>[@<paths>]`: an app of servers/scale-changes-apps.mjs (the rows of #38), at one path (or <paths>)
  // and 11 versions.
  if (kind.startsWith('scale-')) {
    const { buildApp: buildScaleApp } = await import('./servers/scale-changes-apps.mjs')
    const [scaleKind, paths = '1'] = kind.slice('scale-'.length).split('@')
    return buildScaleApp(scaleKind, { paths: Number(paths), versions: 11, lines: true })
  }
  if (!KINDS.includes(kind)) throw new Error(`no app ${JSON.stringify(kind)}: ${KINDS.join(', ')}`)
  const app = Fastify()
  if (kind === 'plain') {
    app.get('/items', handler)
    app.get('/v:apiVersion/items', handler)
  } else if (kind.startsWith('hook')) {
    const onRequest = checkVersion(kind !== 'hook', kind === 'hook-report')
    app.get('/items', { onRequest }, handler)
    app.get('/v:apiVersion/items', { onRequest }, handler)
  } else if (kind === 'dispatch') {
    const dispatch = dispatching(new Map([['0.9', handler], ['1.0', handler], ['2.0', handler]]))
    app.get('/items', dispatch)
    app.get('/v:apiVersion/items', dispatch)
  } else if (kind === 'fastify-constraint') {
    app.get('/items', { constraints: { version: '1.0.0' } }, handler)
    app.get('/items', { constraints: { version: '2.0.0' } }, handler)
  } else {
    // With telemetry: the SDK, read by a reader that exports rarely (the cost of counting, not of exporting); or
    // OpenTelemetry's no-op meter provider (the API alone, no SDK registered).
    const telemetry = kind === 'plugin-telemetry'
      ? { meterProvider: new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 })] }) }
      : kind === 'plugin-telemetry-noop' ? { meterProvider: metrics.getMeterProvider() } : false
    const changes = kind === 'plugin-changes'
    await app.register(apiVersioning, { versionReader: { query: 'api-version', header: 'api-version', urlSegment: 'apiVersion' }, problemDetails: true, reportApiVersions: kind === 'plugin-report', telemetry, ...(changes ? { versionChanges: CHANGES } : {}) })
    app.get('/items', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, handler)
    app.get('/items', { apiVersions: '2.0' }, handler)
    app.get('/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, handler)
    const orders = async () => order
    if (changes) app.get('/orders', { versionChanges: true, schema: { response: { 200: Order } } }, orders)
    else if (kind === 'plugin-orders') app.get('/orders', { apiVersions: '3.0', schema: { response: { 200: Order } } }, orders)
  }
  app.get('/health', handler)
  return app
}
