import t from 'tap'
import fc from 'fast-check'
import { AMBIGUOUS, INVALID, MEDIA_TYPE, ONE, VersionOutcome, type ReaderBit } from '../../lib/request/outcome.js'
import { readMediaTypes, resolveMediaTypeOption, withMediaTypeVersion, type MediaTypeConfig } from '../../lib/request/media-type.js'

const kinds = ['none', 'one', 'invalid', 'ambiguous']
const TEMPLATE = 'application/vnd.acme.v{version}+json'
const config = (value: unknown): MediaTypeConfig => resolveMediaTypeOption(value) as MediaTypeConfig
const V = config(true)
const BOTH = config({ parameter: ['v', 'api'], template: TEMPLATE })
const ONLY_TEMPLATE = config({ template: TEMPLATE })

/** An outcome that also keeps every value it is given, with its source, in order. */
class Recording extends VersionOutcome {
  added: string[] = []
  override add (text: string, source: string, from: ReaderBit): boolean {
    this.added.push(`${text} @${source}`)
    return super.add(text, source, from)
  }
}

function read (accept?: string | string[], contentType?: string, cfg = V): Recording & { result: boolean } {
  const outcome = new Recording() as Recording & { result: boolean }
  // Node joins repeated Accept lines with ', '; every row is also one header line per value.
  outcome.result = readMediaTypes(contentType, Array.isArray(accept) ? accept.join(', ') : accept, cfg, outcome)
  return outcome
}

function texts (outcome: Recording): string[] {
  return outcome.added.map(entry => entry.slice(0, entry.lastIndexOf(' @')))
}

t.test("the reference's §2.3 Accept rows and Content-Type row (ASP.NET's tests)", async t => {
  const rows: Array<[string[], string | null | string[]]> = [
    [['application/json;q=1;v=2.0'], '2.0'],
    [['application/json;q=0.8;v=1.0', 'text/plain'], '1.0'],
    [['application/json;q=0.5;v=3.0', 'application/xml;q=0.5;v=3.0'], '3.0'],
    [['application/xml', 'application/json;q=0.2;v=1.0'], '1.0'],
    [['application/json', 'application/xml'], null],
    [['application/xml', 'application/xml+atom;q=0.8;v=2.5', 'application/json;q=0.2;v=1.0'], '2.5'],
    [['application/json;v=1.0', 'application/xml;q=0.2;v=2.0'], '1.0'],
    [['application/json;v=1.0', 'application/xml;q=0;v=2.0'], '1.0'],
    [['application/xml;q=0;v=2.0'], null],
    [['application/json;q=0;v=1.0', 'application/xml;q=0.2;v=2.0'], '2.0'],
    [['application/json;v=1.0', 'application/xml;v=2.0'], ['1.0', '2.0']]
  ]
  for (const [accept, expected] of rows) {
    const outcome = read(accept)
    if (expected === null) {
      t.equal(kinds[outcome.kind], 'none', accept.join(', '))
    } else if (Array.isArray(expected)) {
      t.equal(kinds[outcome.kind], 'ambiguous', accept.join(', '))
      t.same(texts(outcome), expected)
      t.equal(outcome.result, false, 'final once ambiguous')
    } else {
      t.equal(kinds[outcome.kind], 'one', accept.join(', '))
      t.equal(outcome.text, expected)
      t.equal(outcome.source, 'v')
    }
  }
  const row = read(['application/xml', 'application/xml+atom;q=0.8;v=1.5', 'application/json;q=0.2;v=2.0'], 'application/json;v=2.0')
  t.equal(row.text, '2.0', 'Content-Type (q=1) outranks the q=0.8 Accept version')
  t.same(texts(row), ['2.0'])
  const collated = read('application/json;v=2.0', 'application/json;v=1.0')
  t.same(texts(collated), ['1.0', '2.0'], 'Content-Type is collated with q=1 Accept, and comes first')
  t.equal(collated.kind, AMBIGUOUS)
})

t.test('ranking beyond the table', async t => {
  const rows: Array<[string | undefined, string | undefined, string[], string?]> = [
    [undefined, undefined, [], 'no headers'],
    ['', '', []],
    ['application/json;v=1.0', undefined, ['1.0']],
    ['application/json;q=0;v=1.0', 'text/plain', ['1.0'], 'Content-Type ignores q'],
    ['application/json', 'a/b;q=0.5;v=2', ['2'], 'a Content-Type without a version does not claim the rank'],
    ['application/json;v=1', 'a/b;v=1;q=1.0, c/d;v=2;q=0.9', ['1', '1'], 'q=1.0 is q=1'],
    ['application/json;v=1, a/b;v=2', undefined, ['1'], 'Content-Type is one media type'],
    [undefined, 'a/b;v=1;q=0.5, c/d;v=2;q=0.6', ['2'], 'q after the version still ranks it'],
    [undefined, 'a/b;q=0.5;q=1;v=1, c/d;q=0.6;v=2', ['2'], 'the first q counts'],
    [undefined, 'a/b;v=1;q=0.000, c/d;v=2;q=0.001', ['2']],
    [undefined, 'a/b;v=1;q=0.,c/d;v=2;q=1.', ['2']],
    [undefined, 'a/b;q=abc;v=1, c/d;q=0.9;v=2', ['1'], 'a malformed q counts as absent (1), as in ASP.NET'],
    [undefined, 'a/b;q=1.5;v=1, c/d;q=0.9;v=2', ['1']],
    [undefined, 'a/b;q=1.001;v=1, c/d;q=0.9;v=2', ['1']],
    [undefined, 'a/b;q=0.0001;v=1, c/d;q=0.9;v=2', ['1']],
    [undefined, 'a/b;q=0.5x;v=1, c/d;q=0.9;v=2', ['1']],
    [undefined, 'a/b;q="0.5";v=1, c/d;q=0.9;v=2', ['1']],
    [undefined, 'a/b;q=;v=1, c/d;q=0.9;v=2', ['1']],
    [undefined, 'a/b;q=2;v=1, c/d;q=0.9;v=2', ['1']],
    [undefined, 'a/b;q= 0.5 ;v=1, c/d;q=0.9;v=2', ['2'], 'whitespace around values'],
    [undefined, 'a/b;v=1;v=2', ['1', '2'], 'two different versions in one media type are ambiguous'],
    [undefined, 'a/b;v=1;V=1', ['1', '1']],
    [undefined, 'a/b;v=1.0, c/d;v=1', ['1.0', '1'], '1 and 1.0 are one version (decided by the outcome)'],
    [undefined, 'a/b;v=, c/d;v="";q=1, e/f;v=3;q=0.5', ['3'], 'empty values are no versions'],
    [undefined, 'a/b;q=0.3;v=3, c/d;q=0.5;v=5, e/f;q=0.4;v=4, g/h;q=0.5;v=5', ['5', '5'], 'sorted, stable']
  ]
  for (const [contentType, accept, expected, why] of rows) {
    t.same(texts(read(accept, contentType)), expected, `${contentType} | ${accept} ${why ?? ''}`)
  }
  t.equal(read('a/b;v=1.0, c/d;v=1').kind, ONE)
  t.equal(read('a/b;v=abc').kind, INVALID)
  t.equal(read('a/b;v=abc, c/d;v=1.0').kind, AMBIGUOUS, 'ambiguity is decided before validity')
})

t.test('parameter names, quoted values and whitespace', async t => {
  const rows: Array<[string, string[], (MediaTypeConfig | string)?]> = [
    ['application/json; V=2.0', ['2.0 @v']],
    ['application/json ; v = 2.0 ', ['2.0 @v']],
    ['application/json;\tv=\t2.0\t', ['2.0 @v']],
    ['application/json;v="2.0"', ['2.0 @v']],
    ['application/json;v="2.\\"0\\\\"', ['2."0\\ @v'], 'escapes are unescaped'],
    ['application/json;v= "2.0" ;q=1', ['2.0 @v']],
    ['application/json;v="2.0"x', ['"2.0"x @v'], 'a quoted value with more after it is kept raw, so it is Invalid'],
    ['application/json;v="2.0', ['"2.0 @v'], 'an unterminated quote runs to the end'],
    ['application/json;v="1, a/b;v=2"', ['1, a/b;v=2 @v'], 'commas and semicolons inside quotes'],
    ['application/json;x="v=1";v=2', ['2 @v']],
    ['application/json;api=1;v=1', ['1 @api', '1 @v'], BOTH],
    ['application/json;API=1', ['1 @api'], BOTH],
    ['application/json;version=1;vv=2;"v"=3', []],
    ['application/json;v', []],
    ['application/json;v;q=0.5, a/b;v=1', ['1 @v']]
  ]
  for (const [accept, expected, cfg] of rows) t.same(read(accept, undefined, typeof cfg === 'object' ? cfg : V).added, expected, `${accept} ${cfg ?? ''}`)
  t.same(config(['Version', 'v']).parameters, ['version', 'v'])
  t.same(read('a/b;VERSION=3', undefined, config('Version')).added, ['3 @version'], 'names are stored lower-case')
})

t.test('vendor media types from a template', async t => {
  const rows: Array<[string, string[], (MediaTypeConfig | string)?]> = [
    ['application/vnd.acme.v2+json', [`2 @${TEMPLATE}`]],
    ['application/vnd.acme.v2.1+json', [`2.1 @${TEMPLATE}`]],
    ['Application/VND.Acme.V2.1-Beta+JSON', [`2.1-Beta @${TEMPLATE}`], 'case-insensitive, the version kept as sent'],
    ['  application/vnd.acme.v2+json  ;charset=utf-8', [`2 @${TEMPLATE}`]],
    ['application/vnd.acme.v+json', [], 'an empty version is none'],
    ['application/vnd.other.v2+json', []],
    ['application/vnd.acme.v2+xml', []],
    ['application/vnd.acme.v2', []],
    ['text/vnd.acme.v2+json', []],
    ['application/json;v=2', []],
    ['application/vnd.acme.v2+json;q=0.5, application/vnd.acme.v3+json;q=0.9', [`3 @${TEMPLATE}`]],
    ['application/vnd.acme.v2+json;v=2', [`2 @${TEMPLATE}`, '2 @v'], BOTH],
    ['application/json;v=2, application/vnd.acme.v3+json', ['2 @v', `3 @${TEMPLATE}`], BOTH],
    ['application/vnd.acme.v2 x+json', [`2 x @${TEMPLATE}`], 'kept raw, so it is Invalid']
  ]
  for (const [accept, expected, cfg] of rows) {
    t.same(read(accept, undefined, typeof cfg === 'object' ? cfg : ONLY_TEMPLATE).added, expected, `${accept} ${typeof cfg === 'string' ? cfg : ''}`)
  }
  t.same(read(undefined, 'application/vnd.acme.v2+json', ONLY_TEMPLATE).added, [`2 @${TEMPLATE}`], 'from Content-Type')
  const ver = config({ template: 'application/vnd-v{version}+json' })
  t.same(texts(read('application/vnd-v2022-11-01+json', undefined, ver)), ['2022-11-01'])
  t.same(texts(read('application/vnd-1.1-beta+xml', undefined, config({ template: 'application/vnd-{version}+xml' }))), ['1.1-beta'])
  t.same(texts(read('application/v2', undefined, config({ template: 'application/v{version}' }))), ['2'])
})

t.test('malformed headers never throw and read what they can', async t => {
  const rows: Array<[string, string[]]> = [
    ['application/json;;v=', []],
    ['application/json;;v=2', ['2']],
    [';v=2', ['2']],
    [',,,;,', []],
    ['application/json;=;==;v==2', ['=2']],
    ['application/json;v=2;', ['2']],
    ['"', []],
    ['a/b;v="\\', ['"\\']],
    ['a/b;v="\\"', ['"\\"']],
    ['a/b;v=\\"2', ['\\"2']],
    ['a/b;v=2"x;q=0.1, c/d;v=3"', ['2"x;q=0.1, c/d;v=3"']],
    ['a/b;v=1' + ';x=y'.repeat(2048), ['1']],
    ['a/b' + ';x=y'.repeat(2048) + ';v=1', ['1']],
    ['a/b;v=1;q=0.5' + ', c/d;x="'.repeat(100), ['1']],
    ['\u00e9/\u{1F600};v=\u00e9', ['\u00e9']]
  ]
  for (const [accept, expected] of rows) t.same(texts(read(accept)), expected, accept.slice(0, 60))
  t.same(texts(read(undefined, 'a/b;v=2"; x', V)), ['2"; x'])
  t.same(read(42 as unknown as string, ['x'] as unknown as string).added, [], 'not strings')
  t.same(texts(read('a/b;v=1, c/d;v=2, e/f;v=3')), ['1', '2'], 'stops once ambiguous')
})

t.test('a hostile header does not keep its memory', async t => {
  t.equal(read('a/b' + ';v=1'.repeat(5000)).kind, ONE)
  t.same(texts(read('a/b;v=2')), ['2'])
})

t.test('versionReader.mediaType option', async t => {
  const good: Array<[unknown, string[] | null, string | null]> = [
    [undefined, null, null],
    [false, null, null],
    [true, ['v'], null],
    ['v', ['v'], null],
    ['X-Version', ['x-version'], null],
    [['v', 'V', 'ver'], ['v', 'ver'], null],
    [{ parameter: 'v' }, ['v'], null],
    [{ parameter: true }, ['v'], null],
    [{ parameter: ['a', 'b'], template: TEMPLATE }, ['a', 'b'], TEMPLATE],
    [{ template: TEMPLATE }, [], TEMPLATE],
    [{ parameter: false, template: TEMPLATE }, [], TEMPLATE],
    [{ template: 'Application/Vnd.Acme-{version}' }, [], 'Application/Vnd.Acme-{version}']
  ]
  for (const [value, parameters, template] of good) {
    const resolved = resolveMediaTypeOption(value)
    t.same(resolved === null ? null : resolved.parameters, parameters, JSON.stringify(value))
    t.equal(resolved === null ? null : resolved.template, template)
  }
  t.same(config({ template: 'Application/Vnd.Acme-{version}' }), { parameters: [], template: 'Application/Vnd.Acme-{version}', prefix: 'application/vnd.acme-', suffix: '', baseType: null })
  t.equal(config({ template: TEMPLATE }).baseType, 'application/json')
  t.ok(Object.isFrozen(config(true)) && Object.isFrozen(config(true).parameters))

  // A function is quoted by its text, as the TypeScript loader of the tests prints it.
  const fn = (): number => 1
  const bad: Array<[unknown, RegExp]> = [
    [null, /mediaType must be false, true, a parameter name.*\(got null\)/],
    [1, /\(got 1\)/],
    [10n, /\(got 10\)/],
    [fn, new RegExp(`\\(got ${String(fn).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`)],
    ['', /mediaType parameter names must be tokens such as 'v' \(got ""\)/],
    [[], /non-empty array.*\(got \[\]\)/],
    ['a b', /parameter names must be tokens such as 'v' \(got "a b"\)/],
    [['v', 2], /tokens.*\(got 2\)/],
    ['Q', /cannot use 'q', the quality parameter \(got "Q"\)/],
    [{}, /mediaType needs a parameter or a template \(got \{\}\)/],
    [{ parameter: false }, /needs a parameter or a template/],
    [{ parameter: [] }, /mediaType\.parameter must be true, a parameter name or a non-empty array/],
    [{ parameter: 'v;' }, /mediaType\.parameter parameter names must be tokens/],
    [{ parameters: 'v' }, /mediaType has an unknown option "parameters"; use parameter or template/],
    [{ template: 'application/json' }, /mediaType\.template must be a media type with one \{version\} in its subtype/],
    [{ template: 42 }, /template.*\(got 42\)/],
    [{ template: '{version}/json' }, /template/],
    [{ template: 'application/{version}' }, /template/],
    [{ template: '/v{version}' }, /template/],
    [{ template: 'application/v{version}.{version}' }, /template/],
    [{ template: 'application/v{version}/x' }, /template/],
    [{ template: 'app lication/v{version}' }, /template/],
    [{ template: 'application/v{version}+json;q=1' }, /template/],
    [{ template: 'application/v{Version}' }, /template/],
    [{ template: null }, /template/]
  ]
  const cyclic: Record<string, unknown> = { template: 'x' }
  cyclic.self = cyclic
  bad.push([cyclic, /unknown option "self".*\(got \[object Object\]\)/])
  for (const [value, message] of bad) {
    t.throws(() => resolveMediaTypeOption(value), { name: 'TypeError', message: /^fastify-api-versioning: versionReader\.mediaType/ })
    t.throws(() => resolveMediaTypeOption(value), { message }, String(message))
  }
})

t.test('the Content-Type of a success response names the version', async t => {
  const rows: Array<[string, string, MediaTypeConfig, string | null, string]> = [
    ['application/json; charset=utf-8', '2.0', V, 'v', 'application/json; charset=utf-8; v=2.0'],
    ['application/json', '1', V, null, 'application/json; v=1'],
    ['application/json; V=3', '1', V, 'v', 'application/json; V=3'],
    ['application/json; v', '1', V, 'v', 'application/json; v'],
    ['text/plain; x="a;v=1"', '1', V, 'v', 'text/plain; x="a;v=1"; v=1'],
    ['text/plain; x=1; api=2', '1', BOTH, 'v', 'text/plain; x=1; api=2'],
    ['text/plain', '1', BOTH, 'api', 'text/plain; api=1'],
    ['text/plain', '1', BOTH, 'x-query', 'text/plain; v=1'],
    ['text/plain', '1', BOTH, TEMPLATE, 'text/plain; v=1'],
    ['application/json; charset=utf-8', '2.1', BOTH, TEMPLATE, 'application/vnd.acme.v2.1+json; charset=utf-8'],
    ['application/json', '2', BOTH, 'v', 'application/json; v=2'],
    ['Application/JSON ;charset=utf-8', '2', ONLY_TEMPLATE, null, 'application/vnd.acme.v2+json ;charset=utf-8'],
    ['application/vnd.acme.v2+json', '2', BOTH, 'v', 'application/vnd.acme.v2+json'],
    ['text/plain', '2', ONLY_TEMPLATE, TEMPLATE, 'text/plain'],
    ['application/problem+json', '2', ONLY_TEMPLATE, TEMPLATE, 'application/problem+json'],
    ['', '2', V, 'v', ''],
    ['  ;x=1', '2', V, 'v', '  ;x=1'],
    ['application/json', '1.0-b\u00e9ta', V, 'v', 'application/json'],
    ['application/json', '', V, 'v', 'application/json'],
    ['application/json', '1 0', V, 'v', 'application/json']
  ]
  for (const [contentType, raw, cfg, source, expected] of rows) {
    t.equal(withMediaTypeVersion(contentType, raw, cfg, source), expected, `${contentType} ${raw} ${source}`)
  }
  t.equal(withMediaTypeVersion(undefined as unknown as string, '1', V), undefined)
  t.equal(withMediaTypeVersion('a/b', 1 as unknown as string, V), 'a/b')
})

// A reference model written for clarity, not speed: split everything, then sort. Quotes (with backslash
// escapes) hide `,`, `;` and `=`; an unterminated quote runs to the end of the header.
function splitOutsideQuotes (text: string, separator: string, once = false): string[] {
  const parts: string[] = []
  let part = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted && c === '\\') {
      part += c + (text[i + 1] ?? '')
      i++
    } else if (c === '"') {
      quoted = !quoted
      part += c
    } else if (!quoted && c === separator && !(once && parts.length === 1)) {
      parts.push(part)
      part = ''
    } else {
      part += c
    }
  }
  parts.push(part)
  return parts
}

const ows = (text: string): string => text.replace(/^[ \t]+|[ \t]+$/g, '')
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

function modelEntry (entry: string, cfg: MediaTypeConfig, fromContentType: boolean): { q: number, found: string[] } {
  const [type, ...params] = splitOutsideQuotes(entry, ';')
  const found: string[] = []
  const lowerType = ows(type).toLowerCase()
  if (cfg.template !== null && lowerType.length > cfg.prefix.length + cfg.suffix.length &&
      lowerType.startsWith(cfg.prefix) && lowerType.endsWith(cfg.suffix)) {
    found.push(`${ows(type).slice(cfg.prefix.length, lowerType.length - cfg.suffix.length)} @${cfg.template}`)
  }
  let q: number | null = null
  for (const param of params) {
    const pair = splitOutsideQuotes(param, '=', true)
    if (pair.length < 2) continue
    const name = ows(pair[0]).toLowerCase()
    const raw = ows(pair[1])
    if (name === 'q') {
      q ??= QVALUE.test(raw) ? Math.round(Number(raw) * 1000) : 1000
    } else if (cfg.parameters.includes(name)) {
      const value = /^"(?:[^"\\]|\\.)*"$/s.test(raw) ? raw.slice(1, -1).replace(/\\(.)/gs, '$1') : raw
      if (value !== '') found.push(`${value} @${name}`)
    }
  }
  return { q: fromContentType ? 1000 : q ?? 1000, found }
}

function model (contentType: string | undefined, accept: string | undefined, cfg: MediaTypeConfig): string[] {
  const entries = [
    ...(contentType === undefined ? [] : [modelEntry(splitOutsideQuotes(contentType, ',')[0], cfg, true)]),
    ...(accept === undefined ? [] : splitOutsideQuotes(accept, ',').map(entry => modelEntry(entry, cfg, false)))
  ].filter(entry => entry.q > 0 && entry.found.length > 0)
  entries.sort((a, b) => b.q - a.q) // stable
  return entries.filter(entry => entry.q === entries[0].q).flatMap(entry => entry.found)
}

t.test('random headers never throw and agree with the reference model', async t => {
  const type = fc.constantFrom('application/json', 'text/plain', '*/*', ' application/xml ', '', 'application/vnd.acme.v2+json',
    'Application/VND.ACME.V2.1+Json', 'application/vnd.acme.v+json', 'application/vnd.other.v3+json', 'a"b,c"d')
  const name = fc.constantFrom('v', 'V', 'api', 'q', 'Q', 'x', ' v ', '"v"', '', 'v;')
  const value = fc.constantFrom('1.0', '2.0', '1', 'abc', '', '0', '0.5', '0.50', '1.', '1.5', '0.0001', ' 2.0 ', '"2.0"',
    '"2.\\"0"', '"', '"open', '"a,b;c"', '"1"x', '\\', '0.000', '1.000')
  const param = fc.oneof(
    fc.tuple(name, fc.constantFrom('=', ' = ', '=\t'), value).map(([n, eq, v]) => n + eq + v),
    name
  )
  const entry = fc.tuple(type, fc.array(fc.tuple(fc.constantFrom(';', '; ', ' ;', ';;'), param), { maxLength: 4 }))
    .map(([t, ps]) => t + ps.map(([sep, p]) => sep + p).join(''))
  const list = fc.array(entry, { maxLength: 5 }).chain(es => fc.constantFrom(', ', ',', ' ,, ').map(sep => es.join(sep)))
  const soup = fc.string({ unit: fc.constantFrom(' ', '\t', '"', '\\', ',', ';', '=', 'q', 'v', 'V', '0', '1', '.', '2', 'a', '/', '+', '\u00e9'), maxLength: 40 })
  const header = fc.option(fc.oneof({ weight: 4, arbitrary: list }, { weight: 1, arbitrary: soup }), { nil: undefined })
  const configs = [V, BOTH, ONLY_TEMPLATE, config(['v', 'q1'])]

  const seen = new Set<string>()
  fc.assert(fc.property(header, header, fc.constantFrom(...configs), (contentType, accept, cfg) => {
    const actual = read(accept, contentType, cfg)
    seen.add(kinds[actual.kind])
    const expected = new Recording()
    for (const found of model(contentType, accept, cfg)) {
      const at = found.lastIndexOf(' @')
      if (!expected.add(found.slice(0, at), found.slice(at + 2), MEDIA_TYPE)) break
    }
    return JSON.stringify(actual.added) === JSON.stringify(expected.added) && actual.kind === expected.kind && actual.text === expected.text && actual.source === expected.source &&
      actual.result === (expected.kind !== AMBIGUOUS) && actual.from === (actual.count > 0 ? MEDIA_TYPE : 0)
  }), { numRuns: 3000 })
  t.same([...seen].sort(), ['ambiguous', 'invalid', 'none', 'one'], 'the headers reach every outcome')
})

t.test('work grows linearly with the header, counted in character reads', async t => {
  const charCodeAt = String.prototype.charCodeAt
  function counted (accept: string, contentType?: string): { reads: number, adds: number } {
    let reads = 0
    String.prototype.charCodeAt = function (this: string, i: number) { reads++; return charCodeAt.call(this, i) } // eslint-disable-line no-extend-native
    try {
      const adds = read(accept, contentType, BOTH).added.length
      return { reads, adds }
    } finally {
      String.prototype.charCodeAt = charCodeAt // eslint-disable-line no-extend-native
    }
  }
  const size = 64 * 1024
  const fill = (unit: (i: number) => string, bytes: number): string => {
    let text = ''
    for (let i = 0; text.length < bytes; i++) text += unit(i)
    return text
  }
  const shapes: Array<[string, (i: number) => string]> = [
    ['many entries of one version', () => 'application/json;q=0.5;v=1.0, '],
    ['rising q, each entry outranking the last', i => `a/b;v=1;q=0.${String(i % 1000).padStart(3, '0')}, `],
    ['falling q', i => `a/b;q=0.${String(999 - (i % 1000)).padStart(3, '0')};v=1,`],
    ['one entry of many parameters', () => ';x=y'],
    ['many versions in one entry', () => ';v=1;api=1.0'],
    ['empty parameters and entries', () => ';;,,'],
    ['quoted values with escapes', () => ';v="\\"\\\\"'],
    ['quotes and commas', () => '",;='],
    ['whitespace', () => ' \t; \t= \t, '],
    ['vendor types', () => 'application/vnd.acme.v2+json,'],
    ['unterminated quote', i => i === 0 ? 'a/b;v="' : 'x,;=']
  ]
  for (const [what, unit] of shapes) {
    const small = counted(fill(unit, size / 4))
    const large = counted(fill(unit, size))
    // Every character is read a few times at most (scan, trim, compare), and a version costs O(its length).
    t.ok(large.reads <= 8 * size, `${what}: ${large.reads} reads for ${size} characters`)
    t.ok(large.reads <= 4.5 * Math.max(small.reads, 1), `${what}: 4x the size, ${(large.reads / Math.max(small.reads, 1)).toFixed(2)}x the reads`)
    t.ok(large.adds <= size / 3, `${what}: ${large.adds} versions given to the outcome`)
  }
  const contentType = 'application/json' + ';x=y'.repeat(size / 4) + ';v=2'
  t.ok(counted('a/b;v=2', contentType).reads <= 8 * (size + 7), 'a long Content-Type')
})
