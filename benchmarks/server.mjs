// A server for one benchmark row: `node server.mjs plain|versioned`. Prints its port when listening.
import Fastify from 'fastify'
import apiVersioning from '../dist/esm/index.js'

const mode = process.argv[2]
const app = Fastify()
const payload = { hello: 'world' }
if (mode === 'plain') {
  app.get('/values', async () => payload)
} else {
  await app.register(apiVersioning, { problemDetails: true, reportApiVersions: true })
  app.get('/values', { apiVersions: ['1.0'] }, async () => payload)
  app.get('/values', { apiVersions: ['2.0'] }, async () => payload)
  app.get('/health', async () => payload)
}
await app.listen({ port: 0, host: '127.0.0.1' })
process.send?.(app.server.address().port)
