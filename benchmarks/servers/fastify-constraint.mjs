// Fastify's built-in version constraint: semver in Accept-Version; no version, or no match, is a 404.
import Fastify from 'fastify'
import { payload, ready } from './payload.mjs'

const app = Fastify()
app.get('/items', { constraints: { version: '1.0.0' } }, async () => payload)
app.get('/items', { constraints: { version: '2.0.0' } }, async () => payload)
app.get('/health', async () => payload)
await app.listen({ port: 0, host: '127.0.0.1' })
ready(app.server.address().port)
