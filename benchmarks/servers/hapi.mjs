// hapi with hapi-api-version: integer versions from the api-version header or a /vN path prefix.
import Hapi from '@hapi/hapi'
import apiVersion from 'hapi-api-version'
import { payload, ready } from './payload.mjs'

const server = Hapi.server({ port: 0, host: '127.0.0.1' })
await server.register({ plugin: apiVersion, options: { validVersions: [1, 2], defaultVersion: 1, vendorName: 'bench' } })
for (const v of [1, 2]) server.route({ method: 'GET', path: `/v${v}/items`, handler: () => payload })
server.route({ method: 'GET', path: '/health', handler: () => payload })
await server.start()
ready(server.info.port)
