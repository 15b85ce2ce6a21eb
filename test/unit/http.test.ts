import t from 'tap'
import { createServer, request } from 'node:http'
import { connect } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { build, problem, says } from './helpers.js'

// Sends raw header lines, so a header can be repeated on the wire (Node joins repeats in req.headers).
function get (port: number, path: string, headers: Array<[string, string]>): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    const lines = headers.some(([name]) => name === 'host') ? headers : [['host', '127.0.0.1'], ...headers]
    const req = request({ port, path, host: '127.0.0.1', headers: lines.flat() as unknown as Record<string, string> }, res => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', chunk => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode as number, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

t.test('repeated header lines over real HTTP', async t => {
  const app = await build(undefined, app => { app.get('/values', { apiVersions: ['1.0', '2.0'] }, says('v')) })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const { port } = app.server.address() as AddressInfo

  const ambiguous = await get(port, '/values', [['api-version', '1.0'], ['api-version', '2.0']])
  t.equal(ambiguous.status, 400)
  t.same(JSON.parse(ambiguous.body), problem('ambiguous'))

  const same = await get(port, '/values', [['api-version', '1.0'], ['Api-Version', '1']])
  t.equal(same.status, 200)
  t.same(JSON.parse(same.body), { route: 'v', version: '1.0' })

  const commas = await get(port, '/values', [['api-version', '1.0, 2.0']])
  t.same(JSON.parse(commas.body), problem('invalid'), 'one line with a comma is one (invalid) value')

  const mixed = await get(port, '/values?api-version=2.0', [['api-version', '2']])
  t.same(JSON.parse(mixed.body), { route: 'v', version: '2.0' })
})

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    }).on('error', reject)
  })
}

// One request over h2c (HTTP/2 without TLS): `:authority` carries the host, as browsers and proxies send it.
function h2 (port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number, headers: Record<string, unknown>, body: string }> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://127.0.0.1:${port}`)
    session.on('error', reject)
    const req = session.request({ ':path': path, ':authority': `api.example.com:${port}`, ...headers })
    let body = ''
    let head: Record<string, unknown> = {}
    req.setEncoding('utf8')
    req.on('response', h => { head = h })
    req.on('data', chunk => { body += chunk })
    req.on('end', () => {
      session.close()
      resolve({ status: Number(head[':status']), headers: head, body })
    })
    req.on('error', reject)
    req.end()
  })
}

t.test('a route with a host constraint takes its version from the path over HTTP/1.1 and HTTP/2', async t => {
  for (const http2 of [false, true]) {
    const protocol = http2 ? 'h2c' : 'HTTP/1.1'
    // The host constraint names the port, so the port is chosen first.
    const port = await freePort()
    const app = await build({ problemDetails: true, reportApiVersions: true }, app => {
      app.get('/v:apiVersion/orders', { apiVersions: ['1.0', '2.0'], constraints: { host: `api.example.com:${port}` } }, says('orders'))
      app.get('/v:apiVersion/orders', { apiVersions: '1.0', constraints: { host: `admin.example.com:${port}` } }, says('admin orders'))
    }, http2 ? { http2: true } as object : {})
    await app.listen({ port, host: '127.0.0.1' })
    t.teardown(() => app.close())
    const send = http2 ? (path: string) => h2(port, path) : (path: string) => get(port, path, [['host', `api.example.com:${port}`]])
    const ok = await send('/v2.0/orders')
    t.equal(ok.status, 200, protocol)
    t.same(JSON.parse(ok.body), { route: 'orders', version: '2.0' }, protocol)
    const unsupported = await send('/v3.0/orders')
    t.equal(unsupported.status, 404, protocol)
    t.same(JSON.parse(unsupported.body), problem('unsupported', 404), protocol)
    t.same(JSON.parse((await send('/vx/orders')).body), problem('invalid'), protocol)
    t.equal((await (http2 ? h2(port, '/v2.0/orders', { ':authority': 'other.example.com' }) : get(port, '/v2.0/orders', [['host', 'other.example.com']]))).status, 404, `${protocol}: another host`)
  }
})

t.test('header values are read as UTF-8, as query values are: one text, one outcome, wherever it is sent', async t => {
  for (const http2 of [false, true]) {
    const protocol = http2 ? 'h2c' : 'HTTP/1.1'
    const app = await build({ problemDetails: true, versionReader: { mediaType: 'v' } }, app => { app.get('/values', { apiVersions: '1.0' }, says('v')) }, http2 ? { http2: true } as object : {})
    await app.listen({ port: 0, host: '127.0.0.1' })
    t.teardown(() => app.close())
    const { port } = app.server.address() as AddressInfo
    // What goes on the wire is the UTF-8 of 1.0-é: a header string carries bytes as Latin-1 characters.
    const utf8 = Buffer.from('1.0-é', 'utf8').toString('latin1')
    const send = (path: string, headers: Array<[string, string]>) => http2 ? h2(port, path, Object.fromEntries(headers)) : get(port, path, headers)
    const codes = async (path: string, headers: Array<[string, string]>) => JSON.parse((await send(path, headers)).body).code
    t.equal(await codes('/values?api-version=1.0-%C3%A9', []), 'UnsupportedApiVersion', `${protocol}: query`)
    t.equal(await codes('/values', [['api-version', utf8]]), 'UnsupportedApiVersion', `${protocol}: header`)
    t.equal(await codes('/values', [['accept', `application/json;v=${utf8}`]]), 'UnsupportedApiVersion', `${protocol}: media type`)
    t.equal(await codes('/values?api-version=1.0-%C3%A9', [['api-version', utf8]]), 'UnsupportedApiVersion', `${protocol}: the same version twice is not ambiguous`)
    t.equal(await codes('/values', [['api-version', '1.0-\u00e9']]), 'InvalidApiVersion', `${protocol}: bytes that are no UTF-8 are Invalid`)
    t.equal((await send('/values', [['api-version', '1.0']])).status, 200, protocol)
  }
})
