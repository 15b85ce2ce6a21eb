import t from 'tap'
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { appWithPackage, env, pack, root } from './packed.js'

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
  // HANG: what never ends, a hook that waits for a database that never answers.
  if (process.env.HANG) app.addHook(process.env.HANG === 'ready' ? 'onReady' : 'onClose', () => new Promise(() => {}))
  // EXIT: what ends the process, a plugin that gives up without a database (ready) or a pool's shutdown (close);
  // CRASH: a pool's connect() no one awaits.
  if (process.env.EXIT) app.addHook(process.env.EXIT === 'ready' ? 'onReady' : 'onClose', async () => process.exit(0))
  if (process.env.CRASH) Promise.reject(new Error('cannot connect to the database'))
  await app.register(apiVersioning, { problemDetails: true })
  await app.register(apiVersioningOpenApi)
  const order = { type: 'object', required: ['id', 'total'], properties: { id: { type: 'integer' }, total: { type: 'integer' } } }
  if (change === 'breaking') delete order.properties.total
  // An order that is no more: 404, or (status) 410.
  const missing = { type: 'object', properties: { detail: { type: 'string' } } }
  app.get('/orders/:id', { apiVersions: ['1.0', '2.0'], schema: { response: { 200: order, [change === 'status' ? 410 : 404]: missing } } }, async () => null)
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

  // What the app module reads: CHANGE, HOLD and HANG. One that holds or hangs the process is bounded far below the
  // layer's bound: a command that does not end then fails here (status null).
  const command = (args: string[], change = '', more: { HOLD?: string, HANG?: string, EXIT?: string, CRASH?: string } = {}): { status: number | null, stdout: string, stderr: string } =>
    spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: { ...env, CHANGE: change, ...more }, encoding: 'utf8', timeout: Object.keys(more).length === 0 ? 900_000 : 120_000 })

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
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'breaking', { HOLD: '1' }), { status: 1, stdout: breaking.stdout, stderr: '' },
    'an app module that holds the process (a timer of its own) does not keep the command from ending, nor cut its output short')
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions', '--close-timeout', '1'], 'breaking', { HANG: 'close' }), {
    status: 1,
    stdout: breaking.stdout,
    stderr: 'fastify-api-versioning: --app app.mjs: closing the app (close()) did not finish within 1 s: an onClose hook never ends; make it end, or give it longer with --close-timeout <seconds>\n'
  }, 'an app that never closes: the verdict stands, and the command ends')
  // The bound holds from the start: loading the module and building the app count (5 s: whatever the load here).
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions', '--ready-timeout', '5'], '', { HANG: 'ready' }), {
    status: 2,
    stdout: '',
    stderr: 'fastify-api-versioning: --app app.mjs: the app did not become ready (ready()) within 5 s: it waits for something that never comes (a connection, a plugin or hook that never ends); make it end, or give it longer with --ready-timeout <seconds>\n'
  }, 'an app that never becomes ready: exit 2, and the command ends')
  // The app's code runs in the command's process: what it does to the process does not decide the exit code.
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'breaking', { EXIT: 'ready' }), {
    status: 2,
    stdout: '',
    stderr: 'fastify-api-versioning: --app app.mjs: the app ended the process (process.exit(0)) before anything was checked: keep process.exit() out of its module and hooks (throw instead), so that the command can load it\n'
  }, 'process.exit(0) in an onReady hook: exit 2, not a pass without a check')
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'breaking', { EXIT: 'close' }), {
    status: 1,
    stdout: breaking.stdout,
    stderr: 'fastify-api-versioning: --app app.mjs: the app ended the process (process.exit(0)) as it closed: the exit code is the command\'s\n'
  }, 'process.exit(0) in an onClose hook after breaking changes: still exit 1')
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'breaking', { CRASH: '1' }), {
    status: 2,
    stderr: /^fastify-api-versioning: --app app\.mjs: the app failed where nothing catches it \(a rejected promise no one awaits, a throw in a timer or callback\): cannot connect to the database: catch it in the app\n$/
  }, 'an unhandled rejection: exit 2, not Node\'s 1 ("breaking changes")')
  if (process.platform !== 'win32') {
    // A reader that stops early (`check ... | head` in a CI step): the verdict's exit code, the app closed.
    const cut = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" check --app app.mjs --dir openapi-versions | true; echo "exit \${PIPESTATUS[0]}" >&2`], {
      cwd: dir, env: { ...env, CHANGE: 'breaking' }, encoding: 'utf8', timeout: 900_000
    })
    t.equal(cut.stderr, 'exit 1\n', 'output to a closed pipe: no crash, exit 1')
  }
  const status = command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'status')
  t.match(status, { status: 1, stderr: '' })
  t.equal(status.stdout.split('\n').slice(0, 5).join('\n'), [
    '1.0: 1 breaking change, 1 other change',
    '  breaking:',
    '  - `GET /orders/{id}`: response 404 removed',
    '  other:',
    '  - `GET /orders/{id}`: response 410 added'
  ].join('\n'), 'a released version that answers 410 where it answered 404: its clients handle 404')
  t.match(command(['check', '--app', 'app.mjs', '--dir', 'openapi-versions'], 'additive'), {
    status: 0,
    stdout: '1.0: 0 breaking changes, 1 other change\n  other:\n  - `POST /orders` added\n2.0: no change\n3.0: new, not saved (snapshot saves it when you release it)\n\nNo breaking change in 2 saved versions.\n',
    stderr: ''
  })

  // A CommonJS app module, its documents from the CommonJS build: the same as the ESM build's.
  t.match(command(['check', '--app', 'app.cjs', '--dir', 'openapi-versions']), { status: 0, stdout: /^1\.0: no change\n2\.0: no change\n/, stderr: '' }, 'CommonJS')
  t.match(command(['check', '--app', 'app.cjs', '--dir', 'openapi-versions'], 'breaking'), { status: 1, stdout: /property `total` removed/ }, 'CommonJS, breaking')
  t.match(command(['check', '--app', 'nowhere.mjs', '--dir', 'openapi-versions']), { status: 2, stdout: '', stderr: /^fastify-api-versioning: --app nowhere\.mjs: the module failed to load: / }, 'an error is exit 2')
  t.match(command(['--version']), { status: 0, stdout: `${manifest.version}\n`, stderr: '' }, '--version: the package\'s')

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

// A TypeScript app, its routes loaded by @fastify/autoload, run as docs/openapi.md ("A TypeScript app") says: as is
// where Node strips types (22.18 and later), through tsx on any Node, and where neither, a message with the ways.
const typescriptApp = {
  'src/app.ts': `import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import autoload from '@fastify/autoload'
import apiVersioning from 'fastify-api-versioning'
import apiVersioningOpenApi from 'fastify-api-versioning/openapi'

export default async function build (): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(apiVersioning, { problemDetails: true })
  await app.register(apiVersioningOpenApi)
  await app.register(autoload, { dir: fileURLToPath(new URL('routes', import.meta.url)), autoHooks: true, dirNameRoutePrefix: false })
  return app
}
`,
  'src/routes/autohooks.ts': `import { withApiVersions } from 'fastify-api-versioning'
export default withApiVersions({ apiVersions: ['1.0', '2.0'] }, async () => {})
`,
  'src/routes/orders.ts': `import type { FastifyInstance } from 'fastify'

interface Order { id: number, total?: number }

const order = { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, total: { type: 'integer' } } }
if (process.env.CHANGE === 'breaking') delete (order.properties as Partial<typeof order.properties>).total

export default async function orders (app: FastifyInstance): Promise<void> {
  app.get('/orders/:id', { schema: { response: { 200: order } } }, async (): Promise<Order> => ({ id: 1 }))
}
`
}

t.test('a TypeScript app with @fastify/autoload routes in TypeScript: as docs/openapi.md says to run it', async t => {
  const { dir, modules, link, copy, write } = appWithPackage(t.teardown)
  for (const dep of ['fastify', 'fastify-plugin', 'fast-json-stringify', '@fastify/swagger']) link(dep)
  copy('@fastify/autoload')
  mkdirSync(join(dir, 'src', 'routes'), { recursive: true })
  for (const [name, text] of Object.entries(typescriptApp)) write(name, text)
  const bin = join(modules, 'fastify-api-versioning', 'dist', 'esm', 'cli', 'bin.js')
  const run = (args: string[], change = '', more: Record<string, string> = {}): { status: number | null, stdout: string, stderr: string } =>
    spawnSync(process.execPath, args, { cwd: dir, env: { ...env, CHANGE: change, ...more }, encoding: 'utf8', timeout: 900_000 })
  const check = ['check', '--app', './src/app.ts', '--dir', 'openapi-versions']
  const removed = /^1\.0: 1 breaking change, 0 other changes\n {2}breaking:\n {2}- `GET \/orders\/\{id\}`: response 200: property `total` removed\n/

  // Node strips types from 22.18 on (process.features.typescript): `npx fastify-api-versioning check --app ./src/app.ts`.
  if ((process.features as { typescript?: unknown }).typescript) {
    t.match(run([bin, 'snapshot', '--app', './src/app.ts', '--dir', 'openapi-versions']), { status: 0, stdout: 'Saved 2 versions in openapi-versions: 1.0.json, 2.0.json\n', stderr: '' }, 'as is')
    t.match(run([bin, ...check], 'breaking'), { status: 1, stdout: removed, stderr: '' }, 'as is: its routes are checked')
  } else {
    t.match(run([bin, ...check]), {
      status: 2,
      stdout: '',
      stderr: /^fastify-api-versioning: --app \.\/src\/app\.ts: the module failed to load: Unknown file extension "\.ts" for \S+app\.ts: Node v[\d.]+ loads no such file by itself\. For TypeScript: use Node 22\.18 or later \(it strips types\), run the command through tsx/
    }, 'a Node that strips no types: the ways, named')
  }

  // tsx runs the command: `npx tsx node_modules/.bin/fastify-api-versioning check --app ./src/app.ts ...`.
  const skip = existsSync(join(root, 'node_modules', 'tsx')) ? false : 'tsx is not installed in the repository (no devDependency yet)'
  t.test('through tsx, on any Node', { skip }, async t => {
    link('tsx')
    // Where `npx tsx` finds it: the package's bin, a path or { tsx: path }.
    const { bin: tsxBin } = JSON.parse(readFileSync(join(modules, 'tsx', 'package.json'), 'utf8'))
    const tsx = join(modules, 'tsx', typeof tsxBin === 'string' ? tsxBin : tsxBin.tsx)
    mkdirSync(join(modules, '.bin'))
    symlinkSync('../fastify-api-versioning/dist/esm/cli/bin.js', join(modules, '.bin', 'fastify-api-versioning'))
    const command = [tsx, 'node_modules/.bin/fastify-api-versioning']
    t.match(run([...command, 'snapshot', '--app', './src/app.ts', '--dir', 'openapi-versions']), { status: 0, stdout: 'Saved 2 versions in openapi-versions: 1.0.json, 2.0.json\n' })
    t.match(run([...command, ...check]), { status: 0, stdout: /No breaking change in 2 saved versions\.\n$/ }, 'no change')
    t.match(run([...command, ...check], 'breaking'), { status: 1, stdout: removed }, 'its routes are checked')
    // tsx given by NODE_OPTIONS instead: @fastify/autoload cannot see it, and is told.
    t.match(run([bin, ...check], 'breaking', { NODE_OPTIONS: '--import tsx', FASTIFY_AUTOLOAD_TYPESCRIPT: '1' }), { status: 1, stdout: removed }, "NODE_OPTIONS='--import tsx'")
  })
})
