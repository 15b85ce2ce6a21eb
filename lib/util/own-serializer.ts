import type { FastifyReply } from 'fastify'

// Fastify's symbol of the serializer a handler or hook gives a reply, found once (by its description: the symbol is
// Fastify's own, one a copy of Fastify), and again for a reply of another copy.
let serializerKey: symbol | undefined

/**
 * Whether a handler or hook gave the reply a serializer of its own (`reply.serializer(fn)`): Fastify writes the
 * reply with it rather than the route's schemas, in every version alike.
 */
export function hasOwnSerializer (reply: FastifyReply): boolean {
  const holder = reply as unknown as Record<symbol, unknown>
  if (serializerKey === undefined || !Object.hasOwn(holder, serializerKey)) serializerKey = Object.getOwnPropertySymbols(reply).find(own => own.description === 'fastify.reply.serializer')
  return serializerKey !== undefined && typeof holder[serializerKey] === 'function'
}
