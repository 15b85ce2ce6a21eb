// An example service: `npm run example`, then try the requests printed below.
import Fastify from 'fastify'
import apiVersioning from '../dist/esm/index.js'

const app = Fastify({ logger: { level: 'warn' } })
await app.register(apiVersioning, { problemDetails: true, reportApiVersions: true })

const orders = [{ id: 1, item: 'tea', quantity: 2 }]
app.get('/orders', { apiVersions: '1.0', deprecatedApiVersions: '0.9' }, async () => orders.map(o => o.item))
app.get('/orders', { apiVersions: '2.0' }, async () => orders)
app.get('/api/v:apiVersion/orders', { apiVersions: ['1.0', '2.0'] }, async (request) => ({ version: String(request.apiVersion), orders }))
app.get('/ping', { apiVersionNeutral: true }, async () => 'pong')
app.get('/health', async () => 'ok')

const port = Number(process.env.PORT ?? 3000)
await app.listen({ port, host: '127.0.0.1' })
console.log(`Listening on http://127.0.0.1:${port}. Try:
  curl -i 'http://127.0.0.1:${port}/orders?api-version=1.0'
  curl -i -H 'api-version: 2.0' http://127.0.0.1:${port}/orders
  curl -i 'http://127.0.0.1:${port}/orders?api-version=3.0'     # 400 Unsupported
  curl -i http://127.0.0.1:${port}/orders                       # 400 Unspecified
  curl -i 'http://127.0.0.1:${port}/orders?api-version=1.'      # 400 Invalid
  curl -i 'http://127.0.0.1:${port}/orders?api-version=1&api-version=2'  # 400 Ambiguous
  curl -i http://127.0.0.1:${port}/api/v2/orders
  curl -i http://127.0.0.1:${port}/api/v9/orders                # 404 Unsupported`)
