import type { FastifyRequest } from 'fastify'

// Fastify's symbol of a request's route context, found once (by its description: the symbol is Fastify's own, one
// a copy of Fastify), and again for a request of another copy.
let contextKey: symbol | undefined

/** The route context Fastify keeps on a request (its compiled validators, hooks, schemaErrorFormatter); undefined where none is found. */
export function routeContextOf (request: FastifyRequest): Record<string | symbol, unknown> | undefined {
  const key = routeContextKey(request)
  return key === undefined ? undefined : (request as unknown as Record<symbol, Record<string | symbol, unknown>>)[key]
}

/** The key of the route context Fastify keeps on a request (and reads there at each step); undefined where none. */
export function routeContextKey (request: FastifyRequest): symbol | undefined {
  const holder = request as unknown as Record<symbol, unknown>
  if (contextKey !== undefined && holder[contextKey] !== undefined) return contextKey
  contextKey = Object.getOwnPropertySymbols(request).find(own => own.description === 'fastify.context')
  return contextKey
}
