import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appWithPackage, pack, root, run, tsc } from './packed.js'

// Installs the tarball npm would publish into a fresh app beside copies of its dependencies, and uses it from
// ESM, CommonJS and TypeScript: first without the optional peers (the main entry needs none, and the openapi
// entry says what to install), then its openapi entry with them.
t.test('npm pack gives a package that ESM, CommonJS and TypeScript apps can use', async t => {
  const { files } = pack()
  t.ok(files.includes('dist/esm/index.js') && files.includes('dist/cjs/index.js') && files.includes('dist/esm/index.d.ts'), 'ships dist')
  t.ok(['esm', 'cjs'].every(build => files.includes(`dist/${build}/openapi/index.js`) && files.includes(`dist/${build}/openapi/index.d.ts`)), 'ships the openapi entry')
  t.notOk(files.some(f => f.startsWith('lib/') || f.startsWith('test/')), 'ships no sources or tests')
  // The README's guides, so that its links lead somewhere in node_modules and on the registry.
  const pages = files.filter(f => f.endsWith('.md'))
  t.ok(['docs/openapi.md', 'docs/lifecycle.md', 'docs/errors.md'].every(page => pages.includes(page)), 'ships the guides')
  for (const page of pages) {
    for (const [, target] of readFileSync(join(root, page), 'utf8').matchAll(/\]\(((?!https?:|#)[^)#\s]+)/g)) {
      t.ok(files.includes(join(page, '..', target).replaceAll('\\', '/')), `${page} -> ${target}: in the package`)
    }
  }
  t.notOk(existsSync(join(root, 'package.json.repo')), "the repository's package.json is back")
  t.match(readFileSync(join(root, 'package.json'), 'utf8'), /"prepare": "npm run build"/)

  const { dir: app, modules, link, write } = appWithPackage(t.teardown)
  const published = JSON.parse(readFileSync(join(modules, 'fastify-api-versioning', 'package.json'), 'utf8'))
  t.match(published, {
    repository: { type: 'git', url: 'git+https://github.com/fastify-api-versioning/fastify-api-versioning.git' },
    bugs: { url: 'https://github.com/fastify-api-versioning/fastify-api-versioning/issues' },
    homepage: 'https://github.com/fastify-api-versioning/fastify-api-versioning#readme',
    sideEffects: false
  }, 'where it comes from, and that importing it does nothing that a bundler must keep')
  for (const dep of ['fastify', 'fast-json-stringify', '@types/node']) link(dep)

  write('esm.mjs', `
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

  write('cjs.cjs', `
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

  write('consumer.mts', `
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
  write('consumer.cts', `
import Fastify = require('fastify')
import apiVersioning = require('fastify-api-versioning')
const app = Fastify.default()
// require() gives the plugin itself, as its types say; .default is the same plugin
app.register(apiVersioning, { problemDetails: true, reportApiVersions: { supportedHeader: 'x-versions' } })
app.register(apiVersioning.default, { problemDetails: true })
// @ts-expect-error: an unknown option, whichever way the plugin is imported
app.register(apiVersioning, { reportApiVersion: true })
app.get('/values', { apiVersions: '1.0', apiVersionNeutral: false }, async (request) => String(request.apiVersion))
export const parsed: apiVersioning.ApiVersion = apiVersioning.ApiVersion.parse('1.0')
export const options: apiVersioning.ApiVersioningOptions = { telemetry: false }
`)
  // The package's declaration files are checked too (no skipLibCheck), with no optional peer installed: the import
  // of @sinclair/typebox in them finds nothing, and they must compile all the same.
  write('tsconfig.json', JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'] },
    files: ['consumer.mts', 'consumer.cts']
  }))
  t.equal(tsc(app, 'tsconfig.json'), '', 'the types check from both module systems')

  write('openapi.mjs', `
import Fastify from 'fastify'
import apiVersioning from 'fastify-api-versioning'
import apiVersioningOpenApi, { apiVersioningOpenApi as named } from 'fastify-api-versioning/openapi'
const app = Fastify()
await app.register(apiVersioning, { problemDetails: true })
try {
  await app.register(apiVersioningOpenApi, { ui: process.argv[2] === 'ui' })
} catch (error) {
  console.log(JSON.stringify({ error: error.message, code: error.code }))
  process.exit(0)
}
app.get('/values', { apiVersions: ['1.0', '2.0'] }, async () => 'v')
await app.ready()
const docs = app.apiVersionDocuments()
const json = await app.inject('/openapi/2.0.json')
const page = await app.inject('/docs/')
console.log(JSON.stringify([docs.map(d => d.version), json.json().paths['/values'].get.parameters[0].schema.enum, page.statusCode, named === apiVersioningOpenApi]))
`)
  t.same(JSON.parse(run('node', ['openapi.mjs'], app)), { error: 'fastify-api-versioning/openapi needs the package @fastify/swagger for the OpenAPI documents, but it is not installed; install it: npm install @fastify/swagger', code: 'FST_API_VERSIONING_MISSING_PEER' },
    'without @fastify/swagger: a start-up error that says what to install')
  link('@fastify/swagger')
  t.same(JSON.parse(run('node', ['openapi.mjs'], app)), [['1.0', '2.0'], ['2.0'], 404, true], 'ESM')
  t.same(JSON.parse(run('node', ['openapi.mjs', 'ui'], app)), { error: 'fastify-api-versioning/openapi needs the package @fastify/swagger-ui for the ui option, but it is not installed; install it: npm install @fastify/swagger-ui', code: 'FST_API_VERSIONING_MISSING_PEER' })
  link('@fastify/swagger-ui')
  t.same(JSON.parse(run('node', ['openapi.mjs', 'ui'], app)), [['1.0', '2.0'], ['2.0'], 200, true], 'ESM, with the docs page')

  write('openapi.cjs', `
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
  write('dual.mjs', `
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

  write('openapi-consumer.mts', `
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
  write('openapi-consumer.cts', `
import Fastify = require('fastify')
import openapi = require('fastify-api-versioning/openapi')
const app = Fastify.default()
app.register(openapi.default, { routePrefix: '/openapi', transformObject: ({ document, version }) => ({ ...document, info: { ...document.info, title: version } }) })
export const first: string | undefined = app.apiVersionDocuments()[0]?.version
`)
  // Its declaration files are checked strictly in the next test (nodenext): here, what the app writes.
  write('tsconfig.json', JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'], skipLibCheck: true },
    files: ['openapi-consumer.mts', 'openapi-consumer.cts']
  }))
  t.equal(tsc(app, 'tsconfig.json'), '', 'the openapi entry\'s types check from both module systems')
})

// TypeScript apps resolve the package by its exports (node16, nodenext, bundler) or, with the older node10
// resolution, by main, types and typesVersions: both entries type in each; each @ts-expect-error must meet its
// error. nodenext, whose app imports both entries from ESM and CommonJS, also checks the package's declaration
// files (no skipLibCheck, as the first test does without the optional peers); the others check the app.
t.test('TypeScript apps with every module resolution type both entries', async t => {
  const { dir, link, write } = appWithPackage(t.teardown)
  for (const dep of ['fastify', 'fast-json-stringify', '@types/node', '@fastify/swagger', '@fastify/swagger-ui', '@sinclair/typebox']) link(dep)
  const body = `
const app = Fastify()
app.register(apiVersioning, { problemDetails: true })
app.register(apiVersioningOpenApi, { ui: { routePrefix: '/docs' } })
app.get('/values', { apiVersions: ['1.0'] }, async (request) => String(request.apiVersion satisfies ApiVersion | null))
export const version: ApiVersion = ApiVersion.parse('1.0')
export const documents: readonly ApiVersionDocument[] = app.apiVersionDocuments()
// @ts-expect-error: an unknown option of the main entry
app.register(apiVersioning, { reportApiVersion: true })
// @ts-expect-error: an unknown option of the openapi entry
app.register(apiVersioningOpenApi, { prefixRoute: '/x' })
`
  const esm = `import Fastify from 'fastify'
import apiVersioning, { ApiVersion } from 'fastify-api-versioning'
import apiVersioningOpenApi, { type ApiVersionDocument } from 'fastify-api-versioning/openapi'
` + body
  const cjs = `import Fastify = require('fastify')
import versioning = require('fastify-api-versioning')
import openapi = require('fastify-api-versioning/openapi')
import ApiVersion = versioning.ApiVersion
type ApiVersionDocument = openapi.ApiVersionDocument
const apiVersioning = versioning
const apiVersioningOpenApi = openapi
export const same: [typeof versioning.default, typeof openapi.default] = [versioning, openapi]
` + body.replace('Fastify()', 'Fastify.default()')
  const setups: Array<[string, Record<string, unknown>, Record<string, string>]> = [
    ['node10', { module: 'CommonJS', moduleResolution: 'Node10', esModuleInterop: true, skipLibCheck: true }, { 'node10.ts': esm, 'node10-require.ts': cjs }],
    ['node16', { module: 'Node16', moduleResolution: 'Node16', skipLibCheck: true }, { 'node16.mts': esm, 'node16.cts': cjs }],
    ['nodenext', { module: 'NodeNext', moduleResolution: 'NodeNext' }, { 'nodenext.mts': esm, 'nodenext.cts': cjs }],
    ['bundler', { module: 'ESNext', moduleResolution: 'Bundler', skipLibCheck: true }, { 'bundler.ts': esm }]
  ]
  for (const [name, options, sources] of setups) {
    for (const [file, text] of Object.entries(sources)) write(file, text)
    write(`tsconfig.${name}.json`, JSON.stringify({
      compilerOptions: { ...options, target: 'ES2022', strict: true, noEmit: true, types: ['node'] },
      files: Object.keys(sources)
    }))
    t.equal(tsc(dir, `tsconfig.${name}.json`), '', name)
  }
})
