import type { IncomingMessage } from 'node:http'
import { readCustom, type CustomReader } from './custom-reader.js'
import { readMediaTypes, type MediaTypeConfig } from './media-type.js'
import { HEADER, PATH, QUERY, VersionOutcome, sameIgnoringAsciiCase } from './outcome.js'
import { segmentIn, type PathSegment } from './path-segment.js'

/** Where versions are read; names are lower-case. */
export interface ReaderConfig {
  readonly queryNames: readonly string[]
  /** The length of the shortest query name: an escape only lengthens a name, so shorter segments never match. */
  readonly shortestQueryName: number
  readonly headerNames: readonly string[]
  /** Where media types carry the version, or null. */
  readonly mediaType: MediaTypeConfig | null
  /** The route parameter name that carries the version in the path, or null. */
  readonly segmentName: string | null
  /** The app's own reader, or null. */
  readonly custom: CustomReader | null
  /** The last query string that was one version (see readQuery), kept per reader: names differ between apps. */
  readonly lastQuery: LastQuery
  /** Asks the router for the raw path version of a request, or undefined; null when no route carries one. */
  readonly findSegment: ((method: string, url: string, host: string | undefined) => string | undefined) | null
  /** The router starts the query string at a `;` too (Fastify's `useSemicolonDelimiter`). */
  readonly semicolonQuery: boolean
}

/** A query string that is one value under a query name (`api-version=1.0`), and what it reads as. */
export interface LastQuery {
  text: string
  name: string
  value: string
}

/**
 * Collects every raw value from the query string, the headers (each header line on its own), the URL path (where
 * `segment` says the route's path carries it), the media types of `Content-Type` and `Accept` and the app's own
 * reader into one outcome, in that order: the order `request.apiVersionSource` names the first reader by, so that
 * the version's first text, which `request.apiVersion` keeps, is that reader's. Never throws; linear in the size of
 * the URL and headers.
 */
export function readRequest (req: IncomingMessage, config: ReaderConfig, segment: PathSegment | null = null): VersionOutcome {
  const outcome = new VersionOutcome()
  const url = req.url ?? ''
  if (config.queryNames.length > 0) {
    const q = queryStart(url, config.semicolonQuery)
    if (q !== -1 && !readQuery(url, q + 1, config, outcome)) return outcome
  }
  if (config.headerNames.length > 0 && !readHeaders(req.rawHeaders, config.headerNames, outcome)) return outcome
  if (segment !== null) {
    // In place where the URL reads as the route's path, else from the router, with the host as the router
    // derives it (HTTP/2 requests carry it in `:authority`).
    const value = (segment.prefix === null ? undefined : segmentIn(url, segment.prefix)) ??
      (config.findSegment as NonNullable<ReaderConfig['findSegment']>)(req.method ?? 'GET', url, (req.headers.host || req.headers[':authority']) as string | undefined)
    if (value !== undefined && !outcome.add(value, config.segmentName as string, PATH)) return outcome
  }
  if (config.mediaType !== null && !readMediaTypes(req.headers['content-type'], req.headers.accept, config.mediaType, outcome)) return outcome
  if (config.custom !== null) readCustom(req, config.custom, outcome)
  return outcome
}

// Where the query string starts, as the router reads it: at the first `?`, or `;` where it says so (after the
// path's first character, as find-my-way looks).
function queryStart (url: string, semicolon: boolean): number {
  const q = url.indexOf('?')
  if (!semicolon) return q
  const s = url.indexOf(';', 1)
  return s !== -1 && (q === -1 || s < q) ? s : q
}

/**
 * Reads the query names from the query string of `url` starting at `start`; false once the outcome is final.
 * Clients send one query string to many paths (`api-version=1.0`): one that was a single value last time is
 * compared whole, which costs less than reading it. Otherwise linear in the query: the next `=` is remembered
 * across segments, so no character is searched twice (a segment without `=` must not send a search for one to
 * the end of the URL each time), and a segment shorter than every name is skipped without being copied. A name
 * as configured is matched in place; only other spellings (case, escapes) are copied to be decoded.
 */
function readQuery (url: string, start: number, config: ReaderConfig, outcome: VersionOutcome): boolean {
  const end = url.length
  const last = config.lastQuery
  // indexOf, not endsWith or startsWith: V8 compares those a character at a time, several times slower.
  if (end - start === last.text.length && url.indexOf(last.text, start) === start) return outcome.add(last.value, last.name, QUERY)
  const { queryNames: names, shortestQueryName: shortest } = config
  const first = start
  let eq = start - 1
  while (start <= end) {
    let amp = url.indexOf('&', start)
    if (amp === -1) amp = end
    if (eq !== -1 && eq < start) eq = url.indexOf('=', start)
    const nameEnd = eq === -1 || eq > amp ? amp : eq
    if (nameEnd - start >= shortest) {
      const name = matchName(url.slice(start, nameEnd), names)
      if (name !== null) {
        const value = valueAt(url, nameEnd + 1, amp)
        if (start === first && amp === end) {
          last.text = url.slice(first)
          last.name = name
          last.value = value
        }
        if (!outcome.add(value, name, QUERY)) return false
      }
    }
    start = amp + 1
  }
  return true
}

/**
 * Reads `names` from the header lines, each line a value of its own, in the order they came. The raw lines,
 * not Node's parsed headers: those are built on first use, join or drop repeated lines by header, and a
 * lookup in them by a computed name costs more than comparing the lengths of a request's few header names.
 */
function readHeaders (rawHeaders: readonly string[], names: readonly string[], outcome: VersionOutcome): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const header = rawHeaders[i]
    for (let n = 0; n < names.length; n++) {
      if (header.length === names[n].length && (header === names[n] || sameIgnoringAsciiCase(header, names[n]))) {
        if (!outcome.add(rawHeaders[i + 1], names[n], HEADER)) return false
        break
      }
    }
  }
  return true
}

// A name as configured compares as one string; only other spellings (escapes, case) are decoded and compared
// by character.
function matchName (raw: string, names: readonly string[]): string | null {
  for (let n = 0; n < names.length; n++) {
    if (raw === names[n]) return names[n]
  }
  const name = hasEscapes(raw) ? decode(raw) : raw
  for (let n = 0; n < names.length; n++) {
    if (sameIgnoringAsciiCase(name, names[n])) return names[n]
  }
  return null
}

// The last value seen without escapes: clients send the same version again and again, and comparing with it
// costs less than looking for escapes. The kept string is returned, so the parse cache finds it by identity.
let plainValue = '1.0'

function valueAt (url: string, start: number, end: number): string {
  const raw = url.slice(start, end)
  if (raw === plainValue) return plainValue
  if (hasEscapes(raw)) return decode(raw)
  plainValue = raw
  return raw
}

function hasEscapes (text: string): boolean {
  return text.indexOf('%') !== -1 || text.indexOf('+') !== -1
}

// Form decoding of a text with escapes; a malformed escape leaves the raw text, which then never parses as a
// version (`%`).
function decode (text: string): string {
  const spaced = text.replaceAll('+', ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return text
  }
}
