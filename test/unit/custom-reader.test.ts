import t from 'tap'
import type { IncomingMessage } from 'node:http'
import Fastify from 'fastify'
import apiVersioning, { type CustomReader } from '../../lib/index.js'
import { build, logged, problem, says } from './helpers.js'

// A reader of the app's own: here, the version in a cookie-like header of the app's choosing.
const fromTenant: CustomReader = (request: IncomingMessage) => {
  const value = request.headers['x-tenant-version']
  return typeof value === 'string' ? value.split('|') : undefined
}

t.test('the values of a custom reader join the other readers\' in one outcome', async t => {
  const app = await build({ problemDetails: true, versionReader: { custom: fromTenant } }, app => {
    app.get('/a', { apiVersions: ['1.0', '2.0'] }, says('a'))
    app.get('/p/v:apiVersion', { apiVersions: '1.0' }, says('p'))
  })
  const get = async (url: string, tenant?: string) => app.inject({ url, headers: tenant === undefined ? {} : { 'x-tenant-version': tenant } })
  t.same((await get('/a', '2.0')).json(), { route: 'a', version: '2.0' })
  t.same((await get('/a', '2|2.0')).json(), { route: 'a', version: '2' }, 'several texts of one version')
  t.same((await get('/a?api-version=1.0', '1')).json(), { route: 'a', version: '1.0' }, 'the same version as the query: the query\'s text is read first')
  t.same((await get('/a?api-version=1.0', '2.0')).json(), problem('ambiguous'), 'another version than the query\'s is ambiguous')
  t.same((await get('/a', '1.0|2.0')).json(), problem('ambiguous'))
  t.same((await get('/a', '3.0')).json(), problem('unsupported'))
  t.same((await get('/a', 'x')).json(), problem('invalid'))
  t.same((await get('/a', '')).json(), problem('unspecified'), 'an empty text is no value, as elsewhere')
  t.same((await get('/a')).json(), problem('unspecified'), 'undefined is none')
  t.same((await get('/p/v1.0', '1')).json(), { route: 'p', version: '1.0' })
  t.same((await get('/p/v1.0', '2')).json(), problem('ambiguous'))
})

t.test('a custom reader that throws or gives garbage is a 500 for that request, logged, never a crash', async t => {
  const { lines, stream } = logged()
  const given = new Map<string, () => unknown>([
    ['throws', () => { throw new Error('no tenant') }],
    ['throws-nothing', () => { throw undefined }], // eslint-disable-line no-throw-literal
    ['number', () => 7],
    ['object', () => ({ version: '1.0' })],
    ['mixed', () => ['1.0', 2]],
    ['sparse', () => new Array(2)],
    ['proxy', () => new Proxy([], { get () { throw new Error('trap') } })],
    ['recursion', function again (): unknown { return again() }],
    ['null', () => null],
    // Not async itself, so start-up cannot tell: a rejection that nobody handled would end the process.
    ['promise', () => Promise.reject(new Error('later'))]
  ])
  const app = Fastify({ logger: { level: 'error', stream } })
  await app.register(apiVersioning, {
    problemDetails: true,
    versionReader: { custom: req => (given.get(String(req.headers['x-case'])) as () => string)() }
  })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  app.get('/n', { apiVersionNeutral: true }, says('n'))
  app.get('/plain', says('plain'))
  const expected: Record<string, RegExp> = {
    throws: /^fastify-api-versioning: versionReader\.custom threw: no tenant$/, // with its cause, as pino logs it
    'throws-nothing': /^fastify-api-versioning: versionReader\.custom threw: undefined$/,
    number: /returned the number 7, not a version text, an array of them or undefined$/,
    object: /returned a value of type object, not a version text/,
    mixed: /returned an array with other than texts/,
    sparse: /returned an array with other than texts/,
    proxy: /versionReader\.custom threw: trap$/,
    recursion: /versionReader\.custom threw: Maximum call stack size exceeded$/,
    promise: /returned a Promise; the router cannot wait for it: return the version synchronously, read from the request$/
  }
  for (const [name, message] of Object.entries(expected)) {
    for (const url of ['/a?api-version=1.0', '/n?api-version=1.0']) {
      lines.length = 0
      const res = await app.inject({ url, headers: { 'x-case': name } })
      t.equal(res.statusCode, 500, `${name} ${url}`)
      t.equal(res.json().code, 'FST_API_VERSIONING_CUSTOM_READER_FAILED', `${name} ${url}`)
      t.equal(lines.length, 1, `${name} ${url}: logged once`)
      t.match(lines[0]?.err?.message, message, `${name} ${url}`)
    }
  }
  t.same((await app.inject({ url: '/a?api-version=1.0', headers: { 'x-case': 'null' } })).json(), { route: 'a', version: '1.0' }, 'null is none, as undefined')
  t.same((await app.inject({ url: '/plain', headers: { 'x-case': 'throws' } })).json(), { route: 'plain', version: null }, 'an unversioned route never asks it')
})

t.test('versionReader.custom is checked at start-up, and counts as a reader', async t => {
  await t.rejects(async () => { await Fastify().register(apiVersioning, { versionReader: { custom: 'x-version' as never } }).ready() },
    /versionReader\.custom must be a function \(request\) => a version text, an array of them or undefined \(got x-version\)/)
  await t.rejects(async () => { await Fastify().register(apiVersioning, { versionReader: { custom: async () => '1.0' } as never }).ready() },
    { code: 'FST_API_VERSIONING_INVALID_OPTION', message: /versionReader\.custom must return the version synchronously, but it is an async function; read the version from the request without await/ })
  const app = await build({ problemDetails: true, versionReader: { query: false, header: false, urlSegment: false, custom: fromTenant } }, app => {
    app.get('/a', { apiVersions: '1.0' }, says('a'))
  })
  t.same((await app.inject({ url: '/a?api-version=2.0', headers: { 'x-tenant-version': '1' } })).json(), { route: 'a', version: '1' }, 'the only reader')
  t.notOk((await app.inject({ url: '/a', headers: { 'x-tenant-version': '1' } })).headers.vary, 'what it reads is the app\'s to name in Vary')
})
