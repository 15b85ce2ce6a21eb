import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import ts from 'typescript'
import { appWithPackage, pack } from './packed.js'

// The build is bundled (scripts/bundle.mjs): a file per entry and a chunk both import, which the CommonJS entries
// require. The openapi entry must use the main entry's modules, not copies of them: here, what it does with
// ApiVersion is seen through the class that the main entry exports, from either module system.
const app = (format: 'esm' | 'cjs') => `
${format === 'esm'
  ? "import Fastify from 'fastify'\nimport apiVersioning, { ApiVersion } from 'fastify-api-versioning'\nimport apiVersioningOpenApi from 'fastify-api-versioning/openapi'"
  : "const Fastify = require('fastify')\nconst apiVersioning = require('fastify-api-versioning')\nconst { ApiVersion } = apiVersioning\nconst apiVersioningOpenApi = require('fastify-api-versioning/openapi')"}
const parsed = []
const tryParse = ApiVersion.tryParse
ApiVersion.tryParse = function (text) {
  parsed.push(text)
  return tryParse.call(this, text)
}
async function main () {
  const app = Fastify()
  await app.register(apiVersioning)
  await app.register(apiVersioningOpenApi)
  app.get('/values', { apiVersions: '1.0' }, async () => 'v')
  await app.ready()
  parsed.length = 0
  const document = await app.inject('/openapi/1.0.json')
  console.log(JSON.stringify([document.statusCode, parsed.includes('1.0')]))
}
${format === 'esm' ? 'await main()' : 'main()'}
`

t.test('from ESM and CommonJS, the openapi entry uses the very modules of the main entry', async t => {
  for (const format of ['esm', 'cjs'] as const) {
    const packed = appWithPackage(t.teardown, format === 'esm' ? 'module' : 'commonjs')
    for (const dep of ['fastify', 'fast-json-stringify', '@fastify/swagger']) packed.link(dep)
    packed.write('app.js', app(format))
    t.same(JSON.parse(packed.node('app.js')), [200, true], `${format}: the document's version was parsed by the main entry's ApiVersion`)
  }
})

// From the entry points of package.json, every import, require() and type import of a file of the package, in
// turn: the package ships no file of dist/ that nothing reaches, and no import leads to a file it does not ship.
// On the way, what the ESM build imports from outside it.
t.test('every file of dist/ that the package ships is reached from its entry points; the ESM build imports no package', async t => {
  const { files, unpacked } = pack()
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'))
  const leaves = (value: unknown): string[] => typeof value === 'string' ? [value] : Object.values(value as object).flatMap(leaves)
  const reached = new Set<string>()
  const packagesOfEsm = new Set<string>()
  const todo = leaves([manifest.exports, manifest.main, manifest.module, manifest.types, manifest.typesVersions, manifest.bin])
    .filter(path => path.startsWith('./dist/')).map(path => join(path))
  while (todo.length > 0) {
    const file = todo.pop() as string
    if (reached.has(file)) continue
    reached.add(file)
    t.ok(files.includes(file), `${file}: shipped`)
    if (!existsSync(join(unpacked, file))) continue
    const { importedFiles } = ts.preProcessFile(readFileSync(join(unpacked, file), 'utf8'), true, true)
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) {
        if (file.startsWith('dist/esm/') && file.endsWith('.js') && !fileName.startsWith('node:')) packagesOfEsm.add(fileName)
        continue
      }
      const target = join(dirname(file), fileName)
      todo.push(file.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target)
    }
  }
  // What tells Node that the files below it are CommonJS.
  reached.add('dist/cjs/package.json')
  t.same(files.filter(file => file.startsWith('dist/') && !reached.has(file)), [], 'no file that nothing reaches')
  // On Node 20, the first CommonJS package that ES modules import after Fastify makes Fastify's own start-up
  // ~25 ms slower (scripts/bundle.mjs): the ESM build imports none at load (the peers are imported when needed).
  t.same([...packagesOfEsm], [], 'the ESM build imports only node: modules and its own files')
  t.ok(files.some(file => /^dist\/esm\/shared-\w+\.js$/.test(file)), 'the entries share a chunk')
  // The CommonJS entries require the ESM build: JavaScript once.
  t.same(files.filter(file => file.startsWith('dist/cjs/') && file.endsWith('.js')), ['dist/cjs/index.js', 'dist/cjs/openapi/index.js'], 'the CommonJS build is its two entries')
  // Both builds' types read one copy of the modules' declaration files, but for the one whose TypeBox types
  // differ by module system (scripts/mark-cjs.mjs).
  t.same(files.filter(file => file.startsWith('dist/esm/') && file.endsWith('.d.ts')).sort(),
    ['dist/esm/index.d.ts', 'dist/esm/openapi/index.d.ts', 'dist/esm/problems/problem-schema.d.ts'], 'declaration files once')
})

// What loading the package costs a cold start beyond its own code: no module of Node's that Fastify does not load
// already. An ES module that imports a built-in makes Node read all its exports, and node:http's lazy ones load
// undici (~25 ms), node:util's worker_threads: the build takes built-ins from process.getBuiltinModule instead.
t.test('loading either entry, from ESM or CommonJS, loads none of Node\'s modules that Fastify does not', async t => {
  const packed = appWithPackage(t.teardown)
  for (const dep of ['fastify', 'fast-json-stringify', '@fastify/swagger']) packed.link(dep)
  packed.write('load.mjs', `
import { createRequire } from 'node:module'
await import('fastify')
const before = new Set(process.moduleLoadList)
await (process.argv[2] === 'esm' ? Promise.all([import('fastify-api-versioning'), import('fastify-api-versioning/openapi')]) : [createRequire(import.meta.url)('fastify-api-versioning'), createRequire(import.meta.url)('fastify-api-versioning/openapi')])
console.log(JSON.stringify(process.moduleLoadList.filter(name => !before.has(name) && /undici|worker|http2|inspector/.test(name))))
`)
  for (const format of ['esm', 'cjs']) t.same(JSON.parse(packed.node('load.mjs', format)), [], format)
})
