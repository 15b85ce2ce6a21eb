import t from 'tap'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import apiVersioning, { errorObjects, PROBLEM_TEXTS, type ApiVersioningOptions } from '../../lib/index.js'
import { BASE } from './helpers.js'

// Random requests against apps with versioned, version-neutral and unversioned routes: never a 5xx, every
// version error a well-formed answer, and no request text in any response. Every free text a request
// carries contains MARK, so a reflection is easy to spot.
const MARK = 'zqx'
const ok = { ok: true }

async function app (options: ApiVersioningOptions, withErrorObjects = false): Promise<FastifyInstance> {
  const app = Fastify()
  if (withErrorObjects) await app.register(errorObjects)
  await app.register(apiVersioning, options)
  app.get('/values', { apiVersions: ['1.0', '2.0'] }, async () => ok)
  app.get('/values', { apiVersions: '3.0-beta', deprecatedApiVersions: '0.9' }, async () => ok)
  app.post('/values', { apiVersions: '1.0' }, async () => ok)
  app.get('/api/v:apiVersion/items', { apiVersions: ['1.0', '2.0'] }, async () => ok)
  app.get('/ping', { apiVersionNeutral: true }, async () => ok)
  app.get('/health', async () => ok)
  await app.ready()
  return app
}

const version = fc.constantFrom('1', '1.0', '2.0', '2', '3.0-BETA', '0.9', '9.0', '2013-02-30', '1.', 'abc', '')
const free = fc.string({ unit: 'grapheme', maxLength: 8 }).map(s => MARK + s)
const value = fc.oneof({ weight: 3, arbitrary: version }, { weight: 2, arbitrary: free })
const encoded = fc.oneof(
  value.map(encodeURIComponent),
  value.map(v => encodeURIComponent(v).replaceAll('%20', '+')),
  fc.constantFrom('%', '%zz', '1%2', '%E0%A4%A', '%FF').map(bad => MARK + bad)
)
const queryName = fc.constantFrom('api-version', 'API-Version', 'api%2Dversion', '__proto__', 'constructor', MARK)
const headerName = fc.constantFrom('api-version', 'Api-Version', 'x-' + MARK)
const request = fc.record({
  method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'HEAD', 'DELETE'),
  path: fc.oneof(
    fc.constantFrom('/values', '/ping', '/health', '/values/', '/VALUES', '/nope'),
    value.map(v => `/api/v${encodeURIComponent(v)}/items`)
  ),
  query: fc.array(fc.tuple(queryName, encoded), { maxLength: 4 }),
  headers: fc.array(fc.tuple(headerName, value.filter(v => /^[\x21-\x7e]*$/.test(v))), { maxLength: 3 })
})

const CODES = new Map(Object.entries(PROBLEM_TEXTS).map(([kind, text]) => [text.code, { kind, ...text }]))

type Answer = 'problem' | 'error object' | 'status only'

// Runs the property; returns fast-check's report of a failure (or null) and the status codes seen.
async function fuzz (app: FastifyInstance, errors: Answer): Promise<{ failure: string | null, seen: number[] }> {
  const seen = new Map<number, number>()
  const result = await fc.check(fc.asyncProperty(request, async ({ method, path, query, headers }) => {
    const url = path + (query.length > 0 ? '?' + query.map(([n, v]) => `${n}=${v}`).join('&') : '')
    const res = await app.inject({ method: method as 'GET', url, headers: Object.fromEntries(headers) })
    seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1)
    if (res.statusCode >= 500) throw new Error(`${res.statusCode}: ${res.body}`)
    const fastifyOwn = /^\{"message":"Route [A-Z]+:/.test(res.body) // Fastify's own 404 names the URL, not ours
    for (const [name, v] of Object.entries(res.headers)) {
      if (String(v).toLowerCase().includes(MARK)) throw new Error(`header ${name} reflects the request: ${v}`)
    }
    if (!fastifyOwn && res.body.toLowerCase().includes(MARK)) throw new Error(`body reflects the request: ${res.body}`)
    if (res.statusCode === 200 || fastifyOwn || method === 'HEAD') return true
    // Every other answer here is a version error, in the form the app is configured for.
    const type = String(res.headers['content-type'] ?? '')
    if (errors === 'status only') {
      if (res.body !== '') throw new Error(`a body where none was asked for: ${res.body}`)
      return true
    }
    const body = res.json()
    if (errors === 'problem') {
      const text = CODES.get(body.code)
      if (!type.startsWith('application/problem+json') || text === undefined) throw new Error(`not a problem: ${type} ${res.body}`)
      const expected = { type: `${BASE}#${text.kind}`, title: text.title, status: res.statusCode, detail: text.detail, code: text.code }
      if (JSON.stringify(body) !== JSON.stringify(expected)) throw new Error(`malformed problem: ${res.body}`)
    } else {
      const text = CODES.get(body.error?.code)
      if (!type.startsWith('application/json') || text === undefined || body.error.message !== text.title || body.error.innerError?.message !== text.detail) {
        throw new Error(`not an error object: ${type} ${res.body}`)
      }
    }
    return true
  }), { numRuns: 700 })
  return { failure: result.failed ? fc.defaultReportMessage(result) ?? 'failed' : null, seen: [...seen.keys()].sort() }
}

t.test('problem details, versions reported', async t => {
  const { failure, seen } = await fuzz(await app({ problemDetails: true, reportApiVersions: true }), 'problem')
  t.equal(failure, null)
  t.ok([200, 400, 404].every(code => seen.includes(code)), `200, 400 and 404 all exercised: ${seen.join(', ')}`)
})

t.test('a default version, Unsupported as 404', async t => {
  const { failure, seen } = await fuzz(await app({ problemDetails: true, assumeDefaultVersionWhenUnspecified: true, unsupportedApiVersionStatusCode: 404 }), 'problem')
  t.equal(failure, null)
  t.ok([200, 400, 404].every(code => seen.includes(code)), `200, 400 and 404 all exercised: ${seen.join(', ')}`)
})

t.test('error objects', async t => {
  const { failure, seen } = await fuzz(await app({ problemDetails: true }, true), 'error object')
  t.equal(failure, null)
  t.ok([200, 400, 404].every(code => seen.includes(code)), `200, 400 and 404 all exercised: ${seen.join(', ')}`)
})

t.test('status only', async t => {
  const { failure, seen } = await fuzz(await app({ problemDetails: false, reportApiVersions: true }), 'status only')
  t.equal(failure, null)
  t.ok([200, 400, 404].every(code => seen.includes(code)), `200, 400 and 404 all exercised: ${seen.join(', ')}`)
})
