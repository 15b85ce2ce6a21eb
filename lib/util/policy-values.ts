/**
 * The values a deprecation or sunset policy gives (the `policies` option, an endpoint's `deprecated` in a version
 * change): dates and links, read from what the app gave and written as header values. Shared by the stages that
 * take them.
 */
import { coded } from '../errors.js'

/** A link as given in a policy: a URL, or the URL with its RFC 8288 target attributes. */
export type PolicyLinkOption = string | { href: string, title?: string, type?: string, hreflang?: string, media?: string }

export interface DeprecationPolicyOption {
  /** When the version is (or will be) deprecated: a `Date` or an ISO 8601 string. */
  date?: Date | string
  link?: PolicyLinkOption
}

/** A checked link. `href` is the URL as `new URL()` serialises it (ASCII, so it can go into a header). */
export interface PolicyLink {
  readonly rel: 'deprecation' | 'sunset'
  readonly href: string
  readonly title: string | null
  readonly type: string | null
  readonly hreflang: string | null
  readonly media: string | null
}

/** A deprecation as given, checked: when, and where clients read about it. */
export interface Deprecation {
  readonly date: Date | null
  readonly link: PolicyLink | null
}

// A Sunset value needs a 4-digit year, and no API was retired before Unix time began: rejecting earlier dates also
// keeps years below 100 out, which Date.parse would read back as 19xx.
const MIN_TIME = Date.UTC(1970, 0, 1)
const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?([Zz]|([+-])(\d{2}):(\d{2})))?$/
// C0, DEL and C1: a CR or LF would split the header, the others have no business in one.
const CONTROL = /\p{Cc}/u
const LONE_SURROGATE = /[\ud800-\udfff]/u
// RFC 6838 §4.2 type-name "/" subtype-name, which RFC 8288 §3.4.1 asks of `type`.
const MEDIA_TYPE = /^[A-Za-z0-9][\w!#$&^.+-]{0,126}\/[A-Za-z0-9][\w!#$&^.+-]{0,126}$/
// A BCP 47 Language-Tag in its general shape (RFC 5646 §2.1), for `hreflang`.
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/
// RFC 8187 attr-char: what a title* value may carry unencoded.
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/
const LINK_KEYS = new Set(['href', 'title', 'type', 'hreflang', 'media'])

export function fail (path: string, message: string): never {
  throw coded(new TypeError(`fastify-api-versioning: ${path} ${message}`), 'FST_API_VERSIONING_INVALID_OPTION')
}

export function show (value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? value.slice(0, 64) + '…' : value)
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'function') return 'a function'
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value)
}

export function isRecord (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
}

export function checkKeys (value: Record<string, unknown>, path: string, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) fail(`${path}.${key}`, `is not a known setting: expected ${known.join(', ')}`)
  }
}

/** A deprecation as given at `path` (`{ date?, link? }`, one of them at least), checked. */
export function readDeprecation (d: unknown, path: string): Deprecation {
  if (!isRecord(d)) fail(path, `must be an object with date and/or link (got ${show(d)})`)
  if ('enforce' in d) fail(`${path}.enforce`, 'is only for a sunset: a deprecated version still works')
  checkKeys(d, path, ['date', 'link'])
  if (d.date === undefined && d.link === undefined) fail(path, 'must have a date or a link')
  return Object.freeze({ date: readDate(d.date, `${path}.date`), link: readLink(d.link, `${path}.link`, 'deprecation') })
}

/** RFC 9745 §2.1: an RFC 9651 sf-date, `@` and whole seconds since the epoch. */
export function formatDeprecation (time: number): string {
  return '@' + Math.floor(time / 1000)
}

/** RFC 8594 §3: an HTTP-date, which senders write as IMF-fixdate (RFC 9110 §5.6.7). */
export function formatSunset (time: number): string {
  return new Date(time).toUTCString()
}

export function readDate (value: unknown, path: string): Date | null {
  if (value === undefined) return null
  let time = NaN
  if (value instanceof Date) time = value.getTime()
  else if (typeof value === 'string') time = parseIsoDate(value)
  if (Number.isNaN(time)) {
    if (typeof value === 'string' && ISO_DATE.test(value)) fail(path, `is not a real date and time (got ${show(value)})`)
    fail(path, `must be a valid Date or an ISO 8601 date ('2027-01-01') or date-time with an offset ('2027-01-01T00:00:00Z') (got ${show(value)})`)
  }
  if (time < MIN_TIME || time > MAX_TIME) fail(path, `must be from 1970 to 9999 (got ${show(value instanceof Date ? value.toISOString() : value)})`)
  return new Date(time)
}

// Date.parse would take '2027-02-30' as 2 March and read offset-less date-times in the server's time zone.
function parseIsoDate (text: string): number {
  const m = ISO_DATE.exec(text)
  if (m === null) return NaN
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map(i => Number(m[i] ?? 0))
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  if (month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return NaN
  let offset = 0
  if (m[9] !== undefined) {
    const oh = Number(m[10])
    const om = Number(m[11])
    if (oh > 23 || om > 59) return NaN
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om)
  }
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'))
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, ms)
  return date.getTime() - offset * 60000
}

export function readLink (value: unknown, path: string, rel: PolicyLink['rel']): PolicyLink | null {
  if (value === undefined) return null
  if (typeof value === 'string') return Object.freeze({ rel, href: readHref(value, path), title: null, type: null, hreflang: null, media: null })
  if (!isRecord(value)) fail(path, `must be a URL or { href, title?, type?, hreflang?, media? } (got ${show(value)})`)
  for (const key of Object.keys(value)) {
    if (!LINK_KEYS.has(key)) fail(`${path}.${key}`, 'is not a link attribute: expected href, title, type, hreflang or media')
  }
  if (value.href === undefined) fail(`${path}.href`, 'is required')
  const text = (key: string, check?: [RegExp, string]): string | null => {
    const v = value[key]
    if (v === undefined) return null
    const p = `${path}.${key}`
    if (typeof v !== 'string' || v === '') fail(p, `must be a non-empty string (got ${show(v)})`)
    if (CONTROL.test(v)) fail(p, `must not contain control characters such as CR or LF (got ${show(v)})`)
    if (LONE_SURROGATE.test(v)) fail(p, `must be well-formed Unicode (got ${show(v)})`)
    if (check !== undefined && !check[0].test(v)) fail(p, `must be ${check[1]} (got ${show(v)})`)
    return v
  }
  return Object.freeze({
    rel,
    href: readHref(value.href, `${path}.href`),
    title: text('title'),
    type: text('type', [MEDIA_TYPE, "a media type such as 'text/html'"]),
    hreflang: text('hreflang', [LANGUAGE_TAG, "a language tag such as 'en' or 'en-US'"]),
    media: text('media', [PRINTABLE_ASCII, 'printable ASCII'])
  })
}

function readHref (value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, `must be an absolute http(s) URL (got ${show(value)})`)
  // Checked before parsing: new URL() silently strips tabs and newlines, which would hide a mistake.
  if (/[\s\p{Cc}]/u.test(value)) fail(path, `must not contain spaces or control characters (got ${show(value)})`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    fail(path, `must be an absolute http(s) URL (got ${show(value)})`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(path, `must be an absolute http(s) URL (got ${show(value)})`)
  return url.href
}

/** One RFC 8288 link-value; attributes in ASP.NET's order (rel, hreflang, media, title, type), all quoted. */
export function formatLink (link: PolicyLink): string {
  let text = `<${link.href}>; rel="${link.rel}"`
  if (link.hreflang !== null) text += `; hreflang="${link.hreflang}"`
  if (link.media !== null) text += `; media=${quote(link.media)}`
  if (link.title !== null) {
    // A header carries bytes, not UTF-16: non-ASCII titles go in title* (RFC 8288 §3.4.1, RFC 8187 encoding).
    text += PRINTABLE_ASCII.test(link.title) ? `; title=${quote(link.title)}` : `; title*=UTF-8''${encodeExtValue(link.title)}`
  }
  if (link.type !== null) text += `; type="${link.type}"`
  return text
}

/** RFC 9110 §5.6.4 quoted-string: only `"` and `\` need a backslash. */
export function quote (text: string): string {
  return '"' + text.replace(/["\\]/g, '\\$&') + '"'
}

function encodeExtValue (text: string): string {
  let out = ''
  for (const char of text) {
    if (ATTR_CHAR.test(char)) out += char
    else for (const byte of Buffer.from(char, 'utf8')) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0')
  }
  return out
}

/** Adds the policy links to a `Link` header the route may have set already (one field, RFC 8288 §3). */
export function appendLink (existing: string | string[] | number | undefined, links: string): string {
  if (existing === undefined) return links
  const before = Array.isArray(existing) ? existing.filter(v => v.trim() !== '').join(', ') : String(existing).trim()
  return before === '' ? links : before + ', ' + links
}
