import { coded } from './errors.js'

/**
 * An immutable API version: `[yyyy-MM-dd][.major[.minor]][-status]`, parsed and compared as ASP.NET API
 * Versioning does (see docs/versions.md, "Version grammar").
 */

const INT32_MAX = 2147483647

// Failure reasons of the parser; only `parse()` turns them into messages, so `tryParse()` allocates nothing.
const BAD_FORMAT = 1
const BAD_GROUP = 2
const BAD_STATUS = 3

// Every ApiVersion carries this registry symbol, so that `instanceof ApiVersion` holds for an ApiVersion of either
// build of the package (ESM and CommonJS, both loaded in one app): a class is per build, the brand is not.
const BRAND = Symbol.for('fastify-api-versioning.ApiVersion')

const LETTER = /\p{L}/u
const DIGIT = /\p{Nd}/u

export class ApiVersion {
  /** The group (date) part as `yyyy-MM-dd`, or null. */
  readonly groupVersion: string | null
  /** The major part, or null for a group-only version. */
  readonly major: number | null
  /** The minor part as written, or null when it was not given (`1` has none, `1.0` has 0). */
  readonly minor: number | null
  /** The status (`beta` in `1.0-beta`), or null. */
  readonly status: string | null
  /**
   * A normal form for equality and lookups: `1`, `1.0` and `01.00` share one key; status case is ignored.
   * Two versions are equal exactly when their keys are equal.
   */
  readonly key: string

  private constructor (groupVersion: string | null, major: number | null, minor: number | null, status: string | null) {
    this.groupVersion = groupVersion
    this.major = major
    this.minor = minor
    this.status = status
    this.key = (groupVersion ?? '') + '|' + (major === null ? '' : major + '.' + (minor ?? 0)) + '|' +
      (status === null ? '' : status.toUpperCase())
    Object.freeze(this)
  }

  /** Parses `text`, throwing an Error that says why it is not a valid API version. */
  static parse (text: string): ApiVersion {
    const result = typeof text === 'string' ? read(text) : BAD_FORMAT
    if (typeof result !== 'number') return result
    const shown = JSON.stringify(String(text).length > 64 ? String(text).slice(0, 64) + '…' : String(text))
    switch (result) {
      case BAD_GROUP: throw coded(new Error(`The API version ${shown} is invalid: its group ${JSON.stringify(String(text).slice(0, 10))} is not a calendar date (yyyy-MM-dd).`), 'FST_API_VERSIONING_INVALID_VERSION')
      case BAD_STATUS: throw coded(new Error(`The API version ${shown} is invalid: its status must start with a letter and contain only letters, digits and inner dots.`), 'FST_API_VERSIONING_INVALID_VERSION')
      default: throw coded(new Error(`The API version ${shown} is invalid: expected [yyyy-MM-dd][.major[.minor]][-status], for example 1.0, 2 or 2023-06-01.`), 'FST_API_VERSIONING_INVALID_VERSION')
    }
  }

  /** Parses `text`, or returns null when it is not a valid API version. Never throws. */
  static tryParse (text: string): ApiVersion | null {
    if (typeof text !== 'string') return null
    const result = read(text)
    return typeof result === 'number' ? null : result
  }

  /**
   * True when both denote the same version: `1` equals `1.0`; status case is ignored. A text is parsed first
   * (`equals('1.0')`), and throws where it is no version; anything else but null or undefined is a TypeError.
   */
  equals (other: ApiVersion | string | null | undefined): boolean {
    return other != null && versionOf(other, 'equals').key === this.key
  }

  /**
   * Orders by group (none first), then major, minor (a missing minor counts as 0), then status: a version
   * without status ranks above the same version with one; statuses compare case-insensitively. A text is parsed
   * first, as for `equals`; null and undefined rank below every version.
   */
  compareTo (given: ApiVersion | string | null | undefined): number {
    if (given == null) return 1
    const other = versionOf(given, 'compareTo')
    let c = compareNullable(this.groupVersion, other.groupVersion)
    if (c !== 0) return c
    c = compareNullable(this.major, other.major)
    if (c !== 0) return c
    c = (this.minor ?? 0) - (other.minor ?? 0)
    if (c !== 0) return Math.sign(c)
    if (this.status === null || other.status === null) {
      return this.status === other.status ? 0 : this.status === null ? 1 : -1
    }
    const a = this.status.toUpperCase()
    const b = other.status.toUpperCase()
    return a === b ? 0 : a < b ? -1 : 1
  }

  /** The version in the form it was given (`1` stays `1`, `1.0` stays `1.0`; leading zeros are dropped). */
  toString (): string {
    let text = this.groupVersion ?? ''
    if (this.major !== null) {
      text += (text === '' ? '' : '.') + this.major
      if (this.minor !== null) text += '.' + this.minor
    }
    return this.status === null ? text : text + '-' + this.status
  }

  toJSON (): string {
    return this.toString()
  }

  /** True for an ApiVersion of either build of this package (ESM or CommonJS). */
  static [Symbol.hasInstance] (value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true
  }

  /** @internal */
  static create (groupVersion: string | null, major: number | null, minor: number | null, status: string | null): ApiVersion {
    return new ApiVersion(groupVersion, major, minor, status)
  }
}

Object.defineProperty(ApiVersion.prototype, BRAND, { value: true })

/**
 * A version the app declares goes into response headers, which carry visible ASCII only: its status may not use
 * the Unicode letters and digits that the grammar allows in what requests send.
 */
export function isDeclarable (version: ApiVersion): boolean {
  return version.status === null || VISIBLE_ASCII.test(version.status)
}

/** Says what `isDeclarable` asks, for start-up errors. */
export const DECLARABLE = "a declared API version must be visible ASCII (letters, digits, '.' and '-'), such as '1.0-beta'"

const VISIBLE_ASCII = /^[\x21-\x7e]+$/

function compareNullable<T extends string | number> (a: T | null, b: T | null): number {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  return a < b ? -1 : 1
}

function read (text: string): ApiVersion | number {
  const length = text.length
  if (length === 0) return BAD_FORMAT
  if (length >= 10 && isDateShaped(text)) {
    const group = text.slice(0, 10)
    if (!isCalendarDate(text)) return BAD_GROUP
    if (length === 10) return ApiVersion.create(group, null, null, null)
    if (length === 11) return BAD_FORMAT
    const separator = text.charCodeAt(10)
    if (separator === 46 /* . */) return readNumbers(text, 11, group)
    if (separator === 45 /* - */) {
      const status = text.slice(11)
      return isValidStatus(status) ? ApiVersion.create(group, null, null, status) : BAD_STATUS
    }
  }
  return readNumbers(text, 0, null)
}

// Reads `major[.minor][-status]` from `text` at `start`.
function readNumbers (text: string, start: number, group: string | null): ApiVersion | number {
  let end = text.length
  let status: string | null = null
  const dash = text.indexOf('-', start)
  if (dash > start) {
    status = text.slice(dash + 1)
    if (status === '') return BAD_FORMAT
    if (!isValidStatus(status)) return BAD_STATUS
    end = dash
  }
  const dot = text.indexOf('.', start)
  let major: number
  let minor: number | null = null
  if (dot > start && dot < end) {
    major = readInt32(text, start, dot)
    minor = readInt32(text, dot + 1, end)
    if (minor < 0) return BAD_FORMAT
  } else {
    major = readInt32(text, start, end)
  }
  if (major < 0) return BAD_FORMAT
  return ApiVersion.create(group, major, minor, status)
}

// An unsigned decimal Int32 of ASCII digits only, or -1.
function readInt32 (text: string, start: number, end: number): number {
  if (start >= end) return -1
  let value = 0
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    value = value * 10 + digit
    if (value > INT32_MAX) return -1
  }
  return value
}

function isDigit (text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  return c >= 48 && c <= 57
}

function isDateShaped (text: string): boolean {
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7 ? text.charCodeAt(i) !== 45 : !isDigit(text, i)) return false
  }
  return true
}

function isCalendarDate (text: string): boolean {
  const year = Number(text.slice(0, 4))
  const month = Number(text.slice(5, 7))
  const day = Number(text.slice(8, 10))
  if (year < 1 || month < 1 || month > 12 || day < 1) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
  return day <= days
}

// A status is a letter, then letters, digits and dots, not ending with a dot (as ASP.NET: Unicode letters).
function isValidStatus (status: string): boolean {
  if (!isLetter(status, 0) || status.charCodeAt(status.length - 1) === 46) return false
  for (let i = 1; i < status.length; i++) {
    const c = status.charCodeAt(i)
    if (c !== 46 && !isLetter(status, i) && !(c >= 48 && c <= 57) && !(c > 127 && DIGIT.test(status[i]))) return false
  }
  return true
}

function isLetter (text: string, i: number): boolean {
  const c = text.charCodeAt(i) | 32
  if (c >= 97 && c <= 122) return true
  return text.charCodeAt(i) > 127 && LETTER.test(text[i])
}

// From plain JS anything may come where a version is compared: a text is parsed, anything else but a version (of
// either build: see BRAND) would compare as garbage, so it is refused.
function versionOf (other: unknown, method: string): ApiVersion {
  if (typeof other === 'string') return ApiVersion.parse(other)
  if (other instanceof ApiVersion) return other
  // A version of a copy of the package older than the brand: it reads as its text.
  const copy = typeof (other as { key?: unknown } | null)?.key === 'string' ? ApiVersion.tryParse(String(other)) : null
  if (copy !== null) return copy
  const shown = Array.isArray(other) ? 'an array' : typeof other === 'object' ? 'an object that is no ApiVersion' : typeof other === 'function' ? 'a function' : `the ${typeof other} ${String(other)}`
  throw coded(new TypeError(`ApiVersion#${method} takes an ApiVersion, a version text such as '1.0', null or undefined (got ${shown})`), 'FST_API_VERSIONING_INVALID_VERSION')
}
