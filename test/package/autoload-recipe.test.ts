import t from 'tap'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { appWithPackage, root } from './packed.js'

// The recipe of docs/routes.md for a folder of routes per version, as written there: each code block of the
// section is the file its first line names, installed with the packed package and the real @fastify/autoload.
const guide = readFileSync(join(root, 'docs', 'routes.md'), 'utf8')
const section = guide.slice(guide.indexOf('### A folder of routes per version, with @fastify/autoload'), guide.indexOf('## Versions served elsewhere'))
const files = [...section.matchAll(/```js\n\/\/ ([\w./-]+\.js)[^\n]*\n([\s\S]*?)```/g)].map(([, name, text]) => [name, text] as const)

t.test('the recipe for a folder of routes per version works with @fastify/autoload, as the guide writes it', async t => {
  t.same(files.map(([name]) => name), ['app.js', 'routes/v1/autohooks.js', 'routes/v1/orders.js', 'routes/v2/autohooks.js', 'routes/v2/orders.js', 'routes/v2/admin/stats.js', 'routes/health.js', 'routes/reports.js'])
  const app = appWithPackage(t.teardown)
  for (const dep of ['fastify', 'fast-json-stringify']) app.link(dep)
  // A copy: its own imports (glob, ...) resolve from where it is, as in an app's node_modules.
  app.copy('@fastify/autoload')
  for (const [name, text] of files) {
    mkdirSync(dirname(join(app.dir, name)), { recursive: true })
    app.write(name, text)
  }
  app.write('try.js', `
import build from './app.js'
const app = await build()
const ask = async (url) => {
  const res = await app.inject(url)
  return [res.statusCode, res.headers['api-supported-versions'] ?? null, res.headers['api-deprecated-versions'] ?? null, res.body]
}
console.log(JSON.stringify({
  v1: await ask('/orders?api-version=1.0'),
  v2: await ask('/orders?api-version=2'),
  v21: await ask('/orders?api-version=2.1'),
  none: await ask('/orders?api-version=3.0'),
  exportOwn: await ask('/orders/export?api-version=2.1'),
  exportOther: await ask('/orders/export?api-version=2.0'),
  stats: await ask('/admin/stats?api-version=2.1'),
  statsOld: await ask('/admin/stats?api-version=1.0'),
  health: await ask('/health?api-version=9'),
  reports: await ask('/reports?api-version=2.0')
}))
`)
  const seen = JSON.parse(app.node('try.js'))
  const unsupported = (supported: string, deprecated: string | null = null) => [400, supported, deprecated, JSON.stringify({ type: 'https://docs.api-versioning.org/problems#unsupported', title: 'Unsupported API version', status: 400, detail: 'The specified API version is not supported', code: 'UnsupportedApiVersion' })]
  t.same(seen, {
    v1: [200, '2.0, 2.1', '1.0', '["tea"]'],
    v2: [200, '2.0, 2.1', '1.0', '[{"id":1,"item":"tea"}]'],
    v21: [200, '2.0, 2.1', '1.0', '[{"id":1,"item":"tea"}]'],
    none: unsupported('2.0, 2.1', '1.0'),
    exportOwn: [200, '2.1', null, 'id,item\n1,tea\n'],
    exportOther: unsupported('2.1'),
    stats: [200, '2.0, 2.1', null, '{"orders":1}'],
    statsOld: unsupported('2.0, 2.1'),
    health: [200, null, null, 'ok'],
    reports: [200, '2.0', null, '[]']
  })
})
