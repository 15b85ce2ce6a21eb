import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appWithPackage, root } from './packed.js'

// @opentelemetry/api is an optional peer: the packed package loads it only with the telemetry option, from ESM and
// CommonJS, at the lowest version its range claims; without it, start-up says what to install.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

const app = (format: 'esm' | 'cjs') => `
${format === 'esm' ? "import Fastify from 'fastify'\nimport { readFileSync } from 'node:fs'\nimport apiVersioning from 'fastify-api-versioning'" : "const Fastify = require('fastify')\nconst { readFileSync } = require('node:fs')\nconst apiVersioning = require('fastify-api-versioning')"}
const counted = []
const callbacks = []
const meterProvider = { getMeter: name => ({ createObservableCounter: counter => ({ addCallback: callback => callbacks.push([name, counter, callback]) }) }) }
async function main () {
  const app = Fastify()
  try {
    await app.register(apiVersioning, { telemetry: process.argv[2] === 'global' ? true : { meterProvider } })
  } catch (error) {
    return console.log(JSON.stringify({ error: error.message, code: error.code }))
  }
  app.get('/a', { apiVersions: '1.0' }, async () => 'a')
  await app.inject('/a?api-version=1')
  // What a reader's collection does: each callback observes the totals.
  for (const [name, counter, callback] of callbacks) callback({ observe: (n, attributes) => counted.push([name, counter, n, attributes]) })
  // The package exports no package.json: read it where it is installed.
  console.log(JSON.stringify({ counted, version: JSON.parse(readFileSync('node_modules/@opentelemetry/api/package.json', 'utf8')).version }))
}
${format === 'esm' ? 'await main()' : 'main()'}
`

t.test('telemetry with @opentelemetry/api at the lowest version of the range, from ESM and CommonJS', async t => {
  t.equal(manifest.peerDependencies['@opentelemetry/api'], '^1.9.0')
  t.same(manifest.peerDependenciesMeta['@opentelemetry/api'], { optional: true })
  t.notOk('@opentelemetry/api' in (manifest.dependencies ?? {}))
  for (const format of ['esm', 'cjs'] as const) {
    const packed = appWithPackage(t.teardown, format === 'esm' ? 'module' : 'commonjs')
    for (const dep of ['fastify', 'fast-json-stringify']) packed.link(dep)
    packed.link('@opentelemetry/api', '@opentelemetry/api-lowest')
    packed.write('app.js', app(format))
    t.same(JSON.parse(packed.node('app.js')), {
      counted: [['fastify-api-versioning', 'api_version.requests', 1, { 'http.request.method': 'GET', 'http.route': '/a', 'api_version.outcome': 'served', api_version: '1.0', 'api_version.deprecated': false }]],
      version: '1.9.0'
    }, format)
  }
})

t.test('without @opentelemetry/api, telemetry fails start-up naming it; without telemetry, nothing needs it', async t => {
  for (const format of ['esm', 'cjs'] as const) {
    const packed = appWithPackage(t.teardown, format === 'esm' ? 'module' : 'commonjs')
    for (const dep of ['fastify', 'fast-json-stringify']) packed.link(dep)
    packed.write('app.js', app(format))
    t.same(JSON.parse(packed.node('app.js', 'global')), {
      error: 'fastify-api-versioning: the telemetry option needs the package @opentelemetry/api, but it is not installed; install it: npm install @opentelemetry/api',
      code: 'FST_API_VERSIONING_MISSING_PEER'
    }, format)
    packed.write('plain.js', format === 'esm'
      ? "import Fastify from 'fastify'\nimport apiVersioning from 'fastify-api-versioning'\nconst app = Fastify()\nawait app.register(apiVersioning)\nconsole.log('ok')"
      : "const Fastify = require('fastify')\nconst app = Fastify()\napp.register(require('fastify-api-versioning')).ready().then(() => console.log('ok'))")
    t.equal(packed.node('plain.js').trim(), 'ok', `${format}: no telemetry, no @opentelemetry/api`)
  }
})
