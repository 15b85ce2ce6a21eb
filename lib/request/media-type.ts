import { MEDIA_TYPE, type VersionOutcome } from './outcome.js'
import { coded } from '../errors.js'

/** Where media types carry a version; built once from `versionReader.mediaType` by `resolveMediaTypeOption`. */
export interface MediaTypeConfig {
  /** Media type parameter names that carry the version (`v` in `application/json;v=2.0`), lower-case. */
  readonly parameters: readonly string[]
  /** The vendor media type with `{version}` as configured, or null; also the `source` of what it reads. */
  readonly template: string | null
  /** @internal The template before and after `{version}`, lower-case: `application/vnd.acme.v`, `+json`. */
  readonly prefix: string
  /** @internal */
  readonly suffix: string
  /** @internal The type a template specialises by its suffix (`application/json` for `…+json`), or null. */
  readonly baseType: string | null
}

const PREFIX = 'fastify-api-versioning: versionReader.mediaType'
const PLACEHOLDER = '{version}'
const TCHAR = new Uint8Array(128)
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TCHAR[c.charCodeAt(0)] = 1

function isToken (text: string, start = 0, end = text.length): boolean {
  if (end <= start) return false
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c > 127 || TCHAR[c] === 0) return false
  }
  return true
}

function show (value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch { // BigInt, cycles
    return String(value)
  }
}

function fail (message: string, value: unknown): never {
  throw coded(new TypeError(`${PREFIX}${message} (got ${show(value)})`), 'FST_API_VERSIONING_INVALID_OPTION')
}

function names (value: unknown, where: string): string[] {
  if (value === true) return ['v'] // ASP.NET's MediaTypeApiVersionReader default
  const list = typeof value === 'string' ? [value] : value
  if (!Array.isArray(list) || list.length === 0) {
    fail(`${where} must be true, a parameter name or a non-empty array of parameter names`, value)
  }
  for (const name of list) {
    if (typeof name !== 'string' || !isToken(name)) fail(`${where} parameter names must be tokens such as 'v'`, name)
    // q is the Accept weight: one text cannot be both the rank and the version.
    if (name.toLowerCase() === 'q') fail(`${where} cannot use 'q', the quality parameter`, name)
  }
  return [...new Set(list.map(name => (name as string).toLowerCase()))]
}

function template (value: unknown): string {
  const text = typeof value === 'string' ? value : ''
  const slash = text.indexOf('/')
  const at = text.indexOf(PLACEHOLDER)
  // '/', '{' and '}' are not token characters, so this also refuses a second placeholder or slash.
  if (slash < 1 || at < slash || !isToken(text, 0, slash) || !isToken(text.slice(slash + 1, at) + text.slice(at + PLACEHOLDER.length))) {
    fail(".template must be a media type with one {version} in its subtype, such as 'application/vnd.acme.v{version}+json'", value)
  }
  return text
}

/**
 * Checks `versionReader.mediaType`: false or undefined is off (null); true is the parameter `v`; a name or
 * names; or `{ parameter?, template? }` with at least one of them, where a template alone reads no parameter.
 */
export function resolveMediaTypeOption (value: unknown): MediaTypeConfig | null {
  if (value === undefined || value === false) return null
  let parameters: string[] = []
  let tpl: string | null = null
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const key of Object.keys(value)) {
      if (key !== 'parameter' && key !== 'template') fail(` has an unknown option ${JSON.stringify(key)}; use parameter or template`, value)
    }
    const { parameter, template: given } = value as { parameter?: unknown, template?: unknown }
    if (parameter !== undefined && parameter !== false) parameters = names(parameter, '.parameter')
    if (given !== undefined) tpl = template(given)
    if (parameters.length === 0 && tpl === null) fail(' needs a parameter or a template', value)
  } else if (value === true || typeof value === 'string' || Array.isArray(value)) {
    parameters = names(value, '')
  } else {
    fail(' must be false, true, a parameter name, an array of them or { parameter, template }', value)
  }
  const at = tpl?.indexOf(PLACEHOLDER) ?? 0
  const suffix = tpl === null ? '' : tpl.slice(at + PLACEHOLDER.length).toLowerCase()
  const plus = suffix.lastIndexOf('+')
  return Object.freeze({
    parameters: Object.freeze(parameters),
    template: tpl,
    prefix: tpl === null ? '' : tpl.slice(0, at).toLowerCase(),
    suffix,
    baseType: tpl === null || plus === -1 ? null : tpl.slice(0, tpl.indexOf('/') + 1).toLowerCase() + suffix.slice(plus + 1)
  })
}

const HTAB = 9
const SP = 32
const DQUOTE = 34
const COMMA = 44
const SEMI = 59
const EQ = 61
const BSLASH = 92

// Versions of the best rank so far, as [start, end, flags] into their header. Module-level and reused, so an
// entry costs no allocation until its version is known to count. Safe because a call runs to its end before
// another starts; only a VersionOutcome subclass whose add() called readMediaTypes could break that.
const FROM_CONTENT_TYPE = 1
const ESCAPED = 2
const SOURCE_SHIFT = 2 // source 0 is the template, k + 1 is parameters[k]
const marks: number[] = []
let used = 0
let best = -1 // the q (in thousandths) of what `marks` holds; -1 while it holds nothing
let closed = false // set by skipQuoted
let escaped = false

function skipOws (h: string, i: number): number {
  while (i < h.length && (h.charCodeAt(i) === SP || h.charCodeAt(i) === HTAB)) i++
  return i
}

function trimEnd (h: string, start: number, end: number): number {
  while (end > start && (h.charCodeAt(end - 1) === SP || h.charCodeAt(end - 1) === HTAB)) end--
  return end
}

/** From the `"` at `i`, the index after its closing quote (or the header's end, then `closed` is false). */
function skipQuoted (h: string, i: number): number {
  escaped = false
  for (i++; i < h.length; i++) {
    const c = h.charCodeAt(i)
    if (c === BSLASH) {
      escaped = true
      i++
    } else if (c === DQUOTE) {
      closed = true
      return i + 1
    }
  }
  closed = false
  return h.length
}

/** The index of the next `;` or `,` (or `=` when asked) outside quotes, or the header's end. */
function segmentEnd (h: string, i: number, orEquals: boolean): number {
  for (; i < h.length; i++) {
    const c = h.charCodeAt(i)
    if (c === SEMI || c === COMMA || (orEquals && c === EQ)) return i
    if (c === DQUOTE) i = skipQuoted(h, i) - 1
  }
  return h.length
}

/** True when h[at..] starts with `lower`, ignoring ASCII case. */
function startsAt (h: string, at: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    let c = h.charCodeAt(at + k)
    if (c >= 65 && c <= 90) c += 32
    if (c !== lower.charCodeAt(k)) return false
  }
  return true
}

function nameIndex (h: string, start: number, end: number, names: readonly string[]): number {
  for (let n = 0; n < names.length; n++) {
    if (names[n].length === end - start && startsAt(h, start, names[n])) return n
  }
  return -1
}

/** RFC 9110 qvalue in thousandths; 1000 when it is not one (`abc`, `1.5`, `0.0001`, quoted), as in ASP.NET. */
function quality (h: string, start: number, end: number): number {
  const whole = h.charCodeAt(start) - 48
  if (end <= start || end - start > 5 || (whole !== 0 && whole !== 1) || (end - start > 1 && h.charCodeAt(start + 1) !== 46)) return 1000
  let q = whole * 1000
  for (let i = start + 2, scale = 100; i < end; i++, scale /= 10) {
    const digit = h.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return 1000
    q += digit * scale
  }
  return q > 1000 ? 1000 : q
}

function mark (start: number, end: number, flags: number): void {
  if (end <= start) return // `v=` and `v=""` are no version, as empty query and header values
  marks[used++] = start
  marks[used++] = end
  marks[used++] = flags
}

/** Scans the media type at `i` (to its `,`), keeping its versions if its rank is the best so far. */
function scanEntry (h: string, i: number, config: MediaTypeConfig, fromContentType: boolean): number {
  const first = used
  const base = fromContentType ? FROM_CONTENT_TYPE : 0
  let q = -1
  const typeStart = skipOws(h, i)
  i = segmentEnd(h, typeStart, false)
  if (config.template !== null) {
    const end = trimEnd(h, typeStart, i)
    if (matchesTemplate(h, typeStart, end, config)) mark(typeStart + config.prefix.length, end - config.suffix.length, base)
  }
  while (i < h.length && h.charCodeAt(i) === SEMI) {
    const nameStart = skipOws(h, i + 1)
    i = segmentEnd(h, nameStart, true)
    if (i === h.length || h.charCodeAt(i) !== EQ) continue
    const nameEnd = trimEnd(h, nameStart, i)
    const valueStart = skipOws(h, i + 1)
    const quoted = valueStart < h.length && h.charCodeAt(valueStart) === DQUOTE
    const afterQuote = quoted ? skipQuoted(h, valueStart) : valueStart
    i = segmentEnd(h, afterQuote, false)
    const valueEnd = trimEnd(h, valueStart, i)
    if (nameEnd - nameStart === 1 && (h.charCodeAt(nameStart) | 32) === 113) { // q: the first one counts, as in ASP.NET
      if (q === -1 && !fromContentType) q = quality(h, valueStart, valueEnd)
      continue
    }
    const n = nameIndex(h, nameStart, nameEnd, config.parameters)
    if (n === -1) continue
    const flags = base | ((n + 1) << SOURCE_SHIFT)
    // Only a whole quoted-string is unquoted; anything else malformed is kept raw, so it reads as Invalid.
    if (quoted && closed && afterQuote === valueEnd) mark(valueStart + 1, valueEnd - 1, flags | (escaped ? ESCAPED : 0))
    else mark(valueStart, valueEnd, flags)
  }
  if (used > first) {
    // A missing q is 1; Content-Type always counts as 1.
    const rank = q < 0 ? 1000 : q
    if (rank === 0 || rank < best) {
      used = first
    } else if (rank > best) {
      for (let k = first; k < used; k++) marks[k - first] = marks[k]
      used -= first
      best = rank
    }
  }
  return i < h.length ? i + 1 : i
}

function unescape (text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) out += text[text.charCodeAt(i) === BSLASH ? ++i : i]
  return out
}

/**
 * Adds to `outcome` the raw versions of the best-ranked media types: `contentType` is one media type at q=1
 * (only its first, if it holds a list), `accept` a list (repeated lines joined by commas, as Node does). The
 * highest q that yields a version wins, q=0 never does, and every version of that rank is added in header
 * order (Content-Type first), so different ones make the outcome ambiguous. The `source` is the parameter
 * name as configured (lower-case), or the template for a version read from the type itself. Never throws;
 * linear in the header sizes. Returns false once the outcome is final (ambiguous), like the other readers.
 */
export function readMediaTypes (contentType: string | undefined, accept: string | undefined, config: MediaTypeConfig, outcome: VersionOutcome): boolean {
  used = 0
  best = -1
  if (marks.length > 3072) marks.length = 0 // a hostile header grew it; let it go
  if (typeof contentType === 'string') scanEntry(contentType, 0, config, true)
  if (typeof accept === 'string') {
    for (let i = 0; i < accept.length;) i = scanEntry(accept, i, config, false)
  }
  for (let k = 0; k < used; k += 3) {
    const flags = marks[k + 2]
    const header = (flags & FROM_CONTENT_TYPE) !== 0 ? contentType as string : accept as string
    const text = header.slice(marks[k], marks[k + 1])
    const source = flags >>> SOURCE_SHIFT
    if (!outcome.add((flags & ESCAPED) !== 0 ? unescape(text) : text, source === 0 ? config.template as string : config.parameters[source - 1], MEDIA_TYPE)) return false
  }
  return true
}

function matchesTemplate (h: string, start: number, end: number, config: MediaTypeConfig): boolean {
  const { prefix, suffix } = config
  return end - start > prefix.length + suffix.length && startsAt(h, start, prefix) && startsAt(h, end - suffix.length, suffix)
}

/**
 * The Content-Type of a success response to a request versioned by media type. `source` is the outcome's
 * source: for the template (or with no parameter configured), a response of the type the template
 * specialises (`application/json` for `…+json`) becomes the template's type; otherwise `; <name>=<raw>` is
 * added with the parameter the client used (else the first configured), unless the response already carries
 * a configured parameter or the template's type. Unchanged when the version is not a token. Never throws.
 */
export function withMediaTypeVersion (contentType: string, rawVersion: string, config: MediaTypeConfig, source: string | null = null): string {
  if (typeof contentType !== 'string' || typeof rawVersion !== 'string' || !isToken(rawVersion)) return contentType
  let i = segmentEnd(contentType, 0, false)
  const typeStart = skipOws(contentType, 0)
  const typeEnd = trimEnd(contentType, typeStart, i)
  const { template, baseType, parameters } = config
  if (typeEnd === typeStart || (template !== null && matchesTemplate(contentType, typeStart, typeEnd, config))) return contentType
  if (baseType !== null && (source === template || parameters.length === 0) &&
      typeEnd - typeStart === baseType.length && startsAt(contentType, typeStart, baseType)) {
    const at = (template as string).indexOf(PLACEHOLDER)
    return (template as string).slice(0, at) + rawVersion + (template as string).slice(at + PLACEHOLDER.length) + contentType.slice(typeEnd)
  }
  if (parameters.length === 0) return contentType
  while (i < contentType.length && contentType.charCodeAt(i) === SEMI) {
    const nameStart = skipOws(contentType, i + 1)
    i = segmentEnd(contentType, nameStart, true)
    if (nameIndex(contentType, nameStart, trimEnd(contentType, nameStart, i), parameters) !== -1) return contentType
    if (i < contentType.length && contentType.charCodeAt(i) === EQ) i = segmentEnd(contentType, i + 1, false)
  }
  const name = source !== null && parameters.includes(source) ? source : parameters[0]
  return contentType + '; ' + name + '=' + rawVersion
}
