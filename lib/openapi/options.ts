import type { onRequestHookHandler, preHandlerHookHandler } from 'fastify'
import type { RouteTransform } from './collect.js'
import type { OpenApiDocument } from './split.js'

/** Options of the docs page, passed on to @fastify/swagger-ui (which needs installing). */
export interface ApiVersioningOpenApiUiOptions {
  /** Where the page is served. Default `'/docs'`. */
  routePrefix?: string
  /** Swagger UI's own configuration; `configUrl` is the plugin's (it feeds the version picker). */
  uiConfig?: Record<string, unknown>
  /** Hooks of the page's routes. */
  uiHooks?: { onRequest?: onRequestHookHandler, preHandler?: preHandlerHookHandler }
  /** Any other @fastify/swagger-ui option (`theme`, `logo`, `staticCSP`, ...). */
  [option: string]: unknown
}

/** The base document: what every version's document starts from. */
export interface OpenApiBase {
  openapi?: string
  info?: { title?: string, version?: string, description?: string, [keyword: string]: unknown }
  [keyword: string]: unknown
}

export interface ApiVersioningOpenApiOptions {
  /** The base document, as @fastify/swagger's `openapi` option: `info`, `servers`, `components`, `tags`, ... */
  openapi?: OpenApiBase
  /** Where the documents are served: `{routePrefix}/{version}.json` and `.yaml`, `{routePrefix}/swagger-config`. Default `'/openapi'`. */
  routePrefix?: string
  /** Serve a docs page with a version picker: true, or the page's options. Needs @fastify/swagger-ui. */
  ui?: boolean | ApiVersioningOpenApiUiOptions
  /** As @fastify/swagger's `transform`: changes a route's schema or url before it is documented. */
  transform?: RouteTransform
  /** Runs on each version's document once it is built; returns the document to serve. */
  transformObject?: (context: { document: OpenApiDocument, version: string }) => OpenApiDocument
}

export interface ResolvedOpenApiOptions {
  readonly openapi: OpenApiBase
  readonly routePrefix: string
  readonly ui: (ApiVersioningOpenApiUiOptions & { routePrefix: string }) | null
  readonly transform: RouteTransform | null
  readonly transformObject: ((context: { document: OpenApiDocument, version: string }) => OpenApiDocument) | null
}

const KNOWN = new Set(['openapi', 'routePrefix', 'ui', 'transform', 'transformObject', 'prefix', 'logLevel', 'logSerializers'])
const PREFIX = /^(\/[\w.~!$&'()+,;=@%-]+)+$/
const OPENAPI_VERSION = /^3\.[01]\.\d+$/

function fail (message: string): never {
  throw new TypeError('fastify-api-versioning/openapi: ' + message)
}

function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function prefix (value: unknown, name: string, fallback: string): string {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !PREFIX.test(value)) {
    fail(`${name} must be a path such as '${fallback}': starting with '/', without a trailing '/' or route parameters (got ${JSON.stringify(value)})`)
  }
  return value
}

function optionalFunction<T> (value: T | undefined, name: string): T | null {
  if (value !== undefined && typeof value !== 'function') fail(`${name} must be a function`)
  return value ?? null
}

/** Checks every option, naming the one that is wrong, and fills in the defaults. */
export function resolveOpenApiOptions (options: ApiVersioningOpenApiOptions): ResolvedOpenApiOptions {
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) fail(`unknown option ${JSON.stringify(key)}`)
  }
  const openapi = options.openapi ?? {}
  if (!isObject(openapi)) fail('openapi must be an object: the base OpenAPI document')
  if (openapi.openapi !== undefined && (typeof openapi.openapi !== 'string' || !OPENAPI_VERSION.test(openapi.openapi))) {
    fail(`openapi.openapi must be an OpenAPI version 3.0.x or 3.1.x, such as '3.1.0' (got ${JSON.stringify(openapi.openapi)})`)
  }
  const routePrefix = prefix(options.routePrefix, 'routePrefix', '/openapi')

  let ui: ResolvedOpenApiOptions['ui'] = null
  if (options.ui !== undefined && options.ui !== false) {
    const given = options.ui === true ? {} : options.ui
    if (!isObject(given)) fail('ui must be a boolean or an object of @fastify/swagger-ui options')
    if (given.uiConfig !== undefined && !isObject(given.uiConfig)) fail('ui.uiConfig must be an object')
    ui = { ...given, routePrefix: prefix(given.routePrefix, 'ui.routePrefix', '/docs') }
    if (ui.routePrefix === routePrefix) fail(`ui.routePrefix and routePrefix must differ (both are ${JSON.stringify(routePrefix)})`)
  }

  return Object.freeze({
    openapi,
    routePrefix,
    ui,
    transform: optionalFunction(options.transform, 'transform'),
    transformObject: optionalFunction(options.transformObject, 'transformObject')
  })
}
