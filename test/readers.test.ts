import t from 'tap'
import fc from 'fast-check'
import type { IncomingMessage } from 'node:http'
import { ApiVersion } from '../lib/api-version.js'
import { AMBIGUOUS, INVALID, NONE, ONE, VersionOutcome } from '../lib/outcome.js'
import { readRequest, type ReaderConfig } from '../lib/readers.js'

const config: ReaderConfig = { queryNames: ['api-version', 'v'], headerNames: ['api-version', 'x-ms-version'], segmentName: null, findSegment: null }

function read (url: string, rawHeaders: string[] = [], cfg: ReaderConfig = config): VersionOutcome {
  return readRequest({ url, rawHeaders, method: 'GET' } as unknown as IncomingMessage, cfg)
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

t.test('the outcome keeps the first value, where it was read and whether the path gave one', async t => {
  const one = read('/x?v=1', ['api-version', '1.0'])
  t.equal(String(one.version), '1')
  t.equal(one.text, '1')
  t.equal(one.source, 'v')
  t.equal(one.fromPath, false)
  const header = read('/x', ['X-MS-Version', '2.0'])
  t.equal(header.source, 'x-ms-version')

  const segment: ReaderConfig = { ...config, segmentName: 'apiVersion', findSegment: (method, url) => url.startsWith('/v1/') ? '1' : undefined }
  const both = read('/v1/x?api-version=1.0', [], segment)
  t.equal(both.kind, ONE)
  t.equal(both.fromPath, true, 'a version that also came from the path')
  t.equal(both.source, 'api-version')
  const path = read('/v1/x', [], segment)
  t.equal(path.source, 'apiVersion')
  t.equal(path.fromPath, true)
  t.equal(read('/v2/x', [], segment).kind, NONE)
  t.equal(read('/v1/x?api-version=2', [], segment).kind, AMBIGUOUS)
  t.equal(read('/v1/x', ['api-version', '3'], segment).kind, AMBIGUOUS)
  t.equal(read('/v1/x', [], { ...segment, queryNames: [], headerNames: [] }).kind, ONE)
  t.equal(read('/x?api-version=2', ['api-version', '2'], { ...config, queryNames: [] }).source, 'api-version')
  t.equal(readRequest({ rawHeaders: [] } as unknown as IncomingMessage, segment).kind, NONE, 'no url or method')
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

// A reference model: every value from everywhere, then the rules in their plainest form.
function model (query: Array<[string, string]>, headers: Array<[string, string]>): number {
  const values = [
    ...query.filter(([n]) => config.queryNames.includes(n.toLowerCase())).map(([, v]) => v),
    ...headers.filter(([n]) => config.headerNames.includes(n.toLowerCase())).map(([, v]) => v)
  ].filter(v => v !== '')
  if (values.length === 0) return NONE
  const texts = [...new Set(values.map(v => v.toLowerCase()))]
  const parsed = texts.map(v => ApiVersion.tryParse(v))
  if (texts.length === 1) return parsed[0] === null ? INVALID : ONE
  if (parsed.some(v => v === null)) return AMBIGUOUS
  return parsed.every(v => v!.equals(parsed[0])) ? ONE : AMBIGUOUS
}

t.test('property: agrees with a reference model', async t => {
  const value = fc.oneof(fc.constantFrom('1', '1.0', '2.0', '01.0', 'abc', 'ABC', '1.', '', '1.0-beta', '1.0-BETA', '2013-02-30'),
    fc.string({ maxLength: 6 }).filter(s => !/[&=#%+]/.test(s)))
  const name = fc.constantFrom('api-version', 'API-VERSION', 'v', 'V', 'x-ms-version', 'other', '__proto__', 'constructor')
  const pair = fc.tuple(name, value)
  fc.assert(fc.property(fc.array(pair, { maxLength: 6 }), fc.array(pair, { maxLength: 6 }), (query, headers) => {
    const url = '/x?' + query.map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('&')
    const outcome = read(url, headers.flat())
    t.equal(names[outcome.kind], names[model(query, headers)], `${url} ${JSON.stringify(headers)}`)
    return true
  }), { numRuns: 500 })
})
