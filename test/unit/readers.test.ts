import t from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import apiVersioning from '../../lib/index.js'
import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { ApiVersion } from '../../lib/api-version.js'
import { AMBIGUOUS, HEADER, INVALID, NONE, ONE, PATH, QUERY, VersionOutcome } from '../../lib/request/outcome.js'
import { fromLatin1, isAscii } from '../../lib/request/header-text.js'
import type { PathSegment } from '../../lib/request/path-segment.js'
import { readRequest, type ReaderConfig } from '../../lib/request/readers.js'

// Each reader has a query string of its own to compare with (lastQuery): the names differ between readers.
const defaults: Omit<ReaderConfig, 'lastQuery'> = { queryNames: ['api-version', 'v'], shortestQueryName: 1, headerNames: ['api-version', 'x-ms-version'], mediaType: null, segmentName: null, custom: null, findSegment: null, semicolonQuery: false }
const reader = (given: Partial<ReaderConfig> = {}): ReaderConfig => ({ ...defaults, ...given, lastQuery: { text: '', name: '', value: '' } })
const config = reader()

// A request as Node's HTTP parser makes it: the raw lines, and the headers parsed from them.
function request (url: string, rawHeaders: string[]): IncomingMessage {
  const req = new IncomingMessage(new Socket())
  req.url = url
  req.method = 'GET'
  ;(req as unknown as { _addHeaderLines (lines: string[], n: number): void })._addHeaderLines(rawHeaders, rawHeaders.length)
  return req
}

function read (url: string, rawHeaders: string[] = [], cfg: ReaderConfig = config, segment: PathSegment | null = null): VersionOutcome {
  return readRequest(request(url, rawHeaders), cfg, segment)
}

const names = ['none', 'one', 'invalid', 'ambiguous']

t.test('query and header values become one outcome', async t => {
  const cases: Array<[string, string[], number, string?]> = [
    ['/x', [], NONE],
    ['/x?', [], NONE],
    ['/x?api-version=', [], NONE, 'empty values are not values'],
    ['/x?api-version', [], NONE],
    ['/x?other=1&&=2&', [], NONE],
    ['/x?api-version=1.0', [], ONE],
    ['/x?API-Version=1.0', [], ONE, 'names are case-insensitive'],
    ['/x?api%2Dversion=1.0', [], ONE, 'names are decoded'],
    ['/x?api-version=1.0&api-version=1.0', [], ONE],
    ['/x?api-version=1&api-version=1.0', [], ONE, 'the same version in two spellings'],
    ['/x?api-version=1.0-beta&v=1.0-BETA', [], ONE],
    ['/x?api-version=1.0&api-version=2.0', [], AMBIGUOUS],
    ['/x?api-version=1.0&v=2.0', [], AMBIGUOUS],
    ['/x?api-version=abc&api-version=1.0', [], AMBIGUOUS, 'decided before validity'],
    ['/x?api-version=1.0&api-version=abc', [], AMBIGUOUS],
    ['/x?api-version=abc&api-version=ABC', [], INVALID],
    ['/x?api-version=abc', [], INVALID],
    ['/x?api-version=1.', [], INVALID],
    ['/x?api-version=%31.0', [], ONE, 'values are decoded'],
    ['/x?api-version=1%2', [], INVALID, 'a malformed escape is invalid'],
    ['/x?api-version=%E0%A4%A', [], INVALID],
    ['/x?api-version=+1.0', [], INVALID, '+ is a space'],
    ['/x?api-version=1,2', [], INVALID],
    ['/x?api-versions=1.0&xapi-version=2', [], NONE, 'only whole names count'],
    ['/x', ['api-version', '1.0'], ONE],
    ['/x', ['Api-Version', '1.0', 'X-MS-Version', '1'], ONE],
    ['/x', ['api-version', '1.0', 'api-version', '2.0'], AMBIGUOUS, 'repeated header lines are separate values'],
    ['/x', ['api-version', '1.0, 2.0'], INVALID, 'one line with a comma is one value'],
    ['/x', ['api-version', '1.0', 'API-VERSION', '1'], ONE, 'the same version on two lines'],
    ['/x', ['api-version', '', 'api-version', '2.0'], ONE, 'an empty line is no value'],
    ['/x', ['X-MS-Version', '2.0', 'x-ms-version', '1.0'], AMBIGUOUS],
    ['/x', ['api-version', ''], NONE],
    ['/x', ['api-versio', '1.0', 'accept', '2.0'], NONE],
    ['/x?api-version=1.0', ['api-version', '1.0'], ONE],
    ['/x?api-version=1.0', ['api-version', '2.0'], AMBIGUOUS],
    ['/x?api-version=1.0&api-version=2.0', ['api-version', '1.0'], AMBIGUOUS]
  ]
  for (const [url, headers, kind, why] of cases) {
    t.equal(names[read(url, headers).kind], names[kind], `${url} ${headers.join(': ')} ${why ?? ''}`)
  }
})

t.test('headers whose repeated lines Node keeps apart or drops are read from the raw lines', async t => {
  const names = reader({ headerNames: ['authorization', 'cookie', 'x-version'] })
  t.equal(read('/x', ['Authorization', '1.0', 'authorization', '2.0'], names).kind, AMBIGUOUS, 'Node keeps only the first')
  t.equal(read('/x', ['cookie', '1.0', 'cookie', '2.0'], names).kind, AMBIGUOUS, 'Node joins cookies with ;')
  t.equal(read('/x', ['authorization', '1.0'], names).kind, ONE)
  const joined = readRequest({ url: '/x', rawHeaders: ['x-version', '1', 'x-version', '2'], headers: { 'x-version': ['1', '2'] } } as unknown as IncomingMessage, names)
  t.equal(joined.kind, AMBIGUOUS, 'a header Fastify\'s inject gives as an array')
  const first = read('/x', ['x-version', '2', 'cookie', '2.0'], names)
  t.equal(first.kind, ONE)
  t.equal(first.source, 'x-version', 'with several names there, the first line read is the first value')
})

t.test('the outcome keeps the first value, where it was read and whether the path gave one', async t => {
  const one = read('/x?v=1', ['api-version', '1.0'])
  t.equal(String(one.version), '1')
  t.equal(one.text, '1')
  t.equal(one.source, 'v')
  t.equal(one.from & PATH, 0)
  const header = read('/x', ['X-MS-Version', '2.0'])
  t.equal(header.source, 'x-ms-version')

  // The router's answer stands in for find-my-way here (router.test.ts holds the two to each other).
  const router = reader({ segmentName: 'apiVersion', findSegment: (method, url) => url.startsWith('/v1/') ? '1' : undefined })
  const asked: PathSegment = { prefix: null }
  const both = read('/v1/x?api-version=1.0', [], router, asked)
  t.equal(both.kind, ONE)
  t.equal(both.from & PATH, PATH, 'a version that also came from the path')
  t.equal(both.source, 'api-version')
  const path = read('/v1/x', [], router, asked)
  t.equal(path.source, 'apiVersion')
  t.equal(path.from, PATH)
  t.equal(read('/v2/x', [], router, asked).kind, NONE)
  t.equal(read('/v1/x?api-version=2', [], router, asked).kind, AMBIGUOUS)
  t.equal(read('/v1/x', ['api-version', '3'], router, asked).kind, AMBIGUOUS)
  t.equal(read('/v1/x', [], { ...router, queryNames: [], headerNames: [], lastQuery: { text: '', name: '', value: '' } }, asked).kind, ONE)
  t.equal(read('/v1/x', [], router).kind, NONE, 'the path is read only where the route carries the version')
  t.equal(read('/x?api-version=2', ['api-version', '2'], reader({ queryNames: [] })).source, 'api-version')
  t.equal(readRequest({ rawHeaders: [], headers: {} } as unknown as IncomingMessage, router, asked).kind, NONE, 'no url or method')
  const inPlace: PathSegment = { prefix: '/v' }
  t.equal(String(read('/v2/x', [], router, inPlace).version), '2', 'read in place where the URL repeats the route\'s text')
  t.equal(read('/v%32/x', [], router, inPlace).kind, NONE, 'else the router is asked')
})

t.test('large and hostile input stays linear and never throws', async t => {
  const many = '/x?' + Array.from({ length: 1000 }, (_, i) => `api-version=${i % 2 === 0 ? '1' : '1.0'}`).join('&')
  t.equal(read(many).kind, ONE)
  const distinct = '/x?' + Array.from({ length: 1000 }, (_, i) => `api-version=${i}`).join('&')
  t.equal(read(distinct).kind, AMBIGUOUS)
  t.equal(read('/x?api-version=' + '1'.repeat(10_000)).kind, INVALID)
  t.equal(read('/x?api-version=' + '%'.repeat(10_000)).kind, INVALID)
  t.equal(read('/x', ['api-version', 'x'.repeat(10_000)]).kind, INVALID)
  t.equal(read('/x?__proto__=1&constructor=2&api-version=1').kind, ONE)
  const majors = Array.from({ length: 2000 }, (_, i) => read(`/x?api-version=${i}.${i % 7}`).version?.major)
  t.same(majors, Array.from({ length: 2000 }, (_, i) => i), 'more distinct versions than the parse cache holds')
})

// A reference model: decode every query pair as a form does, keep the values of the configured names (ASCII
// case-insensitive), drop empty ones, then apply the rules in their plainest form.
const asciiLower = (text: string) => text.replace(/[A-Z]/g, c => c.toLowerCase())
function formDecode (text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return text // a malformed escape leaves the raw text
  }
}

function model (query: string, headers: Array<[string, string]>): number {
  const pairs = query === ''
    ? []
    : query.split('&').map(part => {
      const eq = part.indexOf('=')
      return eq === -1 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)]
    })
  const values = [
    ...pairs.filter(([n]) => config.queryNames.includes(asciiLower(formDecode(n)))).map(([, v]) => formDecode(v)),
    ...headers.filter(([n]) => config.headerNames.includes(asciiLower(n))).map(([, v]) => v)
  ].filter(v => v !== '')
  if (values.length === 0) return NONE
  const texts = [...new Set(values.map(asciiLower))]
  const parsed = texts.map(v => ApiVersion.tryParse(v))
  if (texts.length === 1) return parsed[0] === null ? INVALID : ONE
  if (parsed.some(v => v === null)) return AMBIGUOUS
  return parsed.every(v => v!.equals(parsed[0])) ? ONE : AMBIGUOUS
}

// Query parts as a client may send them: each text spelled plainly, escaped, every byte escaped, with '+' or
// %20 for spaces; malformed escapes; any Unicode.
const versionish = fc.constantFrom('1', '1.0', '2.0', '01.0', 'abc', 'ABC', '1.', '', '1.0-beta', '1.0-BETA', '2013-02-30',
  '1.0-β', '1.0-Β', ' 1.0', '1.0 ', ' ', '1 0', '+1.0')
const escapeAll = (text: string) => [...new TextEncoder().encode(text)].map(b => '%' + b.toString(16).padStart(2, '0')).join('')
const spelled = versionish.chain(v => fc.constantFrom(v, encodeURIComponent(v), escapeAll(v), v.replaceAll(' ', '+'), v.replaceAll(' ', '%20')))
const raw = fc.oneof(
  { weight: 6, arbitrary: spelled },
  { weight: 1, arbitrary: fc.constantFrom('%', '%2', '%zz', '1%2', '%E0%A4%A', '%C3%28', '%FF', '1.0%') }, // malformed escapes
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }).filter(s => !/[&=#]/.test(s)) }
)
const name = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('api-version', 'API-VERSION', 'Api-Version', 'v', 'V', 'api%2Dversion', 'api%2dversion', '%76') },
  { weight: 1, arbitrary: fc.constantFrom('x-ms-version', 'other', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'api-versıon', 'api+version', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }).filter(s => !/[&=#]/.test(s)) }
)
const queryPart = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(name, raw).map(([n, v]) => `${n}=${v}`) },
  { weight: 1, arbitrary: name } // a name without '='
)
const header = fc.tuple(
  fc.constantFrom('api-version', 'API-Version', 'x-ms-version', 'X-MS-VERSION', 'accept', '__proto__', 'constructor'),
  fc.oneof(versionish, fc.string({ maxLength: 6 }))
)
const kinds = new Set([NONE, ONE, INVALID, AMBIGUOUS])

function check (query: string, headers: Array<[string, string]>): boolean {
  const outcome = read('/x?' + query, headers.flat())
  // Exactly one outcome, and a version exactly when it is ONE.
  if (!kinds.has(outcome.kind) || (outcome.kind === ONE) !== (outcome.version !== null)) return false
  return outcome.kind === model(query, headers)
}

t.test('property: never throws and agrees with a reference model', async t => {
  const result = fc.check(fc.property(fc.array(queryPart, { maxLength: 8 }), fc.array(header, { maxLength: 6 }),
    (parts, headers) => check(parts.join('&'), headers)), { numRuns: 5000 })
  t.notOk(result.failed, fc.defaultReportMessage(result) ?? '')
})

t.test('property: 1000 repeats of a value, with another anywhere among them', async t => {
  const result = fc.check(fc.property(fc.tuple(name, raw), fc.tuple(name, raw), fc.nat({ max: 1000 }), fc.array(header, { maxLength: 2 }),
    ([n, v], [n2, v2], at, headers) => {
      const parts = Array.from({ length: 1000 }, () => `${n}=${v}`)
      parts.splice(at, 0, `${n2}=${v2}`)
      return check(parts.join('&'), headers)
    }), { numRuns: 100 })
  t.notOk(result.failed, fc.defaultReportMessage(result) ?? '')
})

t.test('property: a query string read before reads as it did the first time, to the same reader only', async t => {
  const queries = fc.constantFrom('api-version=1.0', 'api-version=2', 'v=1.0', 'API-version=1.0', 'api-version=%31.0', 'api-version=1.0&v=2',
    'api-version=', 'api-version', 'x=1', 'api-version=1.0-%C3%A9', 'api-version=abc', '')
  const shown = (o: VersionOutcome) => [o.kind, o.version?.key, o.text, o.source, o.count]
  const result = fc.check(fc.property(fc.array(fc.tuple(queries, fc.boolean()), { minLength: 1, maxLength: 20 }), steps => {
    // Two readers with other names share nothing: what one compares with is its own.
    const one = reader()
    const other = reader({ queryNames: ['v'], shortestQueryName: 1 })
    return steps.every(([query, second]) => {
      const cfg = second ? other : one
      const fresh = second ? reader({ queryNames: ['v'], shortestQueryName: 1 }) : reader()
      return JSON.stringify(shown(read('/p?' + query, [], cfg))) === JSON.stringify(shown(read('/q?' + query, [], fresh)))
    })
  }), { numRuns: 3000 })
  t.notOk(result.failed, fc.defaultReportMessage(result) ?? '')
  const cfg = reader()
  read('/a?api-version=1.0', [], cfg)
  t.same(cfg.lastQuery, { text: 'api-version=1.0', name: 'api-version', value: '1.0' }, 'a single value is kept')
  read('/a?API-version=%32', [], cfg)
  t.same(cfg.lastQuery, { text: 'API-version=%32', name: 'api-version', value: '2' }, 'as it reads')
  for (const query of ['api-version=1.0&x=1', 'x=1', 'api-versions=1']) {
    read('/a?' + query, [], cfg)
    t.equal(cfg.lastQuery.text, 'API-version=%32', `${query} is not kept`)
  }
})

// A URL that counts the characters the reader's searches pass over, so the test measures work, not time.
class CountingUrl {
  scanned = 0
  constructor (private readonly text: string) {}
  get length (): number { return this.text.length }
  indexOf (search: string, from = 0): number {
    const at = this.text.indexOf(search, from)
    this.scanned += (at === -1 ? this.text.length : at + search.length) - from
    return at
  }

  slice (start: number, end?: number): string {
    this.scanned += (end ?? this.text.length) - start
    return this.text.slice(start, end)
  }

  charCodeAt (index: number): number {
    this.scanned++
    return this.text.charCodeAt(index)
  }
}

t.test('reading the query is linear in its length, whatever its shape', async t => {
  const shapes: Array<[string, (n: number) => string]> = [
    ['segments without "="', n => 'a&'.repeat(n) + 'api-version=1'],
    ['short pairs', n => 'a=b&'.repeat(n) + 'api-version=1'],
    ['empty segments', n => '&'.repeat(n) + 'v=1'],
    ['long names', n => ('a'.repeat(20) + '&').repeat(n / 10) + 'v=1'],
    ['repeated versions', n => 'api-version=1&'.repeat(n / 10)]
  ]
  for (const [shape, query] of shapes) {
    for (const n of [1000, 100_000]) {
      const url = new CountingUrl('/a?' + query(n))
      const outcome = readRequest({ url, rawHeaders: [], headers: {}, method: 'GET' } as unknown as IncomingMessage, config)
      t.equal(outcome.kind, ONE, `${shape} ${n}`)
      t.ok(url.scanned <= 3 * url.length, `${shape} ${n}: ${url.scanned} characters passed over for ${url.length}`)
    }
  }
})

t.test('fromLatin1: header bytes are read as UTF-8, unless the text never came from a socket', async t => {
  const rows: Array<[string, string]> = [
    ['1.0-\u00c3\u00a9', '1.0-é'],
    ['1.0-\u00e9', '1.0-\ufffd'],
    ['1.0-\u00ce\u00b2\u00c3\u00a9', '1.0-βé'],
    ['1.0-β', '1.0-β'],
    ['\u00e9\u{1F600}', '\u00e9\u{1F600}']
  ]
  for (const [text, expected] of rows) t.equal(fromLatin1(text), expected, JSON.stringify(text))
  for (const [text, ascii] of [['', true], ['1.0', true], ['\u007f', true], ['1.\u0080', false], ['é', false]] as const) t.equal(isAscii(text), ascii, JSON.stringify(text))
})

t.test('a text with other than ASCII means one thing from a header (UTF-8 bytes), another elsewhere', async t => {
  const latin1 = '1.0-\u00c3\u00a9' // the UTF-8 of 1.0-é as Node gives header bytes; elsewhere, the text 1.0-Ã©
  const outcome = (values: Array<[string, boolean]>) => {
    const o = new VersionOutcome()
    for (const [text, fromHeader] of values) o.add(text, 'x', fromHeader ? HEADER : QUERY)
    return [o.kind, o.version === null ? null : String(o.version)]
  }
  t.same(outcome([[latin1, true]]), [ONE, '1.0-é'])
  t.same(outcome([[latin1, false]]), [INVALID, null], '© is no letter')
  t.same(outcome([['1.0-é', false], [latin1, true]]), [ONE, '1.0-é'], 'the query\'s é and the header\'s é are one version')
  t.same(outcome([[latin1, true], [latin1, false]]), [AMBIGUOUS, null], 'one raw text, two meanings')
  t.same(outcome([[latin1, false], [latin1, true]]), [AMBIGUOUS, null])
  t.same(outcome([[latin1, true], [latin1, true]]), [ONE, '1.0-é'])
  t.same(outcome([['1.0', true], ['1.0', false]]), [ONE, '1.0'])
  // Non-ASCII texts are never kept in the parse cache: each is read as its place says, whatever came before.
  t.same(outcome([[latin1, false]]), [INVALID, null])
  t.same(outcome([[latin1, true]]), [ONE, '1.0-é'])
})

t.test("a router that starts the query string at a `;` too (Fastify's useSemicolonDelimiter): the version is read there, as Fastify reads the query", async t => {
  t.equal(read('/x;api-version=2', [], reader({ semicolonQuery: true })).kind, ONE)
  t.equal(read('/x;a=1?api-version=2', [], reader({ semicolonQuery: true })).kind, NONE, 'the first of them starts it: `a` is `1?api-version=2`')
  t.equal(read('/x?a=1;api-version=2', [], reader({ semicolonQuery: true })).kind, NONE, 'within the query, a `;` is text')
  t.equal(read('/x;api-version=2', [], reader()).kind, NONE, 'a path segment where the router says nothing')
  for (const options of [{ routerOptions: { useSemicolonDelimiter: true } }, { useSemicolonDelimiter: true }]) {
    const app = Fastify(options as Parameters<typeof Fastify>[0])
    await app.register(apiVersioning, { assumeDefaultVersionWhenUnspecified: true, defaultVersion: '1.0' })
    app.get('/v', { apiVersions: ['1.0', '2.0'] }, async request => ({ version: String(request.apiVersion), query: request.query }))
    const served = await app.inject('/v;api-version=2.0')
    t.same(served.json(), { version: '2.0', query: { 'api-version': '2.0' } }, JSON.stringify(options))
    t.equal((await app.inject('/v;api-version=9.0')).statusCode, 400, 'a version no route has: never the assumed one')
  }
})
