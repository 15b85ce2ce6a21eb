import t from 'tap'
import type { FastifyReply } from 'fastify'
import { hasOwnSerializer } from '../../lib/util/own-serializer.js'

// Fastify keeps a reply's own serializer under a symbol of its own: each copy of Fastify has another.
const replyOf = (serializer: unknown): FastifyReply => ({ [Symbol('fastify.reply.serializer')]: serializer }) as unknown as FastifyReply

t.test("a reply's own serializer is found by Fastify's symbol, of any copy of Fastify", async t => {
  t.equal(hasOwnSerializer({} as FastifyReply), false, 'no symbol')
  t.equal(hasOwnSerializer(replyOf(null)), false, 'none given')
  t.equal(hasOwnSerializer(replyOf(JSON.stringify)), true)
  t.equal(hasOwnSerializer(replyOf(JSON.stringify)), true, 'another copy')
  t.equal(hasOwnSerializer(replyOf('text')), false, 'no function')
})
