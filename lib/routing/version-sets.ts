import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions } from 'fastify'
import { DECLARATION_OPTIONS, readDeclaration } from './route-table.js'
import { coded } from '../errors.js'

/** The versions that the routes of a group take unless they declare their own. */
export interface ApiVersionSet {
  apiVersions?: string | readonly string[]
  deprecatedApiVersions?: string | readonly string[]
  apiVersionNeutral?: boolean
  /** Versions of these paths that other services implement: reported, never routed here. */
  advertisedApiVersions?: string | readonly string[]
  advertisedDeprecatedApiVersions?: string | readonly string[]
}

/**
 * Where `withApiVersions` leaves its set: an own property of the plugin's instance, so inner sets shadow outer ones;
 * a registry symbol, so that either build of the package (ESM, CommonJS) finds the other's sets.
 */
export const kVersionSet = Symbol.for('fastify-api-versioning.versionSet')
const KEYS: readonly string[] = DECLARATION_OPTIONS

/** The set that applies to a route declared on `instance`, or undefined. */
export function versionSetOf (instance: FastifyInstance): ApiVersionSet | undefined {
  return (instance as unknown as { [kVersionSet]?: ApiVersionSet })[kVersionSet]
}

/**
 * Wraps a plugin so that every route declared inside it (nested plugins included) that has none of
 * `apiVersions`, `deprecatedApiVersions`, `apiVersionNeutral` and the advertised versions takes `set`. A route's own declaration replaces
 * the set; an inner `withApiVersions` replaces an outer one. The set is checked here, when it is made.
 */
export function withApiVersions<Options extends FastifyPluginOptions = Record<never, never>> (set: ApiVersionSet, plugin: FastifyPluginCallback<Options>): FastifyPluginCallback<Options>
export function withApiVersions<Options extends FastifyPluginOptions = Record<never, never>> (set: ApiVersionSet, plugin: FastifyPluginAsync<Options>): FastifyPluginAsync<Options>
export function withApiVersions<Options extends FastifyPluginOptions = Record<never, never>> (
  set: ApiVersionSet,
  plugin: { default: FastifyPluginAsync<Options> | FastifyPluginCallback<Options> }
): FastifyPluginAsync<Options> | FastifyPluginCallback<Options>
export function withApiVersions<Options extends FastifyPluginOptions = Record<never, never>> (
  set: ApiVersionSet,
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options> | { default: FastifyPluginAsync<Options> | FastifyPluginCallback<Options> }
): FastifyPluginCallback<Options> | FastifyPluginAsync<Options> {
  if (typeof set !== 'object' || set === null || Array.isArray(set)) {
    throw coded(new TypeError('fastify-api-versioning: withApiVersions needs a set such as { apiVersions: [\'1.0\', \'2.0\'] }'), 'FST_API_VERSIONING_INVALID_DECLARATION')
  }
  for (const key of Object.keys(set)) {
    if (!KEYS.includes(key)) throw coded(new TypeError(`fastify-api-versioning: withApiVersions: unknown option ${JSON.stringify(key)}; a set has ${KEYS.join(', ')}`), 'FST_API_VERSIONING_INVALID_DECLARATION')
  }
  const declaration = readDeclaration(set as Record<string, unknown>, 'set of withApiVersions')
  if (declaration.kind === 'plain') throw coded(new TypeError('fastify-api-versioning: withApiVersions needs apiVersions, deprecatedApiVersions or apiVersionNeutral'), 'FST_API_VERSIONING_INVALID_DECLARATION')
  const inner = typeof plugin === 'function' ? plugin : plugin?.default
  if (typeof inner !== 'function') throw coded(new TypeError('fastify-api-versioning: withApiVersions needs a plugin function as its second argument'), 'FST_API_VERSIONING_INVALID_DECLARATION')
  const frozen = Object.freeze({ ...set })
  const mark = (instance: FastifyInstance): void => { (instance as unknown as { [kVersionSet]: ApiVersionSet })[kVersionSet] = frozen }
  // The wrapper is a plugin of its own (encapsulated, so the set stays inside), of the same kind as the one it wraps.
  const wrapped = inner.length >= 3
    ? function (instance: FastifyInstance, options: Options, done: (error?: Error) => void) { mark(instance); (inner as FastifyPluginCallback<Options>)(instance, options, done) }
    : async function (instance: FastifyInstance, options: Options) { mark(instance); await (inner as FastifyPluginAsync<Options>)(instance, options) }
  Object.defineProperty(wrapped, 'name', { value: `withApiVersions(${inner.name || 'plugin'})` })
  return wrapped as FastifyPluginCallback<Options> | FastifyPluginAsync<Options>
}

/** A route's own declaration, or its group's when it has none. */
export function declarationSource (route: Record<string, unknown>, set: ApiVersionSet | undefined): Record<string, unknown> {
  if (set === undefined || KEYS.some(key => route[key] !== undefined)) return route
  return set as Record<string, unknown>
}
