import t, { type Test } from 'tap'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { EventEmitter } from 'node:events'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { main } from '../../lib/cli/main.js'
import { guardProcess } from '../../lib/cli/process-guard.js'
import { served, type Variant } from './fixtures/release-gate/app.js'

// The release gate, `fastify-api-versioning snapshot|check --app <module> --dir <folder>`, run in this process:
// main() with its output collected. The app modules are in fixtures/release-gate/; app.ts builds the app that
// `served.variant` names, each a change to the app as released (1.0 and 2.0).
const fixtures = join(import.meta.dirname, 'fixtures', 'release-gate')

interface Run { code: number, stdout: string, stderr: string }

// The process the command guards: a stand-in, so that what a test does to it ends no process. `exited`: the code
// the command gave process.exit().
class FakeProcess extends EventEmitter {
  exitCode?: number | string | null
  exited?: number
  readonly stdout = new EventEmitter()
  readonly stderr = new EventEmitter()
  exit (code: number): void { this.exited = code }
}

async function gate (t: Test, argv: string[], variant: Variant = 'released', closing: typeof served.closing = 'closes', proc = new FakeProcess()): Promise<Run> {
  Object.assign(served, { variant, closing })
  t.teardown(() => Object.assign(served, { variant: 'released', closing: 'closes', hooks: undefined }))
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: { write: text => { stdout += text } }, stderr: { write: text => { stderr += text } }, cwd: fixtures }, proc)
  return { code, stdout, stderr }
}

// A folder of its own (tap's t.testdir() is named after the test, and CI runs the unit layer of two Node.js lines at
// once in one checkout: one run's teardown would remove the other's), with the files given, removed after the test.
function tempFolder (t: Test, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'release-gate-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const released = async (t: Test): Promise<string> => {
  const dir = tempFolder(t)
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir]), { code: 0, stdout: `Saved 2 versions in ${dir}: 1.0.json, 2.0.json\n`, stderr: '' })
  return dir
}

t.test('snapshot writes each version\'s document as served; check finds no change in the same app', async t => {
  const dir = await released(t)
  const text = readFileSync(join(dir, '2.0.json'), 'utf8')
  t.equal(text, JSON.stringify(JSON.parse(text), null, 2) + '\n', 'pretty JSON, one line at the end')
  t.same(JSON.parse(text).info, { title: '@fastify/swagger', version: '2.0', description: JSON.parse(text).info.description }, 'the document, as /openapi/2.0.json serves it')
  t.match(JSON.parse(text).paths['/orders'].get.responses['200'].content['application/json'].schema, { required: ['total'] })
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir]), {
    code: 0,
    stdout: '1.0: no change\n2.0: no change\n\nNo breaking change in 2 saved versions.\n',
    stderr: ''
  })
  // Again: the same text, so a saved version changes in version control only when its document does.
  await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir])
  t.equal(readFileSync(join(dir, '2.0.json'), 'utf8'), text, 'stable')
})

t.test('check: a saved version changed in a way that breaks its clients is exit 1, each breaking change listed', async t => {
  const dir = await released(t)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'breaking'), {
    code: 1,
    stdout: [
      '1.0: 2 breaking changes, 0 other changes',
      '  breaking:',
      '  - `GET /orders/{id}` removed',
      '  - `GET /orders`: response 200: property `total` removed',
      '2.0: no change',
      '',
      'Breaking changes in 1.0: a released version must not break its clients. Undo them, or make them in a new version.',
      ''
    ].join('\n'),
    stderr: ''
  })
})

t.test('check: changes that break no client, and a new version, are exit 0, listed; what no rule judges is pointed out', async t => {
  const dir = await released(t)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'additive'), {
    code: 0,
    stdout: [
      '1.0: 0 breaking changes, 2 other changes',
      '  other:',
      '  - `POST /orders` added',
      '  - `GET /orders/{id}`: query parameter `page`: changed (not judged): `default`',
      '2.0: 0 breaking changes, 1 other change',
      '  other:',
      '  - `GET /orders/{id}`: query parameter `page`: changed (not judged): `default`',
      '3.0: new, not saved (snapshot saves it when you release it)',
      '',
      'No breaking change in 2 saved versions. Not judged: 2 changes (read above).',
      ''
    ].join('\n'),
    stderr: ''
  })
  // --fail-on-unjudged: passes only what the rules judged; saving the versions again accepts the changes.
  const strict = await gate(t, ['check', '--app', 'app.ts', '--dir', dir, '--fail-on-unjudged'], 'additive')
  t.equal(strict.code, 1)
  t.match(strict.stdout, /^1\.0: 0 breaking changes, 2 other changes\n/)
  t.match(strict.stdout, /\n\nChanges no rule judges in 1\.0, 2\.0 \(read above\), and --fail-on-unjudged: check that they break no client, then accept them by saving those versions again \(snapshot\); else undo them, or make them in a new version\.\n$/)
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'additive')).code, 0)
  t.match(await gate(t, ['check', '--app', 'app.ts', '--dir', dir, '--fail-on-unjudged'], 'additive'), { code: 0, stdout: /\n\nNo breaking change in 3 saved versions\.\n$/ })
})

t.test('check: the version parameter of a saved version newly required (or optional) is a change of that version', async t => {
  // A client of 1.0 that sent no version was served 1.0: refused now.
  const assumed = tempFolder(t)
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', assumed], 'assumed')).code, 0)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', assumed]), {
    code: 1,
    stdout: [
      '1.0: 2 breaking changes, 0 other changes',
      '  breaking:',
      '  - `GET /orders`: query parameter `api-version` newly required',
      '  - `GET /orders/{id}`: query parameter `api-version` newly required',
      '2.0: no change',
      '',
      'Breaking changes in 1.0: a released version must not break its clients. Undo them, or make them in a new version.',
      ''
    ].join('\n'),
    stderr: ''
  })
  // And back: 1.0's clients may leave it out.
  const dir = await released(t)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'assumed'), {
    code: 0,
    stdout: '1.0: 0 breaking changes, 2 other changes\n  other:\n  - `GET /orders`: query parameter `api-version` no longer required\n' +
      '  - `GET /orders/{id}`: query parameter `api-version` no longer required\n2.0: no change\n\nNo breaking change in 2 saved versions.\n',
    stderr: ''
  })
  // With apiVersionSelector 'current', a new version of a path takes its requests without a version from the one before.
  const current = tempFolder(t)
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', current], 'current')).code, 0)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', current], 'current-additive'), {
    code: 1,
    stdout: [
      '1.0: no change',
      '2.0: 1 breaking change, 0 other changes',
      '  breaking:',
      '  - `GET /orders`: query parameter `api-version` newly required',
      '3.0: new, not saved (snapshot saves it when you release it)',
      '',
      'Breaking changes in 2.0: a released version must not break its clients. Undo them, or make them in a new version.',
      ''
    ].join('\n'),
    stderr: ''
  })
})

t.test('check: what a success response holds in a map\'s values or a tuple, or answers with `default`, is held to as any property', async t => {
  const dir = tempFolder(t)
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'shop')).code, 0)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'shop'), { code: 0, stdout: '1.0: no change\n2.0: no change\n\nNo breaking change in 2 saved versions.\n', stderr: '' })
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'shop-broken'), {
    code: 1,
    stdout: [
      '1.0: 3 breaking changes, 0 other changes',
      '  breaking:',
      '  - `GET /customers/{id}`: response default: property `email` removed',
      '  - `GET /products/{sku}`: response 200: type of `size[1]` changed from `integer` to `string`',
      '  - `GET /products/{sku}`: response 200: property `stockByWarehouse.*.reserved` removed',
      '2.0: no change',
      '',
      'Breaking changes in 1.0: a released version must not break its clients. Undo them, or make them in a new version.',
      ''
    ].join('\n'),
    stderr: ''
  })
})

t.test('check: an endpoint a released version now hides from its documents is named, not breaking (still served)', async t => {
  const dir = tempFolder(t)
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'audit')).code, 0)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'audit-hidden'), {
    code: 0,
    stdout: '1.0: no change\n2.0: 0 breaking changes, 1 other change\n  other:\n  - `GET /audit` hidden: still served, in no document from this version on\n\nNo breaking change in 2 saved versions.\n',
    stderr: ''
  })
})

t.test('check: a saved version the app no longer serves is fine only when its enforced sunset retired it', async t => {
  const dir = await released(t)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'retired'), {
    code: 0,
    stdout: '1.0: 0 breaking changes, 1 other change\n  other:\n  - retired by its enforced sunset on 2020-01-01T00:00:00.000Z\n2.0: no change\n\nNo breaking change in 2 saved versions.\n',
    stderr: ''
  })
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'ended'), {
    code: 0,
    stdout: '1.0: 0 breaking changes, 1 other change\n  other:\n  - retired by its enforced sunset on 2020-01-01T00:00:00.000Z\n' +
      '2.0: 0 breaking changes, 1 other change\n  other:\n  - retired by its enforced sunset on 2020-01-01T00:00:00.000Z\n\nNo breaking change in 2 saved versions.\n',
    stderr: ''
  }, 'every version retired: the end of the API, told to its clients')
  const gone = await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'gone')
  t.equal(gone.code, 1)
  t.equal(gone.stdout, '1.0: 1 breaking change, 0 other changes\n  breaking:\n' +
    "  - no longer served, and no enforced sunset retired it: serve it again, or retire it with policies['1.0'].sunset ({ date, enforce: true }) once that date has passed\n" +
    '2.0: no change\n\nBreaking changes in 1.0: a released version must not break its clients. Undo them, or make them in a new version.\n')
})

t.test('snapshot saves the versions served now and leaves the other files of the folder as they are', async t => {
  const dir = await released(t)
  writeFileSync(join(dir, 'notes.txt'), 'ours')
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'retired'), {
    code: 0,
    stdout: `Saved 1 version in ${dir}: 2.0.json\nLeft as they were: 1.0.json (versions the app no longer serves; check holds the app to them)\n`,
    stderr: ''
  })
  t.same(readdirSync(dir).sort(), ['1.0.json', '2.0.json', 'notes.txt'])
  const created = join(tempFolder(t), 'versions', 'saved')
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', created])).code, 0, 'the folder is created')
  t.same(readdirSync(created), ['1.0.json', '2.0.json'])
})

t.test('snapshot of an app that serves no version is exit 2, nothing written: no release is saved as "0 versions"', async t => {
  const dir = await released(t)
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'ended'), {
    code: 2,
    stdout: '',
    stderr: `fastify-api-versioning: --app app.ts serves no version of its API (every version retired by an enforced sunset, or no route declares one): nothing to snapshot; the files of --dir ${dir} are left as they are, and check holds the app to them\n`
  })
  t.same(readdirSync(dir).sort(), ['1.0.json', '2.0.json'], 'the saved versions left as they were')
  const created = join(tempFolder(t), 'versions')
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', created], 'ended')).code, 2)
  t.notOk(existsSync(created), 'no folder made')
})

// Without a bound, each run would not end: 3^20 places, each compared.
t.test('a saved document of $ref chains is checked in time linear in its size; a schema too deep to compare is exit 2 naming the file', { timeout: 60_000 }, async t => {
  const dir = tempFolder(t)
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'chains')).code, 0)
  const saved = readFileSync(join(dir, '1.0.json'), 'utf8')
  t.ok(Object.keys(JSON.parse(saved).components.schemas).length > 20, '21 levels of schemas')
  t.match(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'chains'), { code: 0, stdout: /^1\.0: no change\n2\.0: no change\n/ })
  // Said once, where first met: every other place of the leaf is the same pair of schemas.
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'chains-changed'), {
    code: 1,
    stdout: '1.0: 1 breaking change, 0 other changes\n  breaking:\n' +
      `  - \`GET /chain\`: response 200: type of \`${Array(20).fill('p0').join('.')}\` changed from \`string\` to \`integer\`\n` +
      '2.0: no change\n\nBreaking changes in 1.0: a released version must not break its clients. Undo them, or make them in a new version.\n',
    stderr: ''
  })

  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'too-deep')).code, 0, 'served, and saved')
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'too-deep'), {
    code: 2,
    stdout: '',
    stderr: `fastify-api-versioning: --dir ${dir}: 1.0.json cannot be compared with the app's 1.0: \`GET /chain\`: a schema nests deeper than 100 levels, its $refs followed, so what changed in it cannot be told: make it shallower (one that refers to itself, a tree, is fine)\n`
  })
})

t.test("a document that refers to what it does not have is exit 2: the app's (a component left out), or a saved one", async t => {
  const dir = await released(t)
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'dangling'), {
    code: 2,
    stdout: '',
    stderr: `fastify-api-versioning: --dir ${dir}: 1.0.json cannot be compared with the app's 1.0: the app's document of 1.0 refers to #/components/schemas/Node, which it does not have, so what changed there cannot be told: add the components it names (with fastify-type-provider-zod, give its jsonSchemaTransformObject as the transformObject option)\n`
  })
  t.equal((await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'dangling')).code, 0, 'saved as served')
  t.match(await gate(t, ['check', '--app', 'app.ts', '--dir', dir]), {
    code: 2,
    stderr: /1\.0\.json cannot be compared with the app's 1\.0: the saved document of 1\.0 refers to #\/components\/schemas\/Node, which it does not have, so what changed there cannot be told: save the version again \(snapshot\) once the app's document of it is whole\n$/
  })
})

t.test('a folder holding one version twice is refused, naming both files; snapshot never writes through a symbolic link', async t => {
  const dir = await released(t)
  const text = readFileSync(join(dir, '1.0.json'), 'utf8')
  writeFileSync(join(dir, '1.json'), text)
  const twice = `fastify-api-versioning: --dir ${dir}: 1.0.json and 1.json are both version 1.0: keep the one snapshot wrote (the version as your routes name it) and remove the other\n`
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'gone'), { code: 2, stdout: '', stderr: twice }, 'check: not a version removed')
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir]), { code: 2, stdout: '', stderr: twice }, 'snapshot')
  rmSync(join(dir, '1.0.json'))
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir]), {
    code: 2, stdout: '', stderr: `fastify-api-versioning: --dir ${dir}: 1.json is version 1.0, which snapshot writes as 1.0.json: remove 1.json (or rename it 1.0.json), then run snapshot again\n`
  }, 'snapshot would make it two')

  // A saved file that is a link to a file elsewhere: writing it would change that file.
  const other = mkdtempSync(join(tmpdir(), 'release-gate-'))
  t.teardown(() => rmSync(other, { recursive: true, force: true }))
  const elsewhere = join(other, 'mine.json')
  writeFileSync(elsewhere, 'not the gate\'s')
  const linked = join(other, 'linked')
  mkdirSync(linked)
  symlinkSync(elsewhere, join(linked, '1.0.json'))
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', '--dir', linked]), {
    code: 2, stdout: '', stderr: `fastify-api-versioning: --dir ${linked}: 1.0.json is a symbolic link, and snapshot never writes through one (it would change the file it points to): replace it with a file of its own, or remove it, then run snapshot again\n`
  })
  t.equal(readFileSync(elsewhere, 'utf8'), 'not the gate\'s', 'the file it points to is as it was')
  t.same(readdirSync(linked), ['1.0.json'], 'nothing written')
  // The folder itself may be a link: it is where the user keeps the documents.
  const folder = join(other, 'openapi-versions')
  symlinkSync(dir, folder)
  rmSync(join(dir, '1.json'))
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', '--dir', folder]), { code: 0, stdout: `Saved 2 versions in ${folder}: 1.0.json, 2.0.json\n`, stderr: '' })
  t.equal(readFileSync(join(dir, '1.0.json'), 'utf8'), text)
})

t.test('the app module: a Fastify instance or a function returning one, ESM or CommonJS, resolved from the working directory', async t => {
  const dir = tempFolder(t)
  t.same(await gate(t, ['snapshot', '--app', 'instance.ts', '--dir', dir]), { code: 0, stdout: `Saved 2 versions in ${dir}: 1.0.json, 2.0.json\n`, stderr: '' }, 'an instance')
  const promised = tempFolder(t)
  t.same(await gate(t, ['snapshot', '--app', 'promised.ts', '--dir', promised]), { code: 0, stdout: `Saved 2 versions in ${promised}: 1.0.json, 2.0.json\n`, stderr: '' }, 'a promise of one: export default build()')
  const cjs = tempFolder(t)
  t.same(await gate(t, ['snapshot', '--app', './commonjs.cjs', '--dir', cjs]), { code: 0, stdout: `Saved 2 versions in ${cjs}: 1.0.json, 2.0.json\n`, stderr: '' }, 'CommonJS: module.exports')
  t.same(await gate(t, ['check', '--app', join(fixtures, 'commonjs.cjs'), '--dir', cjs], 'breaking'), await gate(t, ['check', '--app', 'app.ts', '--dir', cjs], 'breaking'), 'an absolute path')
})

// docs/openapi.md: the documents are served "under the prefix of the plugin the entry is registered in".
t.test('the openapi entry in a plugin under a prefix, with the routes it documents: snapshot and check find it', async t => {
  const dir = tempFolder(t)
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', '--dir', dir], 'prefixed'), { code: 0, stdout: `Saved 2 versions in ${dir}: 1.0.json, 2.0.json\n`, stderr: '' })
  t.same(Object.keys(JSON.parse(readFileSync(join(dir, '1.0.json'), 'utf8')).paths), ['/api/orders'], 'the document /api/openapi/1.0.json serves')
  t.same(await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'prefixed'), { code: 0, stdout: '1.0: no change\n2.0: no change\n\nNo breaking change in 2 saved versions.\n', stderr: '' })
})

t.test('what stops the command is exit 2 and a message that names the flag or file and says what to do', async t => {
  const dir = await released(t)
  const fails = async (argv: string[], stderr: string | RegExp, variant?: Variant) => {
    const run = await gate(t, argv, variant)
    t.match(run, { code: 2, stdout: '', stderr }, argv.join(' ') + (variant === undefined ? '' : ` (${variant})`))
  }
  const app = ['--app', 'app.ts', '--dir', dir]
  await fails(['check', '--app', 'throws.mjs', '--dir', dir], /^fastify-api-versioning: --app throws\.mjs: the module failed to load: DATABASE_URL is not set\n$/)
  await fails(['check', '--app', 'throws-unreadable.mjs', '--dir', dir], 'fastify-api-versioning: --app throws-unreadable.mjs: the module failed to load: a value that cannot be read\n')
  await fails(['check', '--app', 'missing.mjs', '--dir', dir], /^fastify-api-versioning: --app missing\.mjs: the module failed to load: Cannot find module/)
  await fails(['check', '--app', 'imports-typescript.mjs', '--dir', dir], 'fastify-api-versioning: --app imports-typescript.mjs: the module failed to load: ' +
    `Unknown file extension ".ts" for /app/src/routes.ts: Node ${process.version} loads no such file by itself. For TypeScript: use Node 22.18 or later (it strips types), ` +
    'run the command through tsx (npx tsx node_modules/.bin/fastify-api-versioning ...), or compile the app and give --app its .js (docs/openapi.md, "A TypeScript app")\n')
  await fails(['check', '--app', 'no-default.mjs', '--dir', dir], /^fastify-api-versioning: --app no-default\.mjs: the module has no default export \(its exports: \[app\]\): export default your Fastify instance, or a function returning one\n$/)
  await fails(['check', '--app', 'promised-rejects.mjs', '--dir', dir], 'fastify-api-versioning: --app promised-rejects.mjs: its default export, a promise, rejected: no database\n')
  await fails(['check', '--app', 'promised-other.mjs', '--dir', dir], 'fastify-api-versioning: --app promised-other.mjs: its default export, a promise, gave an object with keys [port]: expected a Fastify instance\n')
  await fails(['check', '--app', 'not-an-app.cjs', '--dir', dir], /^fastify-api-versioning: --app not-an-app\.cjs: its default export is an object with keys \[port\]: expected a Fastify instance, or a function returning one\n$/)
  for (const [returns, what] of [[undefined, 'undefined'], [[], 'an array'], [42, '42']] as const) {
    served.returns = returns
    await fails(['check', ...app], `fastify-api-versioning: --app app.ts: its default export, a function, returned ${what}: expected a Fastify instance\n`, 'returns')
  }
  await fails(['check', ...app], 'fastify-api-versioning: --app app.ts: its default export, a function, failed: no database\n', 'throws')
  await fails(['check', '--app', 'plugin.cjs', '--dir', dir], "fastify-api-versioning: --app plugin.cjs: its default export, a function, failed: Cannot read properties of undefined (reading 'get'); " +
    "it takes parameters, as a Fastify plugin does (fastify-cli's app.js), but --app calls it with none and wants the app: export a function that builds the app and registers the plugin in it " +
    '(export default async () => { const app = Fastify(); await app.register(plugin); return app })\n')
  await fails(['check', '--app', 'fails.ts', '--dir', dir], 'fastify-api-versioning: --app fails.ts: the app failed to start (ready()): a plugin failed: connect ECONNREFUSED 127.0.0.1:5432\n')
  // The entry's error says where (its code's), its cause what (the app's).
  await fails(['snapshot', ...app], "fastify-api-versioning: fastify-api-versioning/openapi: transformObject threw for version 1.0: Cannot read properties of undefined (reading 'url')\n", 'transform-throws')
  await fails(['check', ...app], 'fastify-api-versioning: --app app.ts: the app has no OpenAPI documents: register fastify-api-versioning/openapi in it (after apiVersioning, before the routes)\n', 'no-openapi')
  await fails(['check', ...app], 'fastify-api-versioning: --app app.ts: the app has no apiVersioning the command can reach, which it reads the documents from: register apiVersioning in the app itself (the instance --app gives), not inside a plugin, then fastify-api-versioning/openapi\n', 'enclosed')
  // Checked, then the app would not close: what holds the process may keep it from ending.
  t.same(await gate(t, ['check', ...app], 'released', 'fails'), {
    code: 2,
    stdout: '1.0: no change\n2.0: no change\n\nNo breaking change in 2 saved versions.\n',
    stderr: 'fastify-api-versioning: --app app.ts: closing the app failed: the pool would not end\n'
  })

  const empty = tempFolder(t, { 'notes.txt': 'not a document' })
  await fails(['check', '--app', 'app.ts', '--dir', join(empty, 'nowhere')], /^fastify-api-versioning: --dir \S+nowhere: cannot read the folder: ENOENT/)
  await fails(['check', '--app', 'app.ts', '--dir', empty], `fastify-api-versioning: --dir ${empty} has no saved version (<version>.json): run snapshot when you release a version, then check\n`)
  await fails(['snapshot', '--app', 'app.ts', '--dir', join(empty, 'notes.txt')], /^fastify-api-versioning: --dir \S+notes\.txt: cannot write the documents there: EEXIST/)
  mkdirSync(join(empty, 'taken', '2.0.json'), { recursive: true })
  await fails(['snapshot', '--app', 'app.ts', '--dir', join(empty, 'taken')], /^fastify-api-versioning: --dir \S+taken: cannot write the documents there: EISDIR/)
  const broken = tempFolder(t, { '1.0.json': '{ "openapi": ', '2.0.json': '[]' })
  await fails(['check', '--app', 'app.ts', '--dir', broken], /^fastify-api-versioning: --dir \S+: 1\.0\.json cannot be read as JSON \(.+\): restore it as snapshot wrote it, from version control\n$/)
  // A placeholder, a bad merge, a Swagger 2.0 file: compared, each would be a document of no operations, and pass.
  const info = { title: 'Orders', version: '1.0' }
  for (const [document, wrong] of [
    [{}, 'it has no "openapi" field'],
    [{ paths: {} }, 'it has no "openapi" field'],
    [{ swagger: '2.0', info, paths: {} }, 'it is Swagger "2.0"'],
    [{ openapi: '2.0', info, paths: {} }, 'its "openapi" is "2.0"'],
    [{ openapi: 3.1, info, paths: {} }, 'its "openapi" is 3.1'],
    [{ openapi: '3.1.0', paths: {} }, 'it has no "info" object'],
    [{ openapi: '3.0.3', info }, 'it has no "paths" object'],
    [[], 'it is an array, not an object'],
    [null, 'it is null, not an object']
  ] as const) {
    writeFileSync(join(broken, '1.0.json'), JSON.stringify(document))
    await fails(['check', '--app', 'app.ts', '--dir', broken], `fastify-api-versioning: --dir ${broken}: 1.0.json is no OpenAPI 3.0 or 3.1 document (${wrong}): restore it as snapshot wrote it, from version control\n`)
  }
})

t.test('an app that does not load or become ready within --ready-timeout is exit 2, naming the step that never ended', async t => {
  const dir = await released(t)
  const late = (what: string) => `fastify-api-versioning: --app ${what} within 0.05 s: it waits for something that never comes (a connection, a plugin or hook that never ends); make it end, or give it longer with --ready-timeout <seconds>\n`
  const quick = ['--dir', dir, '--ready-timeout', '0.05']
  // Loaded once before it is timed: on a busy host its first load alone may take the 50 ms, which is another step.
  await import(pathToFileURL(join(fixtures, 'promised-never.mjs')).href)
  t.same(await gate(t, ['check', '--app', 'never-loads.mjs', ...quick]), { code: 2, stdout: '', stderr: late('never-loads.mjs: the module did not finish loading') }, 'a top-level await')
  t.same(await gate(t, ['check', '--app', 'app.ts', ...quick], 'never-built'), { code: 2, stdout: '', stderr: late('app.ts: its default export, a function, did not return') }, 'a build')
  t.same(await gate(t, ['check', '--app', 'promised-never.mjs', ...quick]), { code: 2, stdout: '', stderr: late('promised-never.mjs: its default export, a promise, did not settle') }, 'a promise of the app')
  // Not closed after: Fastify would close it only once it had started. Nothing waits for that.
  t.same(await gate(t, ['snapshot', '--app', 'app.ts', ...quick], 'never-ready', 'hangs'), { code: 2, stdout: '', stderr: late('app.ts: the app did not become ready (ready())') }, 'an onReady hook')
})

t.test('the verdict is written before the app closes, and closing is bounded by --close-timeout: breaking changes stay exit 1', async t => {
  const dir = await released(t)
  const quick = ['--app', 'app.ts', '--dir', dir, '--close-timeout', '0.05']
  const hangs = 'fastify-api-versioning: --app app.ts: closing the app (close()) did not finish within 0.05 s: an onClose hook never ends; make it end, or give it longer with --close-timeout <seconds>\n'
  const fine = (await gate(t, ['check', ...quick])).stdout
  t.same(await gate(t, ['check', ...quick], 'released', 'hangs'), { code: 2, stdout: fine, stderr: hangs }, 'nothing breaking, then no close: not a pass')
  const breaking = await gate(t, ['check', ...quick], 'breaking')
  t.equal(breaking.code, 1)
  t.same(await gate(t, ['check', ...quick], 'breaking', 'hangs'), { code: 1, stdout: breaking.stdout, stderr: hangs }, 'breaking, then no close')
  t.same(await gate(t, ['check', ...quick], 'breaking', 'fails'), {
    code: 1, stdout: breaking.stdout, stderr: 'fastify-api-versioning: --app app.ts: closing the app failed: the pool would not end\n'
  }, 'breaking, then a close that throws')
  t.same(await gate(t, ['snapshot', ...quick], 'released', 'hangs'), { code: 2, stdout: `Saved 2 versions in ${dir}: 1.0.json, 2.0.json\n`, stderr: hangs }, 'snapshot')
})

// The app's code runs in the command's process: process.exit() in its module or a hook, or a failure nothing
// catches, would end the command with the app's code (0: a pass without a check; 1 for a crash: "breaking").
t.test('what the app does to the process cannot decide the exit code: exit 2 before a verdict, the verdict after', async t => {
  const guarded = (): { proc: FakeProcess, verdict: (code: number) => void, stderr: () => string } => {
    const proc = new FakeProcess()
    let stderr = ''
    return { proc, verdict: guardProcess(proc, { write: text => { stderr += text } }, 'app.mjs'), stderr: () => stderr }
  }
  const ended = (code: number) => `fastify-api-versioning: --app app.mjs: the app ended the process (process.exit(${code})) before anything was checked: keep process.exit() out of its module and hooks (throw instead), so that the command can load it\n`
  const early = guarded()
  early.proc.emit('exit', 0)
  t.same([early.proc.exitCode, early.stderr()], [2, ended(0)], 'process.exit(0) as the module loads, or in an onReady hook')
  const crash = (error: unknown) => `fastify-api-versioning: --app app.mjs: the app failed where nothing catches it (a rejected promise no one awaits, a throw in a timer or callback): ${error}: catch it in the app\n`
  for (const event of ['uncaughtException', 'unhandledRejection']) {
    const crashed = guarded()
    crashed.proc.emit(event, new Error('cannot connect to the database', { cause: new Error('ECONNREFUSED') }))
    t.same([crashed.proc.exited, crashed.stderr()], [2, crash('cannot connect to the database: ECONNREFUSED')], `${event} before a verdict`)
  }
  const closing = (verdict: number, code: number): { exitCode: unknown, stderr: string } => {
    const run = guarded()
    run.verdict(verdict)
    run.proc.emit('exit', code)
    return { exitCode: run.proc.exitCode, stderr: run.stderr() }
  }
  const asItClosed = (code: number) => `fastify-api-versioning: --app app.mjs: the app ended the process (process.exit(${code})) as it closed: the exit code is the command's\n`
  t.same(closing(1, 0), { exitCode: 1, stderr: asItClosed(0) }, 'breaking changes, then process.exit(0) in an onClose hook: still 1')
  t.same(closing(0, 0), { exitCode: 0, stderr: '' }, 'the command\'s own exit')
  t.same(closing(0, 3), { exitCode: 2, stderr: asItClosed(3) }, 'nothing breaking, then process.exit(3) as it closed: a close that failed')
  const late = guarded()
  late.verdict(1)
  late.proc.emit('unhandledRejection', 'the pool would not end')
  t.same([late.proc.exited, late.stderr()], [1, crash('the pool would not end')], 'a crash as it closes: the verdict stands')
  late.proc.emit('exit', 1)
  t.equal(late.proc.exitCode, 1, 'said once')

  // Output to a reader that stopped early (`check ... | head`): not a crash, and the exit code is the verdict's.
  const piped = guarded()
  piped.verdict(1)
  const closedPipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })
  piped.proc.stdout.emit('error', closedPipe)
  piped.proc.stderr.emit('error', closedPipe)
  piped.proc.emit('exit', 1)
  t.same([piped.proc.exitCode, piped.proc.exited, piped.stderr()], [1, undefined, ''], 'a closed pipe')

  // The command tells the guard its verdict before it closes the app, then what closing made of it.
  const dir = await released(t)
  const proc = new FakeProcess()
  const seen: unknown[] = []
  served.hooks = { onReady: () => { proc.emit('exit', 0); seen.push(proc.exitCode) }, onClose: () => { proc.emit('exit', 0); seen.push(proc.exitCode) } }
  const run = await gate(t, ['check', '--app', 'app.ts', '--dir', dir], 'breaking', 'closes', proc)
  t.same(seen, [2, 1], 'exit 2 while it became ready, 1 once breaking changes were found')
  t.equal(run.code, 1)
  t.match(run.stderr, /process\.exit\(0\)\) before anything was checked: .+\n.+process\.exit\(0\)\) as it closed: the exit code is the command's\n$/)
  served.hooks = undefined
  const failing = new FakeProcess()
  t.equal((await gate(t, ['check', '--app', 'app.ts', '--dir', dir, '--close-timeout', '0.05'], 'released', 'hangs', failing)).code, 2)
  failing.emit('exit', 2)
  t.equal(failing.exitCode, 2, 'nothing breaking, then no close: 2')
})

t.test('--version prints the package\'s version', async t => {
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'))
  t.same(await gate(t, ['--version']), { code: 0, stdout: `${version}\n`, stderr: '' })
})

t.test('usage: one command and both flags, or exit 2 with the usage text; --help prints it', async t => {
  const help = await gate(t, ['--help'])
  t.match(help, { code: 0, stderr: '', stdout: /^Usage: fastify-api-versioning <command> --app <module> --dir <folder> \[options\]\n/ })
  t.match(help.stdout, /--ready-timeout <seconds> .+\(default 60\)\n +--close-timeout <seconds> .+\(default 10\)\n/, 'the waits\' bounds')
  t.equal((await gate(t, ['-h'])).stdout, help.stdout)
  t.match(help.stdout, /--fail-on-unjudged +check: exit 1 on a change no rule judges too/)
  const options = '--app <module>, --dir <folder>, --ready-timeout <seconds>, --close-timeout <seconds>, --fail-on-unjudged, --help and --version'
  for (const [argv, message] of [
    [[], 'expected one command, snapshot or check (got none)'],
    [['publish', '--app', 'a', '--dir', 'd'], 'expected one command, snapshot or check (got "publish")'],
    [['check', 'snapshot', '--app', 'a', '--dir', 'd'], 'expected one command, snapshot or check (got "check" "snapshot")'],
    [['check', '--dir', 'd'], '--app is missing: give the module that exports your app (--app ./app.js)'],
    [['check', '--app', 'a'], '--dir is missing: give the folder of the saved documents (--dir openapi-versions)'],
    [['check', '--ap', 'a', '--dir', 'd'], `Unknown option '--ap': the options are ${options}`],
    [['check', '--dir', 'd', '--app'], `Option '--app <value>' argument missing: the options are ${options}`],
    [['check', '--app', 'a', '--dir', 'd', '--ready-timeout', '-1'], `Option '--ready-timeout' argument is ambiguous: the options are ${options}`],
    ...['', 'soon', '0', '-1', '86401', 'Infinity'].map(given => [['check', '--app', 'a', '--dir', 'd', `--ready-timeout=${given}`], `--ready-timeout must be a number of seconds above 0 and at most 86400 (got ${JSON.stringify(given)})`] as const),
    [['check', '--app', 'a', '--dir', 'd', '--close-timeout', '0'], '--close-timeout must be a number of seconds above 0 and at most 86400 (got "0")'],
    [['snapshot', '--app', 'a', '--dir', 'd', '--fail-on-unjudged'], '--fail-on-unjudged is an option of check (snapshot judges nothing)']
  ] as const) {
    t.same(await gate(t, [...argv]), { code: 2, stdout: '', stderr: `fastify-api-versioning: ${message}\n\n${help.stdout}` }, argv.join(' '))
  }
})
