import type { RouteShorthandOptions } from 'fastify'
import type { RouteTransform } from './collect.js'
import type { OpenApiDocument } from '../changes/document.js'
import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import { isAsyncFunction } from '../util/is-thenable.js'

/** Hooks that guard routes, as a route's own `onRequest` and `preHandler` options: a function or an array. */
export interface GuardHooks {
  onRequest?: RouteShorthandOptions['onRequest']
  preHandler?: RouteShorthandOptions['preHandler']
}

/** Options of the docs page, passed on to @fastify/swagger-ui (which needs installing). */
export interface ApiVersioningOpenApiUiOptions {
  /** Where the page is served. Default `'/docs'`. */
  routePrefix?: string
  /** Swagger UI's own configuration; `configUrl` is the plugin's (it feeds the version picker). `persistAuthorization` defaults to true. */
  uiConfig?: Record<string, unknown>
  /** Hooks that guard the page and every route that serves a document or its configuration (as `hooks`). */
  uiHooks?: GuardHooks
  /** Any other @fastify/swagger-ui option (`theme`, `logo`, `staticCSP`, ...). */
  [option: string]: unknown
}

/** The base document: what every version's document starts from. */
export interface OpenApiBase {
  openapi?: string
  info?: { title?: string, version?: string, description?: string, [keyword: string]: unknown }
  [keyword: string]: unknown
}

/** What `transformObject` gets: a version's document, under both names, and the version. */
export interface TransformObjectContext {
  document: OpenApiDocument
  /**
   * The document again, under the name @fastify/swagger gives a `transformObject`, typed loosely (`document` is
   * typed): one typed for @fastify/swagger (`SwaggerTransformObject`, as fastify-type-provider-zod's
   * `jsonSchemaTransformObject` is) is one for this option too, without this entry's types loading @fastify/swagger's.
   */
  openapiObject: any
  version: string
}

export interface ApiVersioningOpenApiOptions {
  /** The base document, as @fastify/swagger's `openapi` option: `info`, `servers`, `components`, `tags`, ... */
  openapi?: OpenApiBase
  /** Where the documents are served: `{routePrefix}/{version}.json` and `.yaml`, `{routePrefix}/swagger-config`. Default `'/openapi'`. */
  routePrefix?: string
  /** Serve a docs page with a version picker: true, or the page's options. Needs @fastify/swagger-ui. */
  ui?: boolean | ApiVersioningOpenApiUiOptions
  /** Hooks that guard every route that serves a document or its configuration, and the page if there is one. */
  hooks?: GuardHooks
  /** As @fastify/swagger's `transform`: changes a route's schema or url before it is documented. */
  transform?: RouteTransform
  /**
   * Runs on each version's document once it is built; returns the document to serve. It gets the document as
   * `openapiObject` too, as @fastify/swagger gives its own `transformObject`, so that one written for it (such as
   * fastify-type-provider-zod's `jsonSchemaTransformObject`) serves as it is.
   */
  transformObject?: (context: TransformObjectContext) => OpenApiDocument | Record<string, unknown>
}

type Hook<K extends keyof GuardHooks> = Extract<NonNullable<GuardHooks[K]>, (...args: any[]) => unknown>

/** The guard, as arrays (empty for none), ready for a route's options. */
export interface Guard {
  readonly onRequest: Array<Hook<'onRequest'>>
  readonly preHandler: Array<Hook<'preHandler'>>
}

export interface ResolvedOpenApiOptions {
  readonly openapi: OpenApiBase
  readonly routePrefix: string
  /** The page's options, without `uiHooks`: the guard stands for them. */
  readonly ui: (ApiVersioningOpenApiUiOptions & { routePrefix: string }) | null
  readonly guard: Guard
  readonly transform: RouteTransform | null
  readonly transformObject: NonNullable<ApiVersioningOpenApiOptions['transformObject']> | null
}

const KNOWN = new Set(['openapi', 'routePrefix', 'ui', 'hooks', 'transform', 'transformObject', 'prefix', 'logLevel', 'logSerializers'])
const GUARD_HOOKS = ['onRequest', 'preHandler'] as const
const PREFIX = /^(\/[\w.~!$&'()+,;=@%-]+)+$/
const OPENAPI_VERSION = /^3\.[01]\.\d+$/

function fail (message: string): never {
  throw coded(new TypeError('fastify-api-versioning/openapi: ' + message), 'FST_API_VERSIONING_OPENAPI_OPTION')
}

function prefix (value: unknown, name: string, fallback: string): string {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !PREFIX.test(value)) {
    fail(`${name} must be a path such as '${fallback}': starting with '/', without a trailing '/' or route parameters (got ${JSON.stringify(value)})`)
  }
  return value
}

function show (value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : `an array with ${show(value.find(hook => typeof hook !== 'function'))}`
  return typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value)
}

function guard (value: unknown, name: string): Guard {
  if (value === undefined) return { onRequest: [], preHandler: [] }
  if (!isObject(value)) fail(`${name} must be an object with onRequest and/or preHandler hooks (got ${show(value)})`)
  for (const key of Object.keys(value)) {
    if (!(GUARD_HOOKS as readonly string[]).includes(key)) fail(`${name}.${key} is not a hook this plugin runs: give onRequest or preHandler`)
  }
  const [onRequest, preHandler] = GUARD_HOOKS.map(hook => {
    const hooks = value[hook] === undefined ? [] : Array.isArray(value[hook]) ? value[hook] : [value[hook]]
    if ((Array.isArray(value[hook]) && hooks.length === 0) || hooks.some(h => typeof h !== 'function')) {
      fail(`${name}.${hook} must be a function or an array of functions (got ${show(value[hook])})`)
    }
    return hooks
  })
  return Object.freeze({ onRequest, preHandler } as Guard)
}

// The transforms run while a document is made, which cannot wait: an async one would give a promise for a document.
function optionalFunction<T> (value: T | undefined, name: string, gives: string): T | null {
  if (value !== undefined && typeof value !== 'function') fail(`${name} must be a function`)
  if (isAsyncFunction(value)) fail(`${name} must return ${gives} synchronously, but it is an async function; make it without await`)
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
  let pageGuard: Guard | null = null
  if (options.ui !== undefined && options.ui !== false) {
    const given = options.ui === true ? {} : options.ui
    if (!isObject(given)) fail('ui must be a boolean or an object of @fastify/swagger-ui options')
    if (given.uiConfig !== undefined && !isObject(given.uiConfig)) fail('ui.uiConfig must be an object')
    const { uiHooks, ...page } = given
    if (uiHooks !== undefined) pageGuard = guard(uiHooks, 'ui.uiHooks')
    ui = { ...page, routePrefix: prefix(given.routePrefix, 'ui.routePrefix', '/docs') }
    if (ui.routePrefix === routePrefix) fail(`ui.routePrefix and routePrefix must differ (both are ${JSON.stringify(routePrefix)})`)
  }
  // The page reads the documents: one guard for both, so that a browser that may see one may see the other.
  if (pageGuard !== null && options.hooks !== undefined) {
    fail('hooks and ui.uiHooks both guard the documents and the page: give one of them (hooks)')
  }

  return Object.freeze({
    openapi,
    routePrefix,
    ui,
    guard: pageGuard ?? guard(options.hooks, 'hooks'),
    transform: optionalFunction(options.transform, 'transform', '{ schema, url }'),
    transformObject: optionalFunction(options.transformObject, 'transformObject', 'the document')
  })
}
