import { ApiVersion } from '../api-version.js'
import { fromLatin1, isAscii } from './header-text.js'

/** No version was given anywhere. */
export const NONE = 0
/** One version was given (possibly repeated, or in several equivalent spellings). */
export const ONE = 1
/** A version was given, but it does not parse. */
export const INVALID = 2
/** Values that denote different versions were given. */
export const AMBIGUOUS = 3

export type OutcomeKind = typeof NONE | typeof ONE | typeof INVALID | typeof AMBIGUOUS

// The readers, as bits of `VersionOutcome.from`, in the order that says where a version came from
// (`request.apiVersionSource`: the first of them that gave it).
export const QUERY = 1
export const HEADER = 2
export const PATH = 4
export const MEDIA_TYPE = 8
export const CUSTOM = 16
/** A reader's bit. */
export type ReaderBit = typeof QUERY | typeof HEADER | typeof PATH | typeof MEDIA_TYPE | typeof CUSTOM

/**
 * The one place that turns the raw values that readers collect into an outcome: none, one, invalid or
 * ambiguous. Values are compared as they arrive, each against the first, so the work stays linear in the
 * input however many values there are, and the outcome is final once it is ambiguous.
 */
export class VersionOutcome {
  kind: OutcomeKind = NONE
  /** The requested version (for ONE), or null. */
  version: ApiVersion | null = null
  /** The first raw text read. */
  text: string | null = null
  /** Where the first value was read: a query parameter or header name, or the route parameter name. */
  source: string | null = null
  /** The readers that gave a value (their bits). */
  from = 0
  /** The first raw text came from a header: its characters are the header's bytes (see fromLatin1). */
  textFromHeader = false
  /** How many values were read, empty ones aside. */
  count = 0
  /** The version the request is served as (`request.apiVersion`), set by the route that takes it. */
  served: ApiVersion | null = null
  /** The request's instant (ms), read from the clock once, when first needed; NaN until then. */
  time = NaN
  /** An error of the server met while routing the request (a failing clock): the request is answered with it. */
  error: Error | null = null
  /** The version is implemented where the request was routed, but its enforced sunset has passed. */
  retired = false
  /**
   * The router sent the request to the route that answers version problems there: the hidden route, or a
   * `versionChanges` route that answers its own (see routing/constraint.ts, kAnswers).
   */
  fallback = false
  /** The served version is in the request's log bindings (`logApiVersion`). */
  logged = false
  /** Telemetry has counted the request (see telemetry/request-metrics.ts). */
  counted = false
  /**
   * For an older version of a `versionChanges` route (version-changes/older-route.ts): its response was converted
   * and written as the version's, and the error its route was sent, if any. Kept here, where its hooks read the
   * version, not in a WeakMap by reply: that costs ~3,000 instructions a request.
   */
  converted = false
  thrown: Error | null = null
  /** Its own validation error, where the route attaches it (`attachValidation`) and also serves the newest version. */
  invalid: Error | null = null

  /**
   * Adds one raw value that the reader `from` read: from a header or media type, its characters are the header's
   * bytes, read as UTF-8 when it is parsed. Returns false once the outcome can no longer change (ambiguous).
   */
  add (text: string, source: string, from: ReaderBit): boolean {
    if (text === '') return true // as ASP.NET: empty values are not values
    const fromHeader = from === HEADER || from === MEDIA_TYPE
    this.count++
    this.from |= from
    if (this.text === null) {
      this.text = text
      this.source = source
      this.textFromHeader = fromHeader
      this.version = parse(text, fromHeader)
      this.kind = this.version === null ? INVALID : ONE
      return true
    }
    // One text is one version, but a text with other than ASCII means other things from a header and elsewhere.
    if (!sameIgnoringAsciiCase(text, this.text) || (fromHeader !== this.textFromHeader && !isAscii(text))) {
      // Two different texts are ambiguous unless both parse to the same version; decided before validity.
      const version = this.version === null ? null : parse(text, fromHeader)
      if (version === null || !version.equals(this.version)) {
        this.kind = AMBIGUOUS
        this.version = null
        return false
      }
    }
    return true
  }
}

// Clients send the same few version texts again and again; versions are immutable, so parses are shared.
// Bounded, so hostile texts cannot grow it without limit. The last two texts are checked first: comparing a
// request's fresh string with them costs less than hashing it for the map. Only ASCII texts are kept, since
// they alone mean the same from a header and from elsewhere; the others are read anew, so that no request pays
// for the check of a text it does not send.
const parsed = new Map<string, ApiVersion | null>()
const MAX_CACHED = 512
let lastText = ''
let lastVersion: ApiVersion | null = null
let previousText = ''
let previousVersion: ApiVersion | null = null

function parse (text: string, fromHeader: boolean): ApiVersion | null {
  if (text === lastText) return lastVersion
  if (text === previousText) return previousVersion
  let version = parsed.get(text)
  if (version === undefined) {
    if (!isAscii(text)) return ApiVersion.tryParse(fromHeader ? fromLatin1(text) : text)
    version = ApiVersion.tryParse(text)
    if (parsed.size >= MAX_CACHED) parsed.clear()
    if (text.length <= 32) parsed.set(text, version)
  }
  if (text.length <= 32) {
    previousText = lastText
    previousVersion = lastVersion
    lastText = text
    lastVersion = version
  }
  return version
}

export function sameIgnoringAsciiCase (a: string, b: string): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y && !((x | 32) === (y | 32) && (x | 32) >= 97 && (x | 32) <= 122)) return false
  }
  return true
}
