/**
 * Deprecation and sunset policies (option `policies`): checked once at start-up and turned into the exact header
 * values each version sends, so a response only looks them up.
 */
import { ApiVersion, DECLARABLE, isDeclarable } from '../api-version.js'
import { checkKeys, fail, formatDeprecation, formatLink, formatSunset, isRecord, readDate, readDeprecation, readLink, show, type DeprecationPolicyOption, type PolicyLink, type PolicyLinkOption, type Deprecation } from '../util/policy-values.js'

export interface SunsetPolicyOption {
  /** When the version is (or will be) retired: a `Date` or an ISO 8601 string. */
  date?: Date | string
  link?: PolicyLinkOption
  /** From the sunset date on, treat the version as no longer implemented. Needs `date`. Default false. */
  enforce?: boolean
}

export interface VersionPolicyOption {
  deprecation?: DeprecationPolicyOption
  sunset?: SunsetPolicyOption
}

export interface VersionPolicy {
  readonly version: ApiVersion
  /** `Deprecation` value (RFC 9745 structured-field date, `@1767225600`), or null when none is sent. */
  readonly deprecation: string | null
  /** `Sunset` value (RFC 8594 IMF-fixdate, `Fri, 01 Jan 2027 00:00:00 GMT`), or null. */
  readonly sunset: string | null
  /** `Link` value with the deprecation and sunset links, comma-separated, or null when there are none. */
  readonly links: string | null
  /** The sunset instant in ms since the epoch, or null. */
  readonly sunsetAt: number | null
  /** True when requests for this version are refused from `sunsetAt` on. */
  readonly enforce: boolean
  /** The policies as declared, for documents. `deprecationPolicy` stays even when its header is suppressed. */
  readonly deprecationPolicy: Deprecation | null
  readonly sunsetPolicy: { readonly date: Date | null, readonly link: PolicyLink | null, readonly enforce: boolean } | null
}

function keyPath (key: string): string {
  const text = key.length > 64 ? key.slice(0, 64) + '…' : key
  return `policies['${JSON.stringify(text).slice(1, -1).replace(/'/g, "\\'")}']`
}

/** True when a version's enforced sunset has passed at `now`: it is served no more, so it gets no document. */
export function isRetired (policy: VersionPolicy | undefined, now: number): boolean {
  return policy !== undefined && policy.enforce && now >= (policy.sunsetAt as number)
}

/**
 * Checks the `policies` option and precomputes every header value. Keys are versions, so `'1'` and `'1.0'` are one
 * key and giving both is an error. `onWarning` hears about settings that are valid but have no effect.
 */
export function resolvePolicies (value: unknown, onWarning?: (message: string) => void): ReadonlyMap<string, VersionPolicy> {
  const policies = new Map<string, VersionPolicy>()
  if (value === undefined) return policies
  if (!isRecord(value)) fail('policies', `must be an object keyed by API version (got ${show(value)})`)
  // Keys first, so a second spelling of a version is reported as that rather than as whatever else is wrong.
  const spellings = new Map<string, string>()
  const entries = Object.entries(value).map(([key, option]) => {
    const version = ApiVersion.tryParse(key)
    if (version === null) fail(keyPath(key), 'is keyed by an invalid API version: expected [yyyy-MM-dd][.major[.minor]][-status], for example 1.0')
    if (!isDeclarable(version)) fail(keyPath(key), `is keyed by a version that cannot be sent in a header: ${DECLARABLE}`)
    const first = spellings.get(version.key)
    if (first !== undefined) fail(keyPath(key), `is the same version as ${keyPath(first)}: give its policy once`)
    spellings.set(version.key, key)
    return [version, option, keyPath(key)] as const
  })
  for (const [version, option, path] of entries) policies.set(version.key, resolvePolicy(version, option, path, onWarning))
  return policies
}

function resolvePolicy (version: ApiVersion, option: unknown, path: string, onWarning?: (message: string) => void): VersionPolicy {
  if (!isRecord(option)) fail(path, `must be an object with deprecation and/or sunset (got ${show(option)})`)
  checkKeys(option, path, ['deprecation', 'sunset'])
  if (option.deprecation === undefined && option.sunset === undefined) fail(path, 'must have a deprecation or a sunset')

  const deprecation = option.deprecation === undefined ? null : readDeprecation(option.deprecation, `${path}.deprecation`)
  const sunset = option.sunset === undefined ? null : readSunset(option.sunset, `${path}.sunset`)
  const sunsetAt = sunset?.date?.getTime() ?? null
  const deprecatedAt = deprecation?.date?.getTime() ?? null
  // As ASP.NET: a deprecation dated after the sunset is not in effect, so neither its header nor its link is sent.
  const deprecationInEffect = deprecation !== null && (deprecatedAt === null || sunsetAt === null || deprecatedAt <= sunsetAt)
  if (deprecation !== null && !deprecationInEffect) {
    onWarning?.(`fastify-api-versioning: ${path}.deprecation.date is after the sunset date, so no Deprecation header or deprecation link is sent`)
  }
  const links: string[] = []
  if (deprecationInEffect && deprecation.link !== null) links.push(formatLink(deprecation.link))
  if (sunset?.link != null) links.push(formatLink(sunset.link))

  return Object.freeze({
    version,
    deprecation: deprecationInEffect && deprecatedAt !== null ? formatDeprecation(deprecatedAt) : null,
    sunset: sunsetAt === null ? null : formatSunset(sunsetAt),
    links: links.length === 0 ? null : links.join(', '),
    sunsetAt,
    enforce: sunset?.enforce ?? false,
    deprecationPolicy: deprecation,
    sunsetPolicy: sunset
  })
}

function readSunset (s: unknown, path: string): NonNullable<VersionPolicy['sunsetPolicy']> {
  if (!isRecord(s)) fail(path, `must be an object with date, link and/or enforce (got ${show(s)})`)
  checkKeys(s, path, ['date', 'link', 'enforce'])
  if (s.date === undefined && s.link === undefined) fail(path, 'must have a date or a link')
  if (s.enforce !== undefined && typeof s.enforce !== 'boolean') fail(`${path}.enforce`, `must be a boolean (got ${show(s.enforce)})`)
  if (s.enforce === true && s.date === undefined) fail(`${path}.enforce`, 'needs a sunset date to enforce from')
  return Object.freeze({ date: readDate(s.date, `${path}.date`), link: readLink(s.link, `${path}.link`, 'sunset'), enforce: s.enforce === true })
}
