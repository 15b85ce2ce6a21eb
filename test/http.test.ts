import t from 'tap'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build, problem, says } from './helpers.js'

// Sends raw header lines, so a header can be repeated on the wire (Node joins repeats in req.headers).
function get (port: number, path: string, headers: Array<[string, string]>): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, path, host: '127.0.0.1', headers: [['host', '127.0.0.1'], ...headers].flat() as unknown as Record<string, string> }, res => {
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
