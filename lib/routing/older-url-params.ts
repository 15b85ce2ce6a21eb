import type { FastifySchema } from 'fastify'
import { isObject } from '../util/is-object.js'

/**
 * On the options of a route that serves a `versionChanges` route at an older URL (version-changes/older-url.ts):
 * its path parameters' older names, older → the route's, which the router gives and a hook renames at once, and
 * which its documents show. A registry symbol: the openapi entry's build reads it.
 */
export const kOlderUrlParams = Symbol.for('fastify-api-versioning.olderUrlParams')

/** Older → the route's name of each path parameter of an older URL. */
export type ParamRenames = ReadonlyArray<readonly [string, string]>

/** A route's schema with its params' properties under their older names, where it names them, for its documents. */
export function withOlderParams<S extends FastifySchema | undefined> (schema: S, renames: ParamRenames): S {
  // A route without a schema (its parameters undeclared) has none to rename.
  const params = schema?.params
  if (!isObject(params) || !isObject(params.properties)) return schema
  const properties = params.properties
  // A property the URL does not name keeps its name.
  const olderOf = (name: string): string => renames.find(([, newer]) => newer === name)?.[0] ?? name
  return {
    ...schema as FastifySchema,
    params: {
      ...params,
      properties: Object.fromEntries(Object.entries(properties).map(([name, value]) => [olderOf(name), value])),
      ...Array.isArray(params.required) ? { required: params.required.map(name => olderOf(name as string)) } : {}
    }
  } as S
}
