import t from 'tap'
import type { IncomingMessage } from 'node:http'
import { ApiVersion } from '../../lib/index.js'
import { resolveSelector, selectAtStartup, selectOverTime, selectPerRequest, type SelectorContext, type SelectorFunction } from '../../lib/lifecycle/selectors.js'

const v = (text: string) => ApiVersion.parse(text)
const list = (...texts: string[]) => Object.freeze(texts.map(v))
const request = { id: 'req-1' } as unknown as IncomingMessage
const DEFAULT = v('42.0')

// ASP.NET's MaxSelectVersionData and MinSelectVersionData (reference §5.2; the anchor's test default is 42.0).
const dataSets: Array<[supported: string[], deprecated: string[], current: string, lowest: string]> = [
  [['1.0', '2.0', '3.0-Alpha'], [], '2.0', '1.0'],
  [['1.0', '2.0'], ['3.0'], '3.0', '1.0'],
  [['2.0', '3.1-Beta'], ['1.0', '3.0'], '3.0', '1.0'],
  [['0.9-RC', '1.0', '2.0'], ['3.0'], '3.0', '1.0'],
  [[], [], '42.0', '42.0'],
  [['1.1-RC1'], [], '42.0', '42.0'],
  [['2.5'], [], '2.5', '2.5'],
  [['0.8-Beta', '0.9-RC'], [], '42.0', '42.0']
]

t.test('resolveSelector: the named selectors, a function, or an error naming the option', async t => {
  t.equal(resolveSelector(undefined), 'default')
  for (const name of ['default', 'current', 'lowest']) t.equal(resolveSelector(name), name)
  const fn: SelectorFunction = () => '1.0'
  t.equal(resolveSelector(fn), fn)
  const bad: Array<[unknown, string]> = [
    ['highest', '"highest"'], ['Current', '"Current"'], ['', '""'], ['x'.repeat(80), `"${'x'.repeat(64)}…"`],
    [null, 'null'], [1, 'number'], [true, 'boolean'], [v('1.0'), 'object'], [{ select: fn }, 'object']
  ]
  t.throws(() => resolveSelector(async () => '1.0'), { code: 'FST_API_VERSIONING_INVALID_OPTION', message: /apiVersionSelector must return a version synchronously, but it is an async function; choose the version without await/ })
  for (const [value, shown] of bad) {
    t.throws(() => resolveSelector(value), new TypeError(
      `fastify-api-versioning: apiVersionSelector must be 'default', 'current', 'lowest' or a function ({ request, supported, deprecated }) => version (got ${shown})`
    ), shown)
  }
})

t.test("selectAtStartup: ASP.NET's data sets", async t => {
  for (const [supported, deprecated, current, lowest] of dataSets) {
    const name = `{${supported.join(', ')}} + deprecated {${deprecated.join(', ')}}`
    t.equal(String(selectAtStartup('current', list(...supported), list(...deprecated), DEFAULT)), current, `current of ${name}`)
    t.equal(String(selectAtStartup('lowest', list(...supported), list(...deprecated), DEFAULT)), lowest, `lowest of ${name}`)
    t.equal(selectAtStartup('default', list(...supported), list(...deprecated), DEFAULT), DEFAULT, `default of ${name}`)
  }
})

t.test('selectAtStartup: more cases', async t => {
  const pick = (selector: 'current' | 'lowest', supported: string[], deprecated: string[] = []) =>
    selectAtStartup(selector, list(...supported), list(...deprecated), DEFAULT)
  t.equal(String(pick('current', ['1', '1.5', '2013-08-06'])), '2013-08-06', 'a group version ranks above any number alone')
  t.equal(String(pick('lowest', ['2013-08-06', '2013-08-06.1', '2014-01-01'])), '2013-08-06')
  t.equal(String(pick('current', ['2.0-beta', '2.0-RC'], ['1.0'])), '1.0', 'a deprecated version beats pre-releases')
  t.equal(String(pick('current', ['1'], ['1.0'])), '1', 'the same version twice: the first spelling met')
  t.equal(String(pick('current', ['10.0', '9.0'])), '10.0', 'numeric, not text, order')
  t.equal(String(pick('lowest', ['10.0', '9.0'])), '9.0')
  const supported = list('1.0', '2.0')
  t.equal(selectAtStartup('lowest', supported, [], DEFAULT), supported[0], 'the declared instance itself')
  t.equal(selectAtStartup(() => '1.0', supported, [], DEFAULT), null, 'a function is left to the request')
})

t.test('selectPerRequest: the result must be a version implemented there', async t => {
  const supported = list('1.0', '2.0', '3.0-beta')
  const deprecated = list('0.9')
  const errors: Error[] = []
  const run = (fn: SelectorFunction) => selectPerRequest(fn, request, supported, deprecated, e => errors.push(e))
  t.equal(run(() => '2.0'), supported[1])
  t.equal(run(() => '2'), supported[1], "'2' selects the declared 2.0")
  t.equal(run(() => v('2')), supported[1])
  t.equal(run(() => '3.0-BETA'), supported[2])
  t.equal(run(() => '0.9'), deprecated[0], 'a deprecated version may be selected')
  t.equal(run(() => '4.0'), null, 'a version not implemented here is Unsupported')
  t.equal(run(() => '0.9-rc'), null)
  t.same(errors, [], 'none of that is a selector error')

  let seen: SelectorContext | undefined
  run(context => { seen = context; return '1.0' })
  t.equal(seen?.request, request)
  t.equal(seen?.supported, supported, 'frozen lists are passed as they are')
  t.equal(seen?.deprecated, deprecated)

  const loose = [v('1.0')]
  selectPerRequest(context => { seen = context; return '1.0' }, request, loose, [])
  t.ok(Object.isFrozen(seen?.supported) && Object.isFrozen(seen?.deprecated), 'the selector cannot change the lists')
  t.not(seen?.supported, loose)
  t.notOk(Object.isFrozen(loose), "the caller's array is left alone")
})

t.test('selectPerRequest: a failing selector never throws; it is reported', async t => {
  const supported = list('1.0')
  const rows: Array<[fn: () => unknown, message: RegExp]> = [
    [() => { throw new RangeError('boom') }, /^boom$/],
    // Selectors from plain JS may throw anything: these are what the test is about.
    // eslint-disable-next-line no-throw-literal
    [() => { throw 'text' }, /^fastify-api-versioning: apiVersionSelector threw "text"$/],
    // eslint-disable-next-line no-throw-literal
    [() => { throw null }, /^fastify-api-versioning: apiVersionSelector threw null$/],
    // eslint-disable-next-line no-throw-literal
    [() => { throw { code: 1 } }, /^fastify-api-versioning: apiVersionSelector threw an object$/],
    [() => undefined, /^fastify-api-versioning: apiVersionSelector returned undefined, which is not an API version$/],
    [() => null, /returned null, which is not an API version$/],
    [() => 1, /returned 1, which is not an API version$/],
    [() => 'v1', /returned "v1", which is not an API version$/],
    [() => 'x'.repeat(100), new RegExp(`returned "${'x'.repeat(64)}…", which is not an API version$`)],
    [() => ({}), /returned an object, which is not an API version$/],
    [() => ({ key: '|1.0|', toString: () => 'nope' }), /returned an object, which is not an API version$/],
    [() => () => '1.0', /returned a function, which is not an API version$/],
    [() => Promise.resolve('1.0'), /^fastify-api-versioning: apiVersionSelector returned a promise; it must return a version synchronously$/],
    [async () => { throw new Error('async boom') }, /returned a promise/],
    [() => ({ key: 'x', toString () { throw new Error('bad toString') } }), /^bad toString$/]
  ]
  for (const [fn, message] of rows) {
    const errors: Error[] = []
    t.equal(selectPerRequest(fn as SelectorFunction, request, supported, [], e => errors.push(e)), null, String(message))
    t.equal(errors.length, 1)
    t.ok(errors[0] instanceof Error)
    t.match(errors[0].message, message)
    t.doesNotThrow(() => selectPerRequest(fn as SelectorFunction, request, supported, []), 'no listener needed')
  }
  const thrown = new RangeError('boom')
  const errors: Error[] = []
  selectPerRequest(() => { throw thrown }, request, supported, [], e => errors.push(e))
  t.equal(errors[0], thrown, 'an Error is passed on as it is')
  // A rejected promise left unhandled would end the process; give the event loop a turn to prove it was handled.
  await new Promise(resolve => setImmediate(resolve))
})

t.test('selectPerRequest: an ApiVersion from another copy of the library still counts', async t => {
  // What the CommonJS build's ApiVersion looks like to the ESM build: same shape, other class.
  const foreign = { key: '|1.0|', toString: () => '1.0' }
  const supported = list('1.0')
  t.equal(selectPerRequest(() => foreign as unknown as ApiVersion, request, supported, []), supported[0])
})

t.test('selectOverTime: enforced sunsets change what is implemented, and so the pick', async t => {
  const T1 = Date.UTC(2027, 0, 1)
  const T2 = Date.UTC(2028, 0, 1)
  const supported = list('1.0', '2.0', '3.0-beta')
  const deprecated = list('0.9')
  const retiring: Record<string, number> = { 0.9: T1, '1.0': T2 }
  const retiresAt = (version: ApiVersion): number | null => retiring[String(version)] ?? null
  const steps = (selector: Parameters<typeof selectOverTime>[0], s = supported, d = deprecated, r = retiresAt) =>
    selectOverTime(selector, s, d, DEFAULT, r)?.map(step => [step.from, String(step.version)])

  t.same(steps('lowest'), [[-Infinity, '0.9'], [T1, '1.0'], [T2, '2.0']])
  t.same(steps('current'), [[-Infinity, '2.0']], 'retiring lower versions does not move the highest')
  t.same(steps('default'), [[-Infinity, '42.0']])
  t.same(steps('current', supported, deprecated, () => null), [[-Infinity, '2.0']], 'no enforced sunset, one step')
  t.same(steps('current', list('1.0', '2.0'), [], version => String(version) === '2.0' ? T1 : null), [[-Infinity, '2.0'], [T1, '1.0']])
  t.same(steps('current', list('1.0'), [], () => T1), [[-Infinity, '1.0'], [T1, '42.0']], 'all retired: the default')
  t.same(steps('lowest', list('1.0', '2.0'), [], () => T2), [[-Infinity, '1.0'], [T2, '42.0']], 'one step for one instant')
  t.same(steps('lowest', list('1'), list('1.0'), version => version.minor === null ? T1 : null), [[-Infinity, '1']],
    'the same version in another spelling is no new step')
  t.equal(selectOverTime(() => '1.0', supported, deprecated, DEFAULT, retiresAt), null, 'a function selector runs per request')
  const result = selectOverTime('lowest', supported, deprecated, DEFAULT, retiresAt)!
  t.ok(Object.isFrozen(result) && Object.isFrozen(result[0]), 'immutable')
})
