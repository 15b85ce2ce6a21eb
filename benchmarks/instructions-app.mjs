// One app of instructions.mjs, driven in process: `node instructions-app.mjs <app> <url> <headers JSON> <n>` sends n
// requests through app.routing() with Node's own IncomingMessage and ServerResponse (no socket: what is left
// out, parsing and writing on the wire, is the same for every app). The apps have the routes of servers/.
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import Fastify from 'fastify'
import { payload } from './servers/payload.mjs'

// PLUGIN_DIST: another build of the plugin (say, the previous release's dist/esm/index.js), for an A/B.
const { default: apiVersioning } = await import(process.env.PLUGIN_DIST ?? '../dist/esm/index.js')
const [kind, url, headersJson, n] = process.argv.slice(2)
const app = Fastify()
const handler = async () => payload
if (kind === 'plain') {
  app.get('/items', handler)
  app.get('/v:apiVersion/items', handler)
} else if (kind === 'hook' || kind === 'hook-vary') {
  const supported = new Set(['1.0', '2.0'])
  const vary = kind === 'hook-vary'
  const checkVersion = (request, reply, done) => {
    if (vary) reply.header('vary', 'api-version')
    const version = request.params.apiVersion ?? request.query['api-version'] ?? request.headers['api-version']
    if (!supported.has(version)) return reply.code(400).type('application/problem+json').send({ title: 'Bad API version', status: 400 })
    done()
  }
  app.get('/items', { onRequest: checkVersion }, handler)
  app.get('/v:apiVersion/items', { onRequest: checkVersion }, handler)
} else {
  await app.register(apiVersioning, { versionReader: { query: 'api-version', header: 'api-version', urlSegment: 'apiVersion' }, problemDetails: true, reportApiVersions: kind === 'plugin-report' })
  app.get('/items', { apiVersions: '1.0' }, handler)
  app.get('/items', { apiVersions: '2.0' }, handler)
  app.get('/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, handler)
}
app.get('/health', handler)
await app.ready()

const lines = Object.entries({ host: '127.0.0.1', 'user-agent': 'bench', accept: '*/*', ...JSON.parse(headersJson) }).flat()
const socket = new Socket()
let status = 0
class Response extends ServerResponse {
  end (...args) {
    super.end(...args)
    status = this.statusCode
    this.done()
  }
}
function request () {
  const req = new IncomingMessage(socket)
  Object.assign(req, { method: 'GET', url, httpVersion: '1.1', httpVersionMajor: 1, httpVersionMinor: 1 })
  req._addHeaderLines(lines, lines.length)
  const res = new Response(req)
  return new Promise(resolve => {
    res.done = resolve
    app.routing(req, res)
  })
}
// 20 requests in flight at a time, as a loaded server has.
for (let i = 0; i < Number(n); i += 20) await Promise.all(Array.from({ length: 20 }, request))
console.log(status) // the last response's status, which instructions.mjs checks
