import type { FastifySchema } from 'fastify'

type ObjectSchema = Record<string | symbol, unknown> & { properties?: Record<string, unknown> }

/**
 * A versioned or neutral route's schema, with the version query names allowed in a querystring schema that
 * forbids other properties (`additionalProperties: false`, as TypeBox's type provider users write it): the
 * plugin reads those names, so validation must not reject them. Other unknown names are still rejected.
 */
export function allowVersionQuery (schema: FastifySchema | undefined, names: readonly string[]): FastifySchema | undefined {
  if (schema === undefined || schema === null || names.length === 0) return schema
  const key = schema.querystring !== undefined ? 'querystring' : 'query' in schema ? 'query' : null
  if (key === null) return schema
  const query = (schema as Record<string, unknown>)[key] as ObjectSchema | null
  if (typeof query !== 'object' || query === null || query.additionalProperties !== false) {
    return schema
  }
  const missing = names.filter(name => query.properties?.[name] === undefined)
  if (missing.length === 0) return schema
  const properties: Record<string, unknown> = { ...query.properties }
  for (const name of missing) properties[name] = { type: 'string' }
  // A copy, so the user's schema object (perhaps shared with other routes) stays as it was; without its $id,
  // which would then name two different schemas.
  const { $id, ...rest } = query
  return { ...schema, [key]: { ...rest, properties } }
}
