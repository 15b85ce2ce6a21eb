// The limit: plain Fastify with the same routes and no versioning at all.
import Fastify from 'fastify'
import { payload, ready } from './payload.mjs'

const app = Fastify()
app.get('/items', async () => payload)
app.get('/v:apiVersion/items', async () => payload)
app.get('/health', async () => payload)
await app.listen({ port: 0, host: '127.0.0.1' })
ready(app.server.address().port)
