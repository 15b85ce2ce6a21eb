import t from 'tap'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

// Packs the package as npm would publish it, installs the tarball into a fresh app beside copies of its
// dependencies, and uses it from ESM, CommonJS and TypeScript.
const root = resolve(import.meta.dirname, '..')
const env = { ...process.env, NODE_V8_COVERAGE: undefined, NODE_OPTIONS: undefined }
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

t.test('npm pack gives a package that ESM, CommonJS and TypeScript apps can use', { timeout: 120_000 }, async t => {
  const dir = mkdtempSync(join(tmpdir(), 'fav-pack-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], root))[0]
  const files: string[] = packed.files.map((f: { path: string }) => f.path)
  t.ok(files.includes('dist/esm/index.js') && files.includes('dist/cjs/index.js') && files.includes('dist/esm/index.d.ts'), 'ships dist')
  t.notOk(files.some(f => f.startsWith('lib/') || f.startsWith('test/')), 'ships no sources or tests')
  t.notOk(existsSync(join(root, 'package.json.repo')), "the repository's package.json is back")
  t.match(readFileSync(join(root, 'package.json'), 'utf8'), /"prepare": "npm run build"/)

  const modules = join(dir, 'app', 'node_modules')
  mkdirSync(join(modules, '@sinclair'), { recursive: true })
  mkdirSync(join(modules, '@types'), { recursive: true })
  run('tar', ['-xzf', join(dir, packed.filename), '-C', dir], dir)
  t.equal(JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')).scripts.prepare, undefined, 'no install script for users to approve')
  renameSync(join(dir, 'package'), join(modules, 'fastify-api-versioning'))
  for (const dep of ['fastify', 'fastify-plugin', 'fast-json-stringify', '@sinclair/typebox', '@types/node']) {
    symlinkSync(join(root, 'node_modules', dep), join(modules, dep))
  }
  const app = join(dir, 'app')
  writeFileSync(join(app, 'package.json'), '{ "type": "module" }')

  writeFileSync(join(app, 'esm.mjs'), `
import Fastify from 'fastify'
import apiVersioning, { ApiVersion, errorObjects, ProblemDetailsSchema } from 'fastify-api-versioning'
const app = Fastify()
await app.register(apiVersioning, { problemDetails: true })
app.get('/values', { apiVersions: '1.0' }, async (req) => ({ version: String(req.apiVersion) }))
const ok = await app.inject('/values?api-version=1')
const bad = await app.inject('/values?api-version=2')
console.log(JSON.stringify([ok.json(), bad.json().code, ApiVersion.parse('2.0').major, typeof errorObjects, ProblemDetailsSchema.$id]))
`)
  t.same(JSON.parse(run('node', ['esm.mjs'], app)), [{ version: '1' }, 'UnsupportedApiVersion', 2, 'function', 'ProblemDetails'])

  writeFileSync(join(app, 'cjs.cjs'), `
const Fastify = require('fastify')
const apiVersioning = require('fastify-api-versioning')
const { ApiVersion } = require('fastify-api-versioning')
const app = Fastify()
app.register(apiVersioning, { problemDetails: true })
app.register(async scope => { scope.get('/values', { apiVersions: '1.0' }, async (req) => ({ version: String(req.apiVersion) })) })
const shape = [typeof apiVersioning, apiVersioning.default === apiVersioning, apiVersioning.apiVersioning === apiVersioning,
  typeof apiVersioning.errorObjects, apiVersioning.ProblemDetailsSchema.$id, Object.keys(apiVersioning.PROBLEM_TEXTS).length]
app.inject('/values?api-version=1.0').then(res => console.log(JSON.stringify([res.json(), ApiVersion.parse('1').equals(ApiVersion.parse('1.0')), shape])))
`)
  t.same(JSON.parse(run('node', ['cjs.cjs'], app)), [{ version: '1.0' }, true, ['function', true, true, 'function', 'ProblemDetails', 4]],
    'require() gives the plugin itself, with .default and the named exports on it')

  writeFileSync(join(app, 'consumer.mts'), `
import Fastify from 'fastify'
import apiVersioning, { ApiVersion, type ProblemWriter } from 'fastify-api-versioning'
const app = Fastify()
await app.register(apiVersioning, { reportApiVersions: true })
app.get('/values', { apiVersions: ['1.0'] }, async (request, reply) => {
  const version: ApiVersion | null = request.apiVersion
  return reply.problem({ status: 400, title: String(version) })
})
export const writer: ProblemWriter = { canWrite: () => true, write: ({ reply }) => { reply.send() } }
// @ts-expect-error: versions are strings
app.get('/bad', { apiVersions: 1 }, async () => 'x')
`)
  writeFileSync(join(app, 'consumer.cts'), `
import Fastify = require('fastify')
import apiVersioning = require('fastify-api-versioning')
const app = Fastify.default()
app.register(apiVersioning.default, { problemDetails: true })
app.get('/values', { apiVersions: '1.0', apiVersionNeutral: false }, async (request) => String(request.apiVersion))
export const parsed: apiVersioning.ApiVersion = apiVersioning.ApiVersion.parse('1.0')
`)
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'] },
    files: ['consumer.mts', 'consumer.cts']
  }))
  t.equal(run('node', [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app), '', 'the types check from both module systems')
})
