import t from 'tap'
import type { FastifyReply } from 'fastify'
import { replySerializer } from '../../lib/util/reply-serializer.js'

// Fastify keeps a reply's own serializer under a symbol of its own: each copy of Fastify has another.
const replyOf = (serializer: unknown): FastifyReply => ({ [Symbol('fastify.reply.serializer')]: serializer }) as unknown as FastifyReply

t.test("a reply's own serializer is found by Fastify's symbol, of any copy of Fastify", async t => {
  t.equal(replySerializer({} as FastifyReply), null, 'no symbol')
  t.equal(replySerializer(replyOf(null)), null, 'none given')
  t.equal(replySerializer(replyOf(JSON.stringify)), JSON.stringify)
  t.equal(replySerializer(replyOf(String)), String, 'another copy')
  t.equal(replySerializer(replyOf('text')), null, 'no function')
})
