import t from 'tap'
import fc from 'fast-check'
import { ApiVersion } from '../../lib/index.js'
import { resolvePolicies, type VersionPolicy } from '../../lib/lifecycle/policies.js'
import { appendLink, quote } from '../../lib/util/policy-values.js'

const URL_1 = 'https://example.com/api/deprecations#v1'
const URL_2 = 'https://example.com/api/sunset#v1'

function policy (value: unknown, version = '1.0'): VersionPolicy {
  const found = resolvePolicies(value).get(ApiVersion.parse(version).key)
  if (found === undefined) throw new Error('no policy for ' + version)
  return found
}

function headers (p: VersionPolicy) {
  return { deprecation: p.deprecation, sunset: p.sunset, links: p.links, sunsetAt: p.sunsetAt, enforce: p.enforce }
}

t.test("the issue's example, byte for byte", async t => {
  const policies = resolvePolicies({
    '1.0': {
      deprecation: { date: '2026-01-01T00:00:00Z', link: URL_1 },
      sunset: { date: '2027-01-01', link: { href: URL_2, title: 'Retiring 1.0', type: 'text/html' }, enforce: true }
    }
  })
  t.same([...policies.keys()], ['|1.0|'], 'keyed by ApiVersion.key')
  const p = policies.get('|1.0|')!
  t.same(headers(p), {
    deprecation: '@1767225600',
    sunset: 'Fri, 01 Jan 2027 00:00:00 GMT',
    links: `<${URL_1}>; rel="deprecation", <${URL_2}>; rel="sunset"; title="Retiring 1.0"; type="text/html"`,
    sunsetAt: Date.UTC(2027, 0, 1),
    enforce: true
  })
  t.ok(p.version.equals(ApiVersion.parse('1')))
  t.same(p.deprecationPolicy, {
    date: new Date('2026-01-01T00:00:00Z'),
    link: { rel: 'deprecation', href: URL_1, title: null, type: null, hreflang: null, media: null }
  })
  t.same(p.sunsetPolicy, {
    date: new Date('2027-01-01T00:00:00Z'),
    link: { rel: 'sunset', href: URL_2, title: 'Retiring 1.0', type: 'text/html', hreflang: null, media: null },
    enforce: true
  })
  t.ok(Object.isFrozen(p) && Object.isFrozen(p.deprecationPolicy) && Object.isFrozen(p.sunsetPolicy?.link), 'immutable')
})

t.test('no policies', async t => {
  t.equal(resolvePolicies(undefined).size, 0)
  t.equal(resolvePolicies({}).size, 0)
})

t.test('dates: Date objects and ISO 8601 strings, to the header forms', async t => {
  const rows: Array<[date: Date | string, deprecation: string, sunset: string]> = [
    ['2027-01-01', '@1798761600', 'Fri, 01 Jan 2027 00:00:00 GMT'],
    ['2027-01-01T00:00:00Z', '@1798761600', 'Fri, 01 Jan 2027 00:00:00 GMT'],
    ['2027-01-01t00:00:00z', '@1798761600', 'Fri, 01 Jan 2027 00:00:00 GMT'],
    ['2027-01-01T01:00+01:00', '@1798761600', 'Fri, 01 Jan 2027 00:00:00 GMT'],
    ['2026-12-31T19:30:00-04:30', '@1798761600', 'Fri, 01 Jan 2027 00:00:00 GMT'],
    ['2027-01-01T00:00:00.999Z', '@1798761600', 'Fri, 01 Jan 2027 00:00:00 GMT'],
    ['2027-01-01T00:00:01.5+00:00', '@1798761601', 'Fri, 01 Jan 2027 00:00:01 GMT'],
    ['2023-06-30T23:59:59Z', '@1688169599', 'Fri, 30 Jun 2023 23:59:59 GMT'],
    ['2024-02-29', '@1709164800', 'Thu, 29 Feb 2024 00:00:00 GMT'],
    ['2000-02-29T12:00:00Z', '@951825600', 'Tue, 29 Feb 2000 12:00:00 GMT'],
    ['1970-01-01', '@0', 'Thu, 01 Jan 1970 00:00:00 GMT'],
    ['9999-12-31T23:59:59.999Z', '@253402300799', 'Fri, 31 Dec 9999 23:59:59 GMT'],
    [new Date(Date.UTC(2030, 5, 15, 8, 9, 10)), '@1907741350', 'Sat, 15 Jun 2030 08:09:10 GMT']
  ]
  for (const [date, deprecation, sunset] of rows) {
    const p = policy({ 1: { deprecation: { date }, sunset: { date } } }, '1')
    t.equal(p.deprecation, deprecation, String(date))
    t.equal(p.sunset, sunset, String(date))
    t.equal(p.sunsetAt, p.sunsetPolicy?.date?.getTime())
  }
  const given = new Date(Date.UTC(2027, 0, 1))
  const p = policy({ '1.0': { sunset: { date: given } } })
  given.setUTCFullYear(2099)
  t.equal(p.sunset, 'Fri, 01 Jan 2027 00:00:00 GMT', "a later change to the caller's Date does not leak in")
  t.not(p.sunsetPolicy?.date, given)
})

t.test('a deprecation only, a sunset only, links only', async t => {
  t.same(headers(policy({ '1.0': { deprecation: { date: '2026-01-01' } } })),
    { deprecation: '@1767225600', sunset: null, links: null, sunsetAt: null, enforce: false })
  t.same(headers(policy({ '1.0': { sunset: { date: '2027-01-01' } } })),
    { deprecation: null, sunset: 'Fri, 01 Jan 2027 00:00:00 GMT', links: null, sunsetAt: 1798761600000, enforce: false })
  t.same(headers(policy({ '1.0': { deprecation: { link: URL_1 }, sunset: { link: URL_2, enforce: false } } })),
    { deprecation: null, sunset: null, links: `<${URL_1}>; rel="deprecation", <${URL_2}>; rel="sunset"`, sunsetAt: null, enforce: false },
    'no date, no Deprecation header: there is nothing to send')
})

t.test('a deprecation dated after the sunset is not in effect (as ASP.NET), and is reported', async t => {
  const warnings: string[] = []
  const policies = resolvePolicies({
    '1.0': { deprecation: { date: '2027-01-02', link: URL_1 }, sunset: { date: '2027-01-01', link: URL_2 } },
    '2.0': { deprecation: { date: '2027-01-01', link: URL_1 }, sunset: { date: '2027-01-01' } },
    '3.0': { deprecation: { link: URL_1 }, sunset: { date: '2027-01-01' } }
  }, message => warnings.push(message))
  const late = policies.get('|1.0|')!
  t.equal(late.deprecation, null)
  t.equal(late.links, `<${URL_2}>; rel="sunset"`, 'its link goes too')
  t.equal(late.deprecationPolicy?.date?.toISOString(), '2027-01-02T00:00:00.000Z', 'the declared data stays')
  t.same(warnings, [
    "fastify-api-versioning: policies['1.0'].deprecation.date is after the sunset date, so no Deprecation header or deprecation link is sent"
  ])
  t.equal(policies.get('|2.0|')!.deprecation, '@1798761600', 'on the sunset date itself it is still sent')
  t.equal(policies.get('|3.0|')!.links, `<${URL_1}>; rel="deprecation"`, 'an undated deprecation stays in effect')
  t.doesNotThrow(() => resolvePolicies({ '1.0': { deprecation: { date: '2028-01-01' }, sunset: { date: '2027-01-01' } } }), 'no listener needed')
})

t.test('links: RFC 8288 quoting, attribute order, title* for non-ASCII titles', async t => {
  const rows: Array<[link: unknown, value: string]> = [
    [URL_2, `<${URL_2}>; rel="sunset"`],
    [{ href: URL_2 }, `<${URL_2}>; rel="sunset"`],
    [{ type: 'text/html', title: 'T', media: 'screen', hreflang: 'en', href: URL_2 },
      `<${URL_2}>; rel="sunset"; hreflang="en"; media="screen"; title="T"; type="text/html"`],
    [{ href: URL_2, title: 'Say "bye" to C:\\v1; then, go' }, `<${URL_2}>; rel="sunset"; title="Say \\"bye\\" to C:\\\\v1; then, go"`],
    [{ href: URL_2, title: 'Fin de la 1.0 — adiós' }, `<${URL_2}>; rel="sunset"; title*=UTF-8''Fin%20de%20la%201.0%20%E2%80%94%20adi%C3%B3s`],
    [{ href: URL_2, title: 'é "x" 😀' }, `<${URL_2}>; rel="sunset"; title*=UTF-8''%C3%A9%20%22x%22%20%F0%9F%98%80`],
    [{ href: URL_2, media: 'screen and (min-width: 40em), print' }, `<${URL_2}>; rel="sunset"; media="screen and (min-width: 40em), print"`],
    [{ href: URL_2, hreflang: 'zh-Hant-TW', type: 'application/vnd.api+json' }, `<${URL_2}>; rel="sunset"; hreflang="zh-Hant-TW"; type="application/vnd.api+json"`],
    ['HTTPS://Example.COM', '<https://example.com/>; rel="sunset"'],
    ['https://example.com/a b'.replace(' ', '%20'), '<https://example.com/a%20b>; rel="sunset"'],
    ['https://bücher.example/über?q=ä#ö', '<https://xn--bcher-kva.example/%C3%BCber?q=%C3%A4#%C3%B6>; rel="sunset"'],
    ['https://example.com/<v1>?a="b"#"c"', '<https://example.com/%3Cv1%3E?a=%22b%22#%22c%22>; rel="sunset"'],
    ['http://localhost:8080/retire', '<http://localhost:8080/retire>; rel="sunset"']
  ]
  for (const [link, value] of rows) {
    t.equal(policy({ '1.0': { sunset: { link } } }).links, value, JSON.stringify(link))
  }
  t.equal(policy({ '1.0': { sunset: { link: 'https://bücher.example' } } }).sunsetPolicy?.link?.href, 'https://xn--bcher-kva.example/',
    'documents get the URL the header carries')
})

const NOT_A_DATE = "must be a valid Date or an ISO 8601 date ('2027-01-01') or date-time with an offset ('2027-01-01T00:00:00Z')"

t.test('every bad value is a start-up error naming its path', async t => {
  const date = '2027-01-01'
  const rows: Array<[value: unknown, message: string]> = [
    [null, 'policies must be an object keyed by API version (got null)'],
    [[], 'policies must be an object keyed by API version (got an array)'],
    ['1.0', 'policies must be an object keyed by API version (got "1.0")'],
    [{ v1: {} }, "policies['v1'] is keyed by an invalid API version"],
    [{ "it's": {} }, "policies['it\\'s'] is keyed by an invalid API version"],
    [{ 'a\nb': {} }, "policies['a\\nb'] is keyed by an invalid API version"],
    [{ ['9'.repeat(80)]: {} }, `policies['${'9'.repeat(64)}…'] is keyed by an invalid API version`],
    [{ '1.0': { sunset: { date } }, 1: { sunset: { date } } }, "policies['1.0'] is the same version as policies['1']: give its policy once"],
    [{ '1.0-Beta': {}, '1.0-beta': {} }, "policies['1.0-beta'] is the same version as policies['1.0-Beta']"],
    [{ '1.0': null }, "policies['1.0'] must be an object with deprecation and/or sunset (got null)"],
    [{ '1.0': true }, "policies['1.0'] must be an object with deprecation and/or sunset (got true)"],
    [{ '1.0': {} }, "policies['1.0'] must have a deprecation or a sunset"],
    [{ '1.0': { deprecated: { date } } }, "policies['1.0'].deprecated is not a known setting: expected deprecation, sunset"],
    [{ '1.0': { deprecation: date } }, `policies['1.0'].deprecation must be an object with date and/or link (got "${date}")`],
    [{ '1.0': { deprecation: new Date(date) } }, "policies['1.0'].deprecation must be an object with date and/or link (got a Date)"],
    [{ '1.0': { deprecation: {} } }, "policies['1.0'].deprecation must have a date or a link"],
    [{ '1.0': { deprecation: { date, enforce: true } } }, "policies['1.0'].deprecation.enforce is only for a sunset"],
    [{ '1.0': { deprecation: { date, when: date } } }, "policies['1.0'].deprecation.when is not a known setting: expected date, link"],
    [{ '1.0': { sunset: [] } }, "policies['1.0'].sunset must be an object with date, link and/or enforce (got an array)"],
    [{ '1.0': { sunset: { enforce: true } } }, "policies['1.0'].sunset must have a date or a link"],
    [{ '1.0': { sunset: { date, enforce: 'yes' } } }, 'policies[\'1.0\'].sunset.enforce must be a boolean (got "yes")'],
    [{ '1.0': { sunset: { link: URL_2, enforce: true } } }, "policies['1.0'].sunset.enforce needs a sunset date to enforce from"],
    [{ '1.0': { sunset: { date, Link: URL_2 } } }, "policies['1.0'].sunset.Link is not a known setting: expected date, link, enforce"],
    // dates
    [{ '1.0': { sunset: { date: 'soon' } } }, `policies['1.0'].sunset.date ${NOT_A_DATE} (got "soon")`],
    [{ '1.0': { sunset: { date: new Date('soon') } } }, `policies['1.0'].sunset.date ${NOT_A_DATE} (got an invalid Date)`],
    [{ '1.0': { sunset: { date: 1798761600000 } } }, `policies['1.0'].sunset.date ${NOT_A_DATE} (got 1798761600000)`],
    [{ '1.0': { sunset: { date: null } } }, `policies['1.0'].sunset.date ${NOT_A_DATE} (got null)`],
    [{ '1.0': { deprecation: { date: () => date } } }, `policies['1.0'].deprecation.date ${NOT_A_DATE} (got a function)`],
    ...['2027-01-01T00:00:00', '2027-01-01T00:00', '2027-1-1', '27-01-01', '2027/01/01', '20270101', ' 2027-01-01', '2027-01-01 00:00:00Z',
      'Fri, 01 Jan 2027 00:00:00 GMT', '2027-01-01T00:00:00+0100', '2027-01-01T00Z', '+002027-01-01', '2027-W01', '2027-01-01T00:00:00.Z', '']
      .map((text): [unknown, string] => [{ '1.0': { sunset: { date: text } } }, `policies['1.0'].sunset.date ${NOT_A_DATE} (got ${JSON.stringify(text)})`]),
    ...['2027-02-29', '2023-02-29T00:00:00Z', '1900-02-29', '2027-04-31', '2027-13-01', '2027-00-10', '2027-01-00', '2027-01-32',
      '2027-01-01T24:00:00Z', '2027-01-01T23:60:00Z', '2027-01-01T23:59:60Z', '2027-01-01T00:00:00+24:00', '2027-01-01T00:00:00-05:60']
      .map((text): [unknown, string] => [{ '1.0': { deprecation: { date: text } } }, `policies['1.0'].deprecation.date is not a real date and time (got "${text}")`]),
    [{ '1.0': { sunset: { date: '1969-12-31T23:59:59Z' } } }, 'policies[\'1.0\'].sunset.date must be from 1970 to 9999 (got "1969-12-31T23:59:59Z")'],
    [{ '1.0': { sunset: { date: '1970-01-01T00:00:00+00:01' } } }, "policies['1.0'].sunset.date must be from 1970 to 9999"],
    [{ '1.0': { sunset: { date: '9999-12-31T23:00:00-01:00' } } }, "policies['1.0'].sunset.date must be from 1970 to 9999"],
    [{ '1.0': { sunset: { date: new Date(Date.UTC(10000, 0, 1)) } } }, 'policies[\'1.0\'].sunset.date must be from 1970 to 9999 (got "+010000-01-01T00:00:00.000Z")'],
    // links
    [{ '1.0': { sunset: { link: 42 } } }, "policies['1.0'].sunset.link must be a URL or { href, title?, type?, hreflang?, media? } (got 42)"],
    [{ '1.0': { sunset: { link: [URL_2] } } }, "policies['1.0'].sunset.link must be a URL or { href, title?, type?, hreflang?, media? } (got an array)"],
    [{ '1.0': { sunset: { link: '/sunset' } } }, 'policies[\'1.0\'].sunset.link must be an absolute http(s) URL (got "/sunset")'],
    [{ '1.0': { sunset: { link: 'x'.repeat(100) } } }, `policies['1.0'].sunset.link must be an absolute http(s) URL (got "${'x'.repeat(64)}…")`],
    [{ '1.0': { sunset: { link: 'example.com/sunset' } } }, "policies['1.0'].sunset.link must be an absolute http(s) URL"],
    [{ '1.0': { sunset: { link: 'mailto:api@example.com' } } }, "policies['1.0'].sunset.link must be an absolute http(s) URL"],
    [{ '1.0': { sunset: { link: 'javascript:alert(1)' } } }, "policies['1.0'].sunset.link must be an absolute http(s) URL"],
    [{ '1.0': { sunset: { link: 'https://exa mple.com' } } }, "policies['1.0'].sunset.link must not contain spaces or control characters"],
    [{ '1.0': { sunset: { link: 'https://example.com/\r\nSet-Cookie: a=b' } } }, "policies['1.0'].sunset.link must not contain spaces or control characters"],
    [{ '1.0': { sunset: { link: 'https://exa\tmple.com' } } }, "policies['1.0'].sunset.link must not contain spaces or control characters"],
    [{ '1.0': { sunset: { link: 'https://example.com/\u0000' } } }, "policies['1.0'].sunset.link must not contain spaces or control characters"],
    [{ '1.0': { sunset: { link: 'https://example.com/\u0085' } } }, "policies['1.0'].sunset.link must not contain spaces or control characters"],
    [{ '1.0': { sunset: { link: 'https://exa<mple.com' } } }, "policies['1.0'].sunset.link must be an absolute http(s) URL"],
    [{ '1.0': { sunset: { link: {} } } }, "policies['1.0'].sunset.link.href is required"],
    [{ '1.0': { sunset: { link: { href: 7 } } } }, "policies['1.0'].sunset.link.href must be an absolute http(s) URL (got 7)"],
    [{ '1.0': { sunset: { link: { href: URL_2, rel: 'alternate' } } } }, "policies['1.0'].sunset.link.rel is not a link attribute: expected href, title, type, hreflang or media"],
    [{ '1.0': { deprecation: { link: { href: URL_1, title: 1 } } } }, "policies['1.0'].deprecation.link.title must be a non-empty string (got 1)"],
    [{ '1.0': { deprecation: { link: { href: URL_1, title: '' } } } }, 'policies[\'1.0\'].deprecation.link.title must be a non-empty string (got "")'],
    [{ '1.0': { deprecation: { link: { href: URL_1, title: 'a\r\nLink: <x>' } } } }, 'policies[\'1.0\'].deprecation.link.title must not contain control characters such as CR or LF (got "a\\r\\nLink: <x>")'],
    [{ '1.0': { deprecation: { link: { href: URL_1, title: 'tab\there' } } } }, "policies['1.0'].deprecation.link.title must not contain control characters"],
    [{ '1.0': { deprecation: { link: { href: URL_1, title: 'del\u007f' } } } }, "policies['1.0'].deprecation.link.title must not contain control characters"],
    [{ '1.0': { deprecation: { link: { href: URL_1, title: 'half \ud83d' } } } }, "policies['1.0'].deprecation.link.title must be well-formed Unicode"],
    [{ '1.0': { deprecation: { link: { href: URL_1, type: 'html' } } } }, 'policies[\'1.0\'].deprecation.link.type must be a media type such as \'text/html\' (got "html")'],
    [{ '1.0': { deprecation: { link: { href: URL_1, type: 'text/html; charset=utf-8' } } } }, "policies['1.0'].deprecation.link.type must be a media type such as 'text/html'"],
    [{ '1.0': { deprecation: { link: { href: URL_1, type: 'text/"html"' } } } }, "policies['1.0'].deprecation.link.type must be a media type"],
    [{ '1.0': { deprecation: { link: { href: URL_1, type: ['text/html'] } } } }, "policies['1.0'].deprecation.link.type must be a non-empty string (got an array)"],
    [{ '1.0': { deprecation: { link: { href: URL_1, hreflang: 'english language' } } } }, "policies['1.0'].deprecation.link.hreflang must be a language tag such as 'en' or 'en-US'"],
    [{ '1.0': { deprecation: { link: { href: URL_1, hreflang: 'en_US' } } } }, "policies['1.0'].deprecation.link.hreflang must be a language tag"],
    [{ '1.0': { deprecation: { link: { href: URL_1, hreflang: 'en\n' } } } }, "policies['1.0'].deprecation.link.hreflang must not contain control characters"],
    [{ '1.0': { deprecation: { link: { href: URL_1, media: 'écran' } } } }, 'policies[\'1.0\'].deprecation.link.media must be printable ASCII (got "écran")'],
    [{ '1.0': { deprecation: { link: { href: URL_1, media: { screen: true } } } } }, "policies['1.0'].deprecation.link.media must be a non-empty string (got an object)"]
  ]
  for (const [value, message] of rows) {
    const prefix = 'fastify-api-versioning: ' + message
    t.throws(() => resolvePolicies(value), { name: 'TypeError', message: new RegExp('^' + prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }, message)
  }
})

t.test('appendLink adds to what the route set', async t => {
  const ours = '<https://example.com/s>; rel="sunset"'
  const rows: Array<[existing: string | string[] | number | undefined, value: string]> = [
    [undefined, ours],
    ['', ours],
    ['  ', ours],
    ['<https://example.com/p2>; rel="next"', '<https://example.com/p2>; rel="next", ' + ours],
    [['<a:1>; rel="a"', '', '<b:2>; rel="b"'], '<a:1>; rel="a", <b:2>; rel="b", ' + ours],
    [[], ours],
    [7, '7, ' + ours]
  ]
  for (const [existing, value] of rows) t.equal(appendLink(existing, ours), value, JSON.stringify(existing))
})

t.test('property: any date round-trips into both header forms', async t => {
  const min = Date.UTC(1970, 0, 1)
  const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
  fc.assert(fc.property(fc.integer({ min, max }), fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }), (time, offset) => {
    const seconds = Math.floor(time / 1000)
    const byDate = policy({ '1.0': { deprecation: { date: new Date(time) }, sunset: { date: new Date(time) } } })
    if (byDate.deprecation !== '@' + seconds || !/^@\d{1,15}$/.test(byDate.deprecation)) return false
    if (Date.parse(byDate.sunset!) !== seconds * 1000 || !/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(byDate.sunset!)) return false
    // The same instant written as an ISO string with any offset gives the same headers.
    const local = new Date(time + offset * 60000).toISOString().slice(0, -1)
    const abs = Math.abs(offset)
    const iso = local + (offset < 0 ? '-' : '+') + String(Math.floor(abs / 60)).padStart(2, '0') + ':' + String(abs % 60).padStart(2, '0')
    if (time + offset * 60000 < min || time + offset * 60000 > max) return true
    const byText = policy({ '1.0': { deprecation: { date: iso }, sunset: { date: iso } } })
    return byText.deprecation === byDate.deprecation && byText.sunset === byDate.sunset && byText.sunsetAt === time
  }), { numRuns: 2000 })
})

// A reader of RFC 9110 quoted-strings, to check that what quote() writes reads back as given.
function unquote (text: string): string | null {
  if (!/^"(?:[\t \x21\x23-\x5b\x5d-\x7e]|\\[\t \x21-\x7e])*"$/.test(text)) return null
  return text.slice(1, -1).replace(/\\(.)/g, '$1')
}

t.test('property: quoted titles read back exactly', async t => {
  fc.assert(fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map(c => String.fromCharCode(c)), minLength: 1 }), title => {
    const links = policy({ '1.0': { sunset: { link: { href: URL_2, title } } } }).links!
    const prefix = `<${URL_2}>; rel="sunset"; title=`
    return links.startsWith(prefix) && unquote(links.slice(prefix.length)) === title && quote(title) === links.slice(prefix.length)
  }), { numRuns: 1000 })
  fc.assert(fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), title => {
    let links: string
    try {
      links = policy({ '1.0': { sunset: { link: { href: URL_2, title } } } }).links!
    } catch {
      return /\p{Cc}/u.test(title)
    }
    const star = /; title\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]*)$/.exec(links)
    // Every value is one a header can carry: visible ASCII and spaces only.
    return /^[\x20-\x7e]*$/.test(links) && (star === null ? unquote(links.split('; title=')[1]) === title : decodeURIComponent(star[1]) === title)
  }), { numRuns: 1000 })
})
