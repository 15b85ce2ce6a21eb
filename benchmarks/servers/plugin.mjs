// fastify-api-versioning: query, header and URL segment readers, two versions, problem details; the version
// headers too with `node plugin.mjs report`.
import Fastify from 'fastify'
import apiVersioning from '../../dist/esm/index.js'
import { payload, ready } from './payload.mjs'

const app = Fastify()
await app.register(apiVersioning, {
  versionReader: { query: 'api-version', header: 'api-version', urlSegment: 'apiVersion' },
  problemDetails: true,
  reportApiVersions: process.argv[2] === 'report'
})
app.get('/items', { apiVersions: '1.0' }, async () => payload)
app.get('/items', { apiVersions: '2.0' }, async () => payload)
app.get('/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, async () => payload)
app.get('/health', async () => payload)
await app.listen({ port: 0, host: '127.0.0.1' })
ready(app.server.address().port)
