import type { FastifyReply } from 'fastify'

// Fastify's symbol of the serializer a handler or hook gives a reply. Each copy of Fastify has a symbol of its own,
// not exported: it is found by its description, once, and again where a reply of another copy lacks it.
let serializerKey: symbol | undefined

/**
 * The serializer a handler or hook gave the reply (`reply.serializer(fn)`), which Fastify writes the reply with
 * rather than the route's schemas; null where none.
 */
export function replySerializer (reply: FastifyReply): unknown {
  const holder = reply as unknown as Record<symbol, unknown>
  if (serializerKey === undefined || !Object.hasOwn(holder, serializerKey)) serializerKey = Object.getOwnPropertySymbols(reply).find(own => own.description === 'fastify.reply.serializer')
  const serializer = serializerKey === undefined ? null : holder[serializerKey]
  return typeof serializer === 'function' ? serializer : null
}
