// fastify-api-versioning: query, header and URL segment readers, two versions, problem details. With
// `node plugin.mjs report` the version headers too; `media` adds the media type reader (`v`); `policy` gives 1.0
// a deprecation and an enforced sunset (far off, so 1.0 is still served, with its policy headers); `openapi`
// registers the OpenAPI entry with its docs page (documents built before the load starts).
import Fastify from 'fastify'
import apiVersioning from '../../dist/esm/index.js'
import { payload, ready } from './payload.mjs'

const app = Fastify()
const mode = process.argv[2]
await app.register(apiVersioning, {
  versionReader: { query: 'api-version', header: 'api-version', urlSegment: 'apiVersion', mediaType: mode === 'media' ? 'v' : false },
  problemDetails: true,
  reportApiVersions: mode === 'report',
  policies: mode !== 'policy'
    ? {}
    : {
        '1.0': {
          deprecation: { date: '2026-01-01', link: 'https://example.com/deprecations/v1' },
          sunset: { date: '2099-01-01', link: 'https://example.com/sunset/v1', enforce: true }
        }
      }
})
if (mode === 'openapi') {
  const { default: apiVersioningOpenApi } = await import('../../dist/esm/openapi/index.js')
  await app.register(apiVersioningOpenApi, { openapi: { info: { title: 'bench', version: '1' } }, ui: { routePrefix: '/docs' } })
}
app.get('/items', { apiVersions: '1.0' }, async () => payload)
app.get('/items', { apiVersions: '2.0' }, async () => payload)
app.get('/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, async () => payload)
app.get('/health', async () => payload)
await app.listen({ port: 0, host: '127.0.0.1' })
if (mode === 'openapi') app.apiVersionDocuments()
ready(app.server.address().port)
