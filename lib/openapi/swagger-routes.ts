import type { FastifyInstance, FastifyPluginCallback, RouteOptions } from 'fastify'
import { coded } from '../errors.js'

/**
 * Registers @fastify/swagger, and gives back the onRoute hook it collects the routes to document with: the shapes of
 * `versionChanges` routes' older versions are routes only the documents have (one route of the router serves them
 * all), given to it as Fastify gives it a route. Caught as it registers the hook (its first onRoute hook); a
 * @fastify/swagger that registers none cannot document those shapes, which start-up says.
 */
export async function registerCollecting (fastify: FastifyInstance, swagger: FastifyPluginCallback<Record<string, unknown>>, options: Record<string, unknown>): Promise<(route: RouteOptions) => void> {
  let collect: ((route: RouteOptions) => void) | null = null
  const own = Object.getOwnPropertyDescriptor(fastify, 'addHook')
  const addHook = fastify.addHook
  Object.defineProperty(fastify, 'addHook', {
    configurable: true,
    writable: true,
    value: function addHookSeen (this: FastifyInstance, name: string, hook: unknown) {
      if (name === 'onRoute' && collect === null) collect = hook as (route: RouteOptions) => void
      return (addHook as (name: string, hook: unknown) => FastifyInstance).call(this, name, hook)
    }
  })
  try {
    await fastify.register(swagger, options)
  } finally {
    if (own === undefined) delete (fastify as unknown as Record<string, unknown>).addHook
    else Object.defineProperty(fastify, 'addHook', own)
  }
  if (collect === null) throw coded(new Error('fastify-api-versioning/openapi: @fastify/swagger registered no onRoute hook, so the older versions of versionChanges routes could not be documented; use a version of @fastify/swagger the plugin is tested with (9.4.0 or later)'), 'FST_API_VERSIONING_MISSING_PEER')
  return collect
}
