// Micro-benchmarks of the version parser and of reading a request into an outcome (ns per call).
// `node micro.mjs` prints a table; `--json` prints [what, ns] pairs for run.mjs.
import { IncomingMessage } from 'node:http'
import { Socket } from 'node:net'
import { internals } from './internals.mjs'
import { report } from './measure.mjs'

const { ApiVersion, readRequest, resolveMediaTypeOption } = await internals()

const config = { queryNames: ['api-version'], shortestQueryName: 11, headerNames: ['api-version'], mediaType: null, segmentName: null, custom: null, lastQuery: { text: '', name: '', value: '' }, findSegment: null }
const media = { ...config, mediaType: resolveMediaTypeOption('v') }
const headers = ['host', '127.0.0.1', 'user-agent', 'bench', 'accept', '*/*']
// A request as Node's HTTP parser makes it: raw header lines and the headers parsed from them.
function req (url, extra = [], accept = '*/*') {
  const lines = [...headers.slice(0, 4), 'accept', accept, ...extra]
  const message = new IncomingMessage(new Socket())
  Object.assign(message, { method: 'GET', url })
  message._addHeaderLines(lines, lines.length)
  return message
}
const longAccept = Array.from({ length: 200 }, (_, i) => `application/x-type-${i};q=0.${(i % 9) + 1};charset=utf-8`).join(', ') + ', application/json;v=1.0'

const mixedTexts = ['1.0', '2', '2023-06-01', '1.1-beta', 'abc', '1.', '2013-02-30', '01.00', '1.0-rc.1', '-1', ' 1', '2147483648']
const big = n => '1.' + '0'.repeat(n - 2)
const rows = [
  ['parse: mixed valid and invalid texts', v => ApiVersion.tryParse(v), mixedTexts],
  ['parse: "1.0"', v => ApiVersion.tryParse(v), ['1.0']],
  ['parse: 1 kB valid text', v => ApiVersion.tryParse(v), [big(1000)]],
  ['parse: 10 kB valid text', v => ApiVersion.tryParse(v), [big(10_000)]],
  ['parse: 100 kB valid text', v => ApiVersion.tryParse(v), [big(100_000)]],
  ['parse: 10 kB invalid text', v => ApiVersion.tryParse(v), ['1.' + '0'.repeat(9997) + 'x']],
  ['read: version in the query', r => readRequest(r, config).version, [req('/items?api-version=1.0')]],
  ['read: version in a header', r => readRequest(r, config).version, [req('/items', ['api-version', '1.0'])]],
  ['read: no version', r => readRequest(r, config).version, [req('/items?page=2')]],
  ['read: mixed (valid, invalid, ambiguous, none, escaped)', r => readRequest(r, config).version, [
    req('/items?api-version=1.0'), req('/items?api-version=abc'), req('/items?api-version=1.0&api-version=2.0'),
    req('/items'), req('/items?api-version=%31.0'), req('/items', ['api-version', '2.0'])]],
  ['read: 1 kB query', r => readRequest(r, config).version, [req('/items?' + 'a=b&'.repeat(250) + 'api-version=1.0')]],
  ['read: 10 kB query', r => readRequest(r, config).version, [req('/items?' + 'a=b&'.repeat(2500) + 'api-version=1.0')]],
  ['read: 100 kB query', r => readRequest(r, config).version, [req('/items?' + 'a=b&'.repeat(25_000) + 'api-version=1.0')]],
  ['read: 500 kB query, segments without "="', r => readRequest(r, config).version, [req('/items?' + 'a&'.repeat(256_000) + 'api-version=1')]],
  ['read: 500 kB query, short pairs', r => readRequest(r, config).version, [req('/items?' + 'a=b&'.repeat(128_000) + 'api-version=1')]],
  ['read: version in Accept (media type reader on)', r => readRequest(r, media).version, [req('/items', [], 'application/json;v=1.0')]],
  ['read: version in the query, media type reader on', r => readRequest(r, media).version, [req('/items?api-version=1.0')]],
  [`read: ${(longAccept.length / 1024).toFixed(0)} kB Accept header, version last`, r => readRequest(r, media).version, [req('/items', [], longAccept)]],
  ['read: 10 kB header value', r => readRequest(r, config).version, [req('/items', ['api-version', big(10_000)])]],
  ['read: 1000 repeated query values', r => readRequest(r, config).version, [req('/items?' + 'api-version=1.0&'.repeat(1000))]]
]

// A request's size is the text its readers may read: the URL, Accept and the version header.
report(rows, input => input.length ?? input.url.length + input.headers.accept.length + (input.headers['api-version']?.length ?? 0))
