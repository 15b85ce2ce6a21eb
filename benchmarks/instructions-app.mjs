// One app of instructions.mjs, driven in process: `node instructions-app.mjs <app> <url> <headers JSON> <n>` sends n
// requests through app.routing() with Node's own IncomingMessage and ServerResponse (no socket: what is left
// out, parsing and writing on the wire, is the same for every app). The apps: instructions-apps.mjs.
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { buildApp } from './instructions-apps.mjs'

const [kind, target, headersJson, n] = process.argv.slice(2)
// `POST /path` sends INSTRUCTIONS_BODY (JSON text) as the body; a bare URL is a GET.
const [method, url] = target.includes(' ') ? target.split(' ') : ['GET', target]
const body = method === 'GET' ? null : Buffer.from(process.env.INSTRUCTIONS_BODY ?? '{}')
const app = await buildApp(kind)
await app.ready()

const linesOf = (body, headers) => Object.entries({ host: '127.0.0.1', 'user-agent': 'bench', accept: '*/*', ...(body === null ? {} : { 'content-type': 'application/json', 'content-length': String(body.length) }), ...headers }).flat()
const lines = linesOf(body, JSON.parse(headersJson))
const socket = new Socket()
let status = 0
class Response extends ServerResponse {
  end (...args) {
    super.end(...args)
    status = this.statusCode
    this.done()
  }
}
function request (method, url, lines, body) {
  const req = new IncomingMessage(socket)
  Object.assign(req, { method, url, httpVersion: '1.1', httpVersionMajor: 1, httpVersionMinor: 1 })
  req._addHeaderLines(lines, lines.length)
  if (body !== null) {
    req.push(body)
    req.push(null)
  }
  const res = new Response(req)
  return new Promise(resolve => {
    res.done = resolve
    app.routing(req, res)
  })
}
// INSTRUCTIONS_BEFORE (JSON: { rounds, requests: [{ method, path, headers, body? }] }): requests served first, `rounds`
// times over, one at a time, each answered with a success: what a server has served before changes what V8 made of
// the code the counted requests run.
const { rounds = 0, requests = [] } = JSON.parse(process.env.INSTRUCTIONS_BEFORE ?? '{}')
for (let round = 0; round < rounds; round++) {
  for (const r of requests) {
    const before = r.body === undefined ? null : Buffer.from(r.body)
    await request(r.method, r.path, linesOf(before, r.headers), before)
    if (status >= 300) throw new Error(`${r.method} ${r.path} before the counted requests: ${status}`)
  }
}
// 20 requests in flight at a time, as a loaded server has.
for (let i = 0; i < Number(n); i += 20) await Promise.all(Array.from({ length: 20 }, () => request(method, url, lines, body)))
console.log(status) // the last response's status, which instructions.mjs checks
