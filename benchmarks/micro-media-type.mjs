// Micro-benchmarks of reading versions from Accept / Content-Type (ns per call), in the style of micro.mjs.
// `node micro-media-type.mjs` prints a table; `--json` prints [what, ns] pairs.
import { internals } from './internals.mjs'
import { report } from './measure.mjs'

const { readMediaTypes, resolveMediaTypeOption, withMediaTypeVersion, VersionOutcome } = await internals()

const v = resolveMediaTypeOption(true)
const vendor = resolveMediaTypeOption({ parameter: 'v', template: 'application/vnd.acme.v{version}+json' })
const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'
const long = (bytes, last) => {
  let text = ''
  for (let i = 0; text.length < bytes; i++) text += `application/x-type-${i};q=0.${(i % 9) + 1};charset=utf-8, `
  return text + last
}

const read = config => ([contentType, accept]) => {
  const outcome = new VersionOutcome()
  readMediaTypes(contentType, accept, config, outcome)
  return outcome.version !== null
}
const rows = [
  ['read: Accept application/json;v=2.0', read(v), [[undefined, 'application/json;v=2.0']]],
  ['read: Accept */* (no version)', read(v), [[undefined, '*/*']]],
  ['read: a browser Accept (Chrome: signed-exchange;v=b3;q=0.7 is read, so Invalid)', read(v), [[undefined, browser]]],
  ['read: Content-Type and Accept, both v=2.0', read(v), [['application/json; charset=utf-8; v=2.0', 'application/json;v=2.0, */*;q=0.1']]],
  ['read: Accept vendor type application/vnd.acme.v2+json', read(vendor), [[undefined, 'application/vnd.acme.v2+json']]],
  ['read: Accept ranked, quoted, ambiguous, invalid (mixed)', read(v), [
    [undefined, 'application/xml;q=0.5;v=1.0, application/json;q=0.8;v=2.0'], [undefined, 'application/json;v="2.0"'],
    [undefined, 'application/json;v=1.0, application/xml;v=2.0'], [undefined, 'application/json;v=abc']]],
  ['read: 1 kB Accept, version last', read(v), [[undefined, long(1000, 'application/json;v=2.0')]]],
  ['read: 8 kB Accept, version last', read(v), [[undefined, long(8000, 'application/json;v=2.0')]]],
  ['read: 64 kB Accept, version last', read(v), [[undefined, long(64_000, 'application/json;v=2.0')]]],
  ['read: 8 kB of parameters in one media type', read(v), [[undefined, 'application/json' + ';x=y'.repeat(2000) + ';v=2.0']]],
  ['decorate: application/json; charset=utf-8', ([ct]) => withMediaTypeVersion(ct, '2.0', v) !== ct, [['application/json; charset=utf-8']]]
]

report(rows, input => input.reduce((n, s) => n + (s?.length ?? 0), 0))
