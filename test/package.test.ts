import t from 'tap'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

// Packs the package as npm would publish it, installs the tarball into a fresh app beside copies of its
// dependencies, and uses it from ESM, CommonJS and TypeScript: first without the optional peers (the main entry
// needs none, and the openapi entry says what to install), then its openapi entry with them.
const root = resolve(import.meta.dirname, '..')
const env = { ...process.env, NODE_V8_COVERAGE: undefined, NODE_OPTIONS: undefined }
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

t.test('npm pack gives a package that ESM, CommonJS and TypeScript apps can use', { timeout: 300_000 }, async t => {
  const dir = mkdtempSync(join(tmpdir(), 'fav-pack-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], root))[0]
  const files: string[] = packed.files.map((f: { path: string }) => f.path)
  t.ok(files.includes('dist/esm/index.js') && files.includes('dist/cjs/index.js') && files.includes('dist/esm/index.d.ts'), 'ships dist')
  t.ok(['esm', 'cjs'].every(build => files.includes(`dist/${build}/openapi/index.js`) && files.includes(`dist/${build}/openapi/index.d.ts`)), 'ships the openapi entry')
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

  // Users of @fastify/type-provider-typebox 6 have TypeBox 1.x (the 'typebox' package); ours is 0.34, installed
  // with the plugin as its dependency: ProblemDetailsSchema works in their routes, typed and at run time.
  symlinkSync(join(root, 'node_modules', 'typebox'), join(modules, 'typebox'))
  mkdirSync(join(modules, '@fastify'), { recursive: true })
  symlinkSync(join(root, 'node_modules', '@fastify', 'type-provider-typebox-6'), join(modules, '@fastify', 'type-provider-typebox'))
  const typebox1 = `
import Fastify from 'fastify'
import { Type } from 'typebox'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import apiVersioning, { ProblemDetailsSchema } from 'fastify-api-versioning'
const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()
await app.register(apiVersioning, { problemDetails: true })
app.get('/orders/:id', {
  apiVersions: '1.0',
  schema: {
    params: Type.Object({ id: Type.Integer() }),
    querystring: Type.Object({ page: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
    response: { 200: Type.Object({ id: Type.Integer() }), 404: ProblemDetailsSchema }
  }
}, async (request, reply) => {
  const id: number = request.params.id
  if (id === 0) return reply.code(404).send({ status: 404, title: 'Not found', code: 'NoOrder' })
  // @ts-expect-error: a member of the problem keeps its type
  if (id === 1) return reply.code(404).send({ status: '404' })
  return { id }
})
const missing = await app.inject('/orders/0?api-version=1.0')
const found = await app.inject('/orders/2?api-version=1.0&page=2')
console.log(JSON.stringify([missing.statusCode, missing.json(), found.json()]))
`
  writeFileSync(join(app, 'typebox1.mts'), typebox1)
  writeFileSync(join(app, 'tsconfig.typebox1.json'), JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'] },
    files: ['typebox1.mts']
  }))
  t.equal(run('node', [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.typebox1.json'], app), '', 'ProblemDetailsSchema types with TypeBox 1.x')
  writeFileSync(join(app, 'typebox1.mjs'), typebox1.replace(/import type .*\n/, '').replace('.withTypeProvider<TypeBoxTypeProvider>()', '').replace(': number', '').replace(/ *\/\/ @ts-expect-error.*\n.*\n/, ''))
  t.same(JSON.parse(run('node', ['typebox1.mjs'], app)), [404, { type: 'about:blank', title: 'Not found', status: 404, code: 'NoOrder' }, { id: 2 }], 'and at run time')

  writeFileSync(join(app, 'openapi.mjs'), `
import Fastify from 'fastify'
import apiVersioning from 'fastify-api-versioning'
import apiVersioningOpenApi, { apiVersioningOpenApi as named } from 'fastify-api-versioning/openapi'
const app = Fastify()
await app.register(apiVersioning, { problemDetails: true })
try {
  await app.register(apiVersioningOpenApi, { ui: process.argv[2] === 'ui' })
} catch (error) {
  console.log(JSON.stringify({ error: error.message }))
  process.exit(0)
}
app.get('/values', { apiVersions: ['1.0', '2.0'] }, async () => 'v')
await app.ready()
const docs = app.apiVersionDocuments()
const json = await app.inject('/openapi/2.0.json')
const page = await app.inject('/docs/')
console.log(JSON.stringify([docs.map(d => d.version), json.json().paths['/values'].get.parameters[0].schema.enum, page.statusCode, named === apiVersioningOpenApi]))
`)
  t.same(JSON.parse(run('node', ['openapi.mjs'], app)), { error: 'fastify-api-versioning/openapi needs the package @fastify/swagger for the OpenAPI documents, but it is not installed; install it: npm install @fastify/swagger' },
    'without @fastify/swagger: a start-up error that says what to install')
  mkdirSync(join(modules, '@fastify'), { recursive: true })
  symlinkSync(join(root, 'node_modules', '@fastify', 'swagger'), join(modules, '@fastify', 'swagger'))
  t.same(JSON.parse(run('node', ['openapi.mjs'], app)), [['1.0', '2.0'], ['2.0'], 404, true], 'ESM')
  t.same(JSON.parse(run('node', ['openapi.mjs', 'ui'], app)), { error: 'fastify-api-versioning/openapi needs the package @fastify/swagger-ui for the ui option, but it is not installed; install it: npm install @fastify/swagger-ui' })
  symlinkSync(join(root, 'node_modules', '@fastify', 'swagger-ui'), join(modules, '@fastify', 'swagger-ui'))
  t.same(JSON.parse(run('node', ['openapi.mjs', 'ui'], app)), [['1.0', '2.0'], ['2.0'], 200, true], 'ESM, with the docs page')

  writeFileSync(join(app, 'openapi.cjs'), `
const Fastify = require('fastify')
const apiVersioning = require('fastify-api-versioning')
const apiVersioningOpenApi = require('fastify-api-versioning/openapi')
const app = Fastify()
app.register(apiVersioning)
app.register(apiVersioningOpenApi.apiVersioningOpenApi, { routePrefix: '/specs' })
app.register(async scope => { scope.get('/values', { apiVersions: '1.0' }, async () => 'v') })
app.ready().then(async () => {
  const yaml = await app.inject('/specs/1.0.yaml')
  console.log(JSON.stringify([app.apiVersionDocuments().map(d => d.version), yaml.body.startsWith('openapi: '), typeof apiVersioningOpenApi.default]))
})
`)
  t.same(JSON.parse(run('node', ['openapi.cjs'], app)), [['1.0'], true, 'function'], 'CommonJS')

  // Both builds in one app (an ESM app whose CommonJS dependency requires the package, or the reverse): every
  // export of one build works with the plugin of the other.
  writeFileSync(join(app, 'dual.mjs'), `
import Fastify from 'fastify'
import { createRequire } from 'node:module'
import * as esm from 'fastify-api-versioning'
import * as esmOpenApi from 'fastify-api-versioning/openapi'
const require = createRequire(import.meta.url)
const builds = { esm: [esm, esmOpenApi], cjs: [require('fastify-api-versioning'), require('fastify-api-versioning/openapi')] }
const seen = {}
for (const [plugin, parts] of [['esm', 'cjs'], ['cjs', 'esm']]) {
  const [main] = builds[plugin]
  const [other, otherOpenApi] = builds[parts]
  const app = Fastify()
  await app.register(other.errorObjects)
  await app.register(plugin === 'esm' ? main.default : main, {
    problemDetails: true,
    reportApiVersions: true,
    versionReader: { mediaType: true },
    policies: { '1.0': { deprecation: { date: '2025-01-01' } } },
    apiVersionSelector: () => other.ApiVersion.parse('2.0'),
    assumeDefaultVersionWhenUnspecified: true
  })
  await app.register(otherOpenApi.apiVersioningOpenApi)
  await app.register(other.withApiVersions({ apiVersions: ['1.0', '2.0'] }, async scope => {
    scope.get('/set', async request => ({ version: String(request.apiVersion), branded: request.apiVersion instanceof other.ApiVersion }))
  }))
  app.get('/assigned', { apiVersions: ['1.0', '2.0'], schema: { response: { 400: other.ProblemDetailsSchema } } }, async request => {
    request.apiVersion = other.ApiVersion.parse('1.0')
    return { ok: true }
  })
  app.get('/problem', async (request, reply) => reply.problem({ status: 409, title: other.PROBLEM_TEXTS.unsupported.title }))
  await app.ready()
  const set = await app.inject('/set?api-version=1')
  const unsupported = await app.inject('/set?api-version=3')
  const assigned = await app.inject({ url: '/assigned', headers: { accept: 'application/json;v=2.0' } })
  const problem = await app.inject('/problem')
  seen[plugin + ' plugin, ' + parts + ' parts'] = [
    set.json(), (await app.inject('/set')).json(), unsupported.statusCode, unsupported.json().error.code, set.headers['api-supported-versions'],
    assigned.headers.deprecation, assigned.headers['content-type'],
    problem.statusCode, problem.json().title,
    app.apiVersionDocuments().map(d => d.version),
    main.ApiVersion.parse('1') instanceof other.ApiVersion
  ]
}
console.log(JSON.stringify(seen))
`)
  const mixed = ['1.0', '2.0']
  const expected = [{ version: '1', branded: true }, { version: '2.0', branded: true }, 400, 'UnsupportedApiVersion', '1.0, 2.0',
    '@1735689600', 'application/json; charset=utf-8; v=1.0', 409, 'Unsupported API version', mixed, true]
  t.same(JSON.parse(run('node', ['dual.mjs'], app)), { 'esm plugin, cjs parts': expected, 'cjs plugin, esm parts': expected },
    'the ESM and CommonJS builds work together: version sets, error objects, the openapi entry, ApiVersion (instanceof, policies, media types, selectors), ProblemDetailsSchema, PROBLEM_TEXTS')

  writeFileSync(join(app, 'openapi-consumer.mts'), `
import Fastify from 'fastify'
import apiVersioning from 'fastify-api-versioning'
import apiVersioningOpenApi, { type ApiVersionDocument } from 'fastify-api-versioning/openapi'
const app = Fastify()
await app.register(apiVersioning)
await app.register(apiVersioningOpenApi, { openapi: { info: { title: 'T' } }, ui: { routePrefix: '/docs' } })
export const documents: readonly ApiVersionDocument[] = app.apiVersionDocuments()
// @ts-expect-error: an unknown option
await app.register(apiVersioningOpenApi, { prefixRoute: '/x' })
`)
  writeFileSync(join(app, 'openapi-consumer.cts'), `
import Fastify = require('fastify')
import openapi = require('fastify-api-versioning/openapi')
const app = Fastify.default()
app.register(openapi.default, { routePrefix: '/openapi', transformObject: ({ document, version }) => ({ ...document, info: { ...document.info, title: version } }) })
export const first: string | undefined = app.apiVersionDocuments()[0]?.version
`)
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'] },
    files: ['openapi-consumer.mts', 'openapi-consumer.cts']
  }))
  t.equal(run('node', [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app), '', 'the openapi entry\'s types check from both module systems')
})
