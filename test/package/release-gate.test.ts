import t from 'tap'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { appWithPackage, env, pack } from './packed.js'

// The release gate as an app's CI runs it: the package's `fastify-api-versioning` command, from the packed
// tarball, on an app module of the app's own (ESM, then CommonJS). snapshot when a version is released; check in
// CI: exit 1 with the listing when a saved version changed in a way that breaks its clients, 0 otherwise.
const app = (require: boolean): string => {
  const imports = require
    ? "const Fastify = require('fastify')\nconst apiVersioning = require('fastify-api-versioning')\nconst apiVersioningOpenApi = require('fastify-api-versioning/openapi')\nmodule.exports ="
    : "import Fastify from 'fastify'\nimport apiVersioning from 'fastify-api-versioning'\nimport apiVersioningOpenApi from 'fastify-api-versioning/openapi'\nexport default"
  return `${imports} async function build () {
  // CHANGE: what the app changed since its versions were released.
  const change = process.env.CHANGE
  // What an app's module may hold outside Fastify's onClose (a timer, a pool): it must not keep the command.
  if (process.env.HOLD) setInterval(() => {}, 60_000)
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true })
  await app.register(apiVersioningOpenApi)
  const order = { type: 'object', required: ['id', 'total'], properties: { id: { type: 'integer' }, total: { type: 'integer' } } }
  if (change === 'breaking') delete order.properties.total
  app.get('/orders/:id', { apiVersions: ['1.0', '2.0'], schema: { response: { 200: order } } }, async () => null)
  if (change === 'additive') app.post('/orders', { apiVersions: ['1.0', '3.0'] }, async () => null)
  return app
}
`
}

t.test('the package ships the command, which snapshots an app\'s versions and checks them in CI', async t => {
  const { files } = pack()
  t.ok(files.includes('dist/esm/cli/bin.js'), 'the bin is in the tarball')
  t.notOk(files.some(file => file.startsWith('dist/cjs/cli/')), 'once: the ESM build runs it')
  const { dir, modules, link, write } = appWithPackage(t.teardown)
  for (const dep of ['fastify', 'fastify-plugin', 'fast-json-stringify', '@fastify/swagger']) link(dep)
  const manifest = JSON.parse(readFileSync(join(modules, 'fastify-api-versioning', 'package.json'), 'utf8'))
  t.same(manifest.bin, { 'fastify-api-versioning': './dist/esm/cli/bin.js' })
  const bin = join(modules, 'fastify-api-versioning', manifest.bin['fastify-api-versioning'])
  t.match(readFileSync(bin, 'utf8'), /^#!\/usr\/bin\/env node\n/, 'a script that runs with node')
  write('app.mjs', app(false))
  write('app.cjs', app(true))

  const command = (args: string[], change = '', hold = ''): { status: number | null, stdout: string, stderr: string } =>
    spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: { ...env, CHANGE: change, HOLD: hold }, encoding: 'utf8', timeout: hold === '' ? 900_000 : 120_000 })

  t.match(command(['snapshot', '--app', 'app.mjs', '--dir', 'openapi-versions']), { status: 0, stdout: 'Saved 2 versions in openapi-versions: 1.0.json, 2.0.json\n', stderr: '' })
  t.same(readdirSync(join(dir, 'openapi-versions')), ['1.0.json', '2.0.json'])
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions']), { status: 0, stdout: /No breaking change in 2 saved versions\.\n$/, stderr: '' })

  const breaking = command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'breaking')
  t.match(breaking, { status: 1, stderr: '' })
  t.equal(breaking.stdout, [
    '1.0: 1 breaking change, 0 other changes',
    '  breaking:',
    '  - `GET /orders/{id}`: response 200: property `total` removed',
    '2.0: 1 breaking change, 0 other changes',
    '  breaking:',
    '  - `GET /orders/{id}`: response 200: property `total` removed',
    '',
    'Breaking changes in 1.0, 2.0: a released version must not break its clients. Undo them, or make them in a new version.',
    ''
  ].join('\n'))
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'breaking', 'hold'), { status: 1, stdout: breaking.stdout, stderr: '' },
    'an app module that holds the process (a timer of its own) does not keep the command from ending, nor cut its output short')
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'additive'), {
    status: 0,
    stdout: '1.0: 0 breaking changes, 1 other change\n  other:\n  - `POST /orders` added\n2.0: no change\n3.0: new, not saved (snapshot saves it when you release it)\n\nNo breaking change in 2 saved versions.\n',
    stderr: ''
  })

  // A CommonJS app module, its documents from the CommonJS build: the same as the ESM build's.
  t.match(command(['check', '--app', 'app.cjs', '--dir', 'openapi-versions']), { status: 0, stdout: /^1\.0: no change\n2\.0: no change\n/, stderr: '' }, 'CommonJS')
  t.match(command(['check', '--app', 'app.cjs', '--dir', 'openapi-versions'], 'breaking'), { status: 1, stdout: /property `total` removed/ }, 'CommonJS, breaking')
  t.match(command(['check', '--app', 'nowhere.mjs', '--dir', 'openapi-versions']), { status: 2, stdout: '', stderr: /^fastify-api-versioning: --app nowhere\.mjs: the module failed to load: / }, 'an error is exit 2')

  // As npm links a bin on install (node_modules/.bin, executable): what `npx fastify-api-versioning` runs. On
  // Windows npm writes a .cmd shim instead, which runs node on the same file, as above.
  if (process.platform !== 'win32') {
    mkdirSync(join(modules, '.bin'))
    chmodSync(bin, 0o755)
    symlinkSync('../fastify-api-versioning/dist/esm/cli/bin.js', join(modules, '.bin', 'fastify-api-versioning'))
    const linked = spawnSync(join(modules, '.bin', 'fastify-api-versioning'), ['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], {
      cwd: dir, env: { ...env, CHANGE: 'breaking', PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` }, encoding: 'utf8', timeout: 900_000
    })
    t.match(linked, { status: 1, stdout: breaking.stdout, stderr: '' }, 'through node_modules/.bin')
  }
})
