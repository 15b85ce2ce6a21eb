import t from 'tap'
import fc from 'fast-check'
import { ApiVersion } from '../../lib/index.js'

type Parts = [group: string | null, major: number | null, minor: number | null, status: string | null]

// The reference's input → outcome table (aspnet-api-versioning.md §1.3), plus our own edge cases.
const valid: Array<[string, Parts, string?]> = [
  ['2013-08-06', ['2013-08-06', null, null, null]],
  ['2013-08-06-Alpha', ['2013-08-06', null, null, 'Alpha']],
  ['1', [null, 1, null, null]],
  ['1.1', [null, 1, 1, null]],
  ['1-Alpha', [null, 1, null, 'Alpha']],
  ['1.1-Alpha', [null, 1, 1, 'Alpha']],
  ['2013-08-06.1', ['2013-08-06', 1, null, null]],
  ['2013-08-06.1.1', ['2013-08-06', 1, 1, null]],
  ['2013-08-06.1-Alpha', ['2013-08-06', 1, null, 'Alpha']],
  ['2013-08-06.1.1-Alpha', ['2013-08-06', 1, 1, 'Alpha']],
  ['1.0', [null, 1, 0, null]],
  ['0', [null, 0, null, null]],
  ['0.9', [null, 0, 9, null]],
  ['01', [null, 1, null, null], '1'],
  ['1.01', [null, 1, 1, null], '1.1'],
  ['1.0-beta', [null, 1, 0, 'beta']],
  ['1.0-Beta.1', [null, 1, 0, 'Beta.1']],
  ['2147483647', [null, 2147483647, null, null]],
  ['20130806', [null, 20130806, null, null]],
  ['2024-01-01.1.0-rc', ['2024-01-01', 1, 0, 'rc']],
  ['2020-02-29', ['2020-02-29', null, null, null]],
  ['2000-02-29', ['2000-02-29', null, null, null]],
  ['2023-12-31', ['2023-12-31', null, null, null]],
  ['1.0-β', [null, 1, 0, 'β']],
  ['1.0-a٣', [null, 1, 0, 'a٣']]
]

const invalid = [
  '', 'Alpha1', '1-', '1.1-Alpha-1', '2013-02-29.1.0', '1.', '.1', '1.0.0', 'v1', 'V1', 'abc', '1.0-beta.', '1.0-rc-1',
  '1.0-1beta', '1.0-', '-1', '+1', ' 1', '1 ', '1.0 ', '2147483648', '99999999999999999999', '2020-02-30', '2019-02-29',
  '1900-02-29', '0000-01-01', '2023-13-01', '2023-00-10', '2023-04-31', '2023-01-00', '2013-8-6', '2013-08-06.',
  '2013-08-06-', '2013-08-06x1', '2013-08-06.-Alpha', '2013-08-06-1', '1.0,2.0', '1.0, 2.0', '1.0-alpha_1', '1.0-a\u{1D400}',
  '1.-a', '1.0-é.', '１', '1.x', '1e3', '0x10', '%31', 'x'.repeat(10_000), '1.' + '1'.repeat(10_000), '1-a' + '-'.repeat(10_000)
]

t.test('parses the grammar of the reference', async t => {
  for (const [text, [group, major, minor, status], shown] of valid) {
    const v = ApiVersion.parse(text)
    t.same([v.groupVersion, v.major, v.minor, v.status], [group, major, minor, status], text)
    t.equal(v.toString(), shown ?? text, `${text} keeps its form`)
    t.equal(JSON.stringify(v), JSON.stringify(shown ?? text))
    t.ok(Object.isFrozen(v), 'immutable')
    t.ok(ApiVersion.tryParse(text)?.equals(v))
  }
})

t.test('rejects malformed versions with a clear error', async t => {
  for (const text of invalid) {
    t.equal(ApiVersion.tryParse(text), null, JSON.stringify(text.slice(0, 20)))
    t.throws(() => ApiVersion.parse(text), /The API version .* is invalid/)
  }
  t.throws(() => ApiVersion.parse('2013-02-30'), /its group "2013-02-30" is not a calendar date/)
  t.throws(() => ApiVersion.parse('1.0-rc-1'), /its status must start with a letter/)
  t.ok(ApiVersion.parse('1.' + '0'.repeat(10_000)).equals(ApiVersion.parse('1.0')), 'leading zeros are allowed, however many')
  t.throws(() => ApiVersion.parse('1.'), /expected \[yyyy-MM-dd\]\[\.major\[\.minor\]\]\[-status\]/)
  t.throws(() => ApiVersion.parse('9'.repeat(100)), /"9{64}…"/, 'long texts are shortened in the message')
  t.equal(ApiVersion.tryParse(42 as unknown as string), null)
  t.throws(() => ApiVersion.parse(undefined as unknown as string), /"undefined" is invalid/)
})

t.test('equality: 1 equals 1.0, status case is ignored', async t => {
  const eq = [['1', '1.0'], ['1-Alpha', '1.0-Alpha'], ['2013-08-06.1', '2013-08-06.1.0'], ['1.0-BETA', '1.0-beta'], ['01.00', '1']]
  for (const [a, b] of eq) {
    t.ok(ApiVersion.parse(a).equals(ApiVersion.parse(b)), `${a} = ${b}`)
    t.equal(ApiVersion.parse(a).compareTo(ApiVersion.parse(b)), 0)
  }
  const ne = [['1', '1.1'], ['2013-08-06', '2013-08-06.0'], ['1.0', '1.0-beta'], ['2013-08-06.1', '1'], ['1.0-a', '1.0-b']]
  for (const [a, b] of ne) t.notOk(ApiVersion.parse(a).equals(ApiVersion.parse(b)), `${a} != ${b}`)
  t.notOk(ApiVersion.parse('1').equals(null))
  t.notOk(ApiVersion.parse('1').equals(undefined))
})

t.test('equals and compareTo take a version text as the version it denotes, and refuse what is no version', async t => {
  const v = ApiVersion.parse('2.0')
  t.ok(v.equals('2'), "equals('2')")
  t.ok(v.equals('2.0'))
  t.notOk(v.equals('2.1'))
  t.equal(v.compareTo('1'), 1)
  t.equal(v.compareTo('2'), 0)
  t.equal(v.compareTo('10.0'), -1)
  t.equal(v.compareTo(null), 1)
  t.throws(() => v.equals('2.x'), { code: 'FST_API_VERSIONING_INVALID_VERSION', message: /The API version "2\.x" is invalid/ })
  t.throws(() => v.compareTo(''), { code: 'FST_API_VERSIONING_INVALID_VERSION' })
  // What plain JS may pass: never a silent wrong answer.
  const bad: Array<[unknown, string]> = [
    [2, 'the number 2'], [2n, 'the bigint 2'], [true, 'the boolean true'], [{ major: 2 }, 'an object that is no ApiVersion'],
    [['2.0'], 'an array'], [() => '2.0', 'a function'], [{ key: 7 }, 'an object that is no ApiVersion']
  ]
  for (const [value, shown] of bad) {
    for (const method of ['equals', 'compareTo'] as const) {
      t.throws(() => v[method](value as never), { name: 'TypeError', code: 'FST_API_VERSIONING_INVALID_VERSION', message: `ApiVersion#${method} takes an ApiVersion, a version text such as '1.0', null or undefined (got ${shown})` }, `${method}(${String(value)})`)
    }
  }
  // A version of a copy of the package older than the brand reads as its text.
  const older = { key: '|2.0|', toString: () => '2' }
  t.ok(v.equals(older as never))
  t.equal(v.compareTo(older as never), 0)
})

t.test('ordering as the reference', async t => {
  const ascending = [
    '0.9', '1.0-Alpha', '1.0-Beta', '1.0', '1.1-Beta', '1.1', '2.0', '5.0',
    '2013-08-06-RC', '2013-08-06', '2013-08-06.1', '2013-08-06.1.1', '2013-08-06.2', '2013-08-07'
  ]
  for (let i = 0; i < ascending.length; i++) {
    for (let j = 0; j < ascending.length; j++) {
      const c = ApiVersion.parse(ascending[i]).compareTo(ApiVersion.parse(ascending[j]))
      t.equal(c, Math.sign(i - j), `${ascending[i]} vs ${ascending[j]}`)
    }
  }
  t.equal(ApiVersion.parse('1.0-alpha.10').compareTo(ApiVersion.parse('1.0-alpha.2')), -1, 'statuses compare as text, not semver')
  t.equal(ApiVersion.parse('1').compareTo(null), 1, 'a version ranks above null')
})

// Generators for the property tests.
const int32 = fc.integer({ min: 0, max: 2147483647 })
const date = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map(d => d.toISOString().slice(0, 10))
const status = fc.tuple(fc.constantFrom('a', 'Z', 'rc', 'beta', 'é', 'Ω'), fc.stringMatching(/^[A-Za-z0-9]{0,4}(\.[A-Za-z0-9]{1,3})?$/))
  .map(([a, b]) => a + b)
const versionText = fc.oneof(
  fc.tuple(int32, fc.option(int32), fc.option(status)).map(([M, m, s]) => `${M}${m === null ? '' : '.' + m}${s === null ? '' : '-' + s}`),
  fc.tuple(date, fc.option(fc.tuple(int32, fc.option(int32))), fc.option(status)).map(([g, n, s]) =>
    g + (n === null ? '' : `.${n[0]}${n[1] === null ? '' : '.' + n[1]}`) + (s === null ? '' : '-' + s))
)

t.test('properties: round trip, total order, never throws', async t => {
  fc.assert(fc.property(versionText, text => {
    const v = ApiVersion.parse(text)
    return ApiVersion.parse(String(v)).equals(v) && String(ApiVersion.parse(String(v))) === String(v)
  }))
  fc.assert(fc.property(versionText, versionText, versionText, (a, b, c) => {
    const [x, y, z] = [a, b, c].map(s => ApiVersion.parse(s))
    const xy = x.compareTo(y)
    if (Math.sign(xy) !== -Math.sign(y.compareTo(x))) return false
    if ((xy === 0) !== x.equals(y)) return false
    if (xy <= 0 && y.compareTo(z) <= 0 && x.compareTo(z) > 0) return false
    return true
  }))
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), text => {
    const v = ApiVersion.tryParse(text)
    return v === null || ApiVersion.parse(String(v)).equals(v)
  }))
  // Malformed: a valid text broken in one of the ways clients get it wrong.
  const broken = fc.oneof(
    fc.tuple(versionText, fc.constantFrom('.', '-', ' ', '..', '-.', ',')).map(([text, bad]) => text + bad),
    fc.tuple(fc.constantFrom('-', '+', ' ', '.', 'v', '\u0000'), versionText).map(([bad, text]) => bad + text),
    versionText.filter(text => text.includes('.') && !text.includes('-')).map(text => text.replace('.', '..'))
  )
  fc.assert(fc.property(broken, text => ApiVersion.tryParse(text) === null))
})

// Malformed texts, by kind; each generator makes only texts that the grammar rejects.
const year = fc.integer({ min: 1, max: 9999 }).map(y => String(y).padStart(4, '0'))
const two = (min: number, max: number) => fc.integer({ min, max }).map(n => String(n).padStart(2, '0'))
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const minorPart = fc.option(fc.tuple(int32, fc.option(int32)).map(([M, m]) => `.${M}${m === null ? '' : '.' + m}`), { nil: '' })
const malformed = {
  'incomplete components': fc.oneof(
    int32.map(M => `${M}.`),
    int32.map(m => `.${m}`),
    fc.tuple(int32, int32).map(([M, m]) => `${M}..${m}`),
    fc.tuple(int32, int32, int32).map(([M, m, p]) => `${M}.${m}.${p}`),
    date.map(d => `${d}.`),
    date.map(d => `${d}-`),
    fc.tuple(date, int32).map(([d, M]) => `${d}.${M}.`),
    fc.tuple(year, two(1, 12)).map(([y, m]) => `${y}-${m}`),
    versionText.map(v => `${v}-`)
  ),
  'bad dates': fc.oneof(
    fc.tuple(year, two(13, 99), two(1, 28)).map(([y, m, d]) => `${y}-${m}-${d}`),
    fc.tuple(year, two(1, 12)).map(([y, m]) => `${y}-${m}-00`),
    fc.tuple(year, two(0, 0), two(1, 28)).map(([y, m, d]) => `${y}-${m}-${d}`),
    fc.tuple(year, two(1, 12), two(32, 99)).map(([y, m, d]) => `${y}-${m}-${d}`),
    fc.tuple(year, fc.constantFrom('04', '06', '09', '11')).map(([y, m]) => `${y}-${m}-31`),
    year.filter(y => !isLeap(Number(y))).map(y => `${y}-02-29`),
    year.map(y => `${y}-02-30`),
    date.map(d => d.slice(0, 5) + d.slice(6)), // a one-digit month
    fc.tuple(date, minorPart).map(([d, rest]) => `0000${d.slice(4)}${rest}`)
  ),
  'bad statuses': fc.tuple(fc.oneof(int32.map(String), date), fc.oneof(
    fc.tuple(fc.integer({ min: 0, max: 9 }), fc.stringMatching(/^[a-z0-9]{0,4}$/)).map(([d, r]) => `${d}${r}`),
    fc.stringMatching(/^[a-z][a-z0-9]{0,3}[-_ ~!][a-z0-9]{1,3}$/),
    fc.stringMatching(/^[a-z][a-z0-9]{0,3}$/).map(s => s + '.'),
    fc.constantFrom('', '.a', '-a', 'β-')
  )).map(([v, s]) => `${v}-${s}`),
  signs: fc.oneof(
    fc.tuple(fc.constantFrom('+', '-'), versionText).map(([sign, v]) => sign + v),
    fc.tuple(int32, fc.constantFrom('+', '-'), int32).map(([M, sign, m]) => `${M}.${sign}${m}`),
    fc.tuple(date, fc.constantFrom('+', '-'), int32).map(([d, sign, M]) => `${d}.${sign}${M}`)
  ),
  spaces: fc.tuple(versionText, fc.nat(), fc.constantFrom(' ', '\t', '\u00a0', '\n', '\u3000')).map(([v, at, space]) => {
    const i = at % (v.length + 1)
    return v.slice(0, i) + space + v.slice(i)
  }),
  'unicode digits and look-alikes': fc.tuple(versionText, fc.constantFrom('１', '٣', '߁', '𝟙', 'Ⅰ', '¹')).map(([v, digit]) => digit + v.slice(1)),
  '10 kB': fc.oneof(
    fc.constantFrom('1', '9').map(d => d.repeat(10_000)),
    versionText.map(v => v + '.' + '0'.repeat(10_000) + '.'),
    versionText.map(v => v + '-a' + '.'.repeat(10_000)),
    fc.tuple(versionText, fc.string({ unit: 'binary', minLength: 1, maxLength: 4 })).map(([v, junk]) => v + ' ' + junk.repeat(10_000).slice(0, 10_000))
  )
}

t.test('property: every generated malformed text is rejected', async t => {
  for (const [kind, texts] of Object.entries(malformed)) {
    const rejected = fc.check(fc.property(texts, text => ApiVersion.tryParse(text) === null), { numRuns: 300 })
    t.notOk(rejected.failed, `${kind}: ${rejected.counterexample === null ? '' : JSON.stringify(String(rejected.counterexample[0]).slice(0, 60))}`)
  }
})

t.test('instanceof ApiVersion holds for an ApiVersion of either build, by its brand', async t => {
  t.ok(ApiVersion.parse('1.0') instanceof ApiVersion)
  // What an ApiVersion of the other build (ESM or CommonJS) carries: the registry brand, on another prototype.
  const other = Object.freeze(Object.create({ [Symbol.for('fastify-api-versioning.ApiVersion')]: true }))
  t.ok(other instanceof ApiVersion)
  for (const value of [null, undefined, '1.0', 1, {}, { key: '|1.0|' }, Object.create(null), () => {}]) t.notOk(value instanceof ApiVersion, typeof value)
})
