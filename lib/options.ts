import { ApiVersion, DECLARABLE, isDeclarable } from './api-version.js'
import { DEFAULT_PROBLEM_TYPE_BASE } from './problems/problems.js'
import type { CustomReader } from './request/custom-reader.js'
import { resolveTelemetryOption, type TelemetryMeterProvider, type TelemetryOption } from './telemetry/telemetry.js'
import { resolveMediaTypeOption, type MediaTypeConfig } from './request/media-type.js'
import { resolvePolicies, type VersionPolicy, type VersionPolicyOption } from './lifecycle/policies.js'
import { resolveSelector, type Selector, type SelectorFunction } from './lifecycle/selectors.js'
import { messageOf } from './util/server-error.js'
import type { ProblemWriter } from './problems/writers.js'
import { coded } from './errors.js'
import { droppedPromise, isAsyncFunction } from './util/is-thenable.js'
import { isHttpField } from './util/http-fields.js'
import { resolveVersionList, type VersionChangesEntry, type VersionList } from './version-changes/version-list.js'
import { resolveWebhooks, type WebhookOption, type Webhooks } from './version-changes/webhooks.js'

export interface VersionReaderOptions {
  /** Query parameter names that carry the version, or false. Default `['api-version']`. */
  query?: string | readonly string[] | false
  /** Header names that carry the version, or false. Default `['api-version']`. */
  header?: string | readonly string[] | false
  /** The route parameter that carries the version in the path (`/v:apiVersion/...`), or false. Default `'apiVersion'`. */
  urlSegment?: string | false
  /**
   * Media type parameter names that carry the version (`Accept: application/json;v=2.0`), `true` for `v`, or
   * `{ parameter?, template? }` with a vendor type such as `'application/vnd.acme.v{version}+json'`; or false.
   * Default false.
   */
  mediaType?: boolean | string | readonly string[] | { parameter?: string | readonly string[] | boolean, template?: string }
  /**
   * The app's own reader: the request's version texts (a text or an array of them), or undefined for none. Its
   * values join the other readers' (the same ambiguity rules and problems); what it throws or gives otherwise
   * is a 500 for that request. Say in `Vary` what it reads, if caches must know. Default none.
   */
  custom?: CustomReader
}

/** The names of the version headers of `reportApiVersions`. */
export interface ReportApiVersionsOptions {
  /** Default `'api-supported-versions'`. */
  supportedHeader?: string
  /** Default `'api-deprecated-versions'`. */
  deprecatedHeader?: string
}

export interface ApiVersioningOptions {
  /** Write version errors as problem documents; when false they are status-only. Default false. */
  problemDetails?: boolean
  /**
   * Send `api-supported-versions` and `api-deprecated-versions` on every response of a versioned route; or
   * `{ supportedHeader?, deprecatedHeader? }` to send them under other names. Default false.
   */
  reportApiVersions?: boolean | ReportApiVersionsOptions
  /** Use `defaultVersion` when a request gives none. Default false. */
  assumeDefaultVersionWhenUnspecified?: boolean
  /** The version assumed when a request gives none. Default `'1.0'`. */
  defaultVersion?: string
  /** The status of the Unsupported error when the version was not read from the path. Default 400. */
  unsupportedApiVersionStatusCode?: number
  /** The base of the problem `type` URIs: `type` is base + '#' + fragment. Default `'https://docs.api-versioning.org/problems'`. */
  problemTypeBase?: string
  /** Where a version may be given. */
  versionReader?: VersionReaderOptions
  /** Custom writers, tried in order before the built-in ones; the first whose `canWrite` is true writes. */
  problemWriters?: readonly ProblemWriter[]
  /** Deprecation and sunset policies, keyed by version: headers on the responses of that version, and enforcement. */
  policies?: Readonly<Record<string, VersionPolicyOption>>
  /**
   * Which version a request without one gets, with `assumeDefaultVersionWhenUnspecified`: `'default'`
   * (`defaultVersion`), `'current'` (the highest version without a status implemented on the method and path),
   * `'lowest'`, or a function. Default `'default'`.
   */
  apiVersionSelector?: 'default' | 'current' | 'lowest' | SelectorFunction
  /**
   * The clock of the version policies' dates (when an enforced sunset has come; when a dated deprecation has, for
   * telemetry and the documents), in ms since the epoch. Default `Date.now`.
   */
  now?: () => number
  /** Add `apiVersion` to the request's log bindings, so the "request completed" line names the version. Default false. */
  logApiVersion?: boolean
  /**
   * The name of a response header that says which version served the request (the one asked for, an assumed
   * default or a selector's choice), as the route declares it, on every response of a route that served one,
   * errors included; none where no version was served (a version problem). Default none.
   */
  servedApiVersionHeader?: string
  /**
   * Count the requests of versioned and version-neutral routes as OpenTelemetry metrics (`api_version.requests`,
   * meter `fastify-api-versioning`), and name the served version on the request's span (@fastify/otel's, or the
   * active one): `true` with the global meter provider of `@opentelemetry/api` (an optional peer: install it), or
   * `{ meterProvider }`. Default false.
   */
  telemetry?: TelemetryOption
  /**
   * One implementation serving every version: the versions, newest first, each with the changes that led to it
   * (`versionChange(...)`). Routes declared with `versionChanges: true` are written for the newest version, and the
   * older ones are served from these changes (see docs/version-changes.md). Default none.
   */
  versionChanges?: readonly VersionChangesEntry[]
  /**
   * When the older versions of `versionChanges` routes compile their validators and serializers and plan their
   * conversions: `'lazy'`, at each version's first request of a route (start-up costs what the newest version's
   * routes do), or `'eager'`, once the app is ready (each first request costs what the others do). Default `'lazy'`.
   */
  versionChangesCompile?: 'lazy' | 'eager'
  /**
   * The events the service sends (webhooks), by name: each payload's schema as the newest version writes it, and a
   * description. Field and enum instructions on those schemas give older versions theirs; each version's OpenAPI 3.1
   * document lists its webhooks, and `app.convertToApiVersion({ webhook, value, version })` converts a payload for a
   * receiver pinned to a version (see docs/version-changes.md). Default none.
   */
  webhooks?: Readonly<Record<string, WebhookOption>>
}

export interface ResolvedOptions {
  readonly problemDetails: boolean
  readonly reportApiVersions: boolean
  /** The names of the two version headers, lower-case. */
  readonly supportedHeader: string
  readonly deprecatedHeader: string
  readonly assumeDefaultVersionWhenUnspecified: boolean
  readonly defaultVersion: ApiVersion
  readonly unsupportedApiVersionStatusCode: number
  readonly problemTypeBase: string
  readonly queryNames: readonly string[]
  readonly headerNames: readonly string[]
  readonly segmentName: string | null
  readonly mediaType: MediaTypeConfig | null
  readonly customReader: CustomReader | null
  readonly problemWriters: readonly ProblemWriter[]
  /** Each writer's name in logs: its `name`, or its place (`problemWriters[0]`). */
  readonly problemWriterNames: readonly string[]
  readonly policies: ReadonlyMap<string, VersionPolicy>
  readonly apiVersionSelector: Selector
  readonly now: () => number
  readonly logApiVersion: boolean
  /** The header that names the version served (`servedApiVersionHeader`), lower-case; null when off. */
  readonly servedHeader: string | null
  /** The telemetry option, checked; null when off. */
  readonly telemetry: { readonly meterProvider: TelemetryMeterProvider | null } | null
  /** The versionChanges option, checked; null when not given. */
  readonly versionList: VersionList | null
  /** Whether the older versions of versionChanges routes are compiled once the app is ready. */
  readonly compileEagerly: boolean
  /** The webhooks option, checked; none when not given. */
  readonly webhooks: Webhooks
}

const KNOWN = new Set([
  'problemDetails', 'reportApiVersions', 'assumeDefaultVersionWhenUnspecified', 'defaultVersion',
  'unsupportedApiVersionStatusCode', 'problemTypeBase', 'versionReader', 'problemWriters', 'policies',
  'apiVersionSelector', 'now', 'logApiVersion', 'servedApiVersionHeader', 'telemetry', 'versionChanges', 'versionChangesCompile', 'webhooks',
  // set by Fastify's register()
  'prefix', 'logLevel', 'logSerializers'
])
const READERS = new Set(['query', 'header', 'urlSegment', 'mediaType', 'custom'])
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const PARAM = /^[A-Za-z_$][\w$]*$/

function fail (message: string): never {
  throw coded(new TypeError('fastify-api-versioning: ' + message), 'FST_API_VERSIONING_INVALID_OPTION')
}

function boolean (value: unknown, name: string): boolean {
  if (value === undefined) return false
  if (typeof value !== 'boolean') fail(`${name} must be a boolean`)
  return value
}

function names (value: unknown, name: string, pattern: RegExp): readonly string[] {
  if (value === undefined) return ['api-version']
  if (value === false) return []
  // Array.from makes the holes of a sparse array undefined, which `every` would skip.
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? Array.from(value as unknown[]) : null
  if (list === null || list.length === 0 || !list.every(item => typeof item === 'string' && pattern.test(item))) {
    fail(`versionReader.${name} must be false, a name or a non-empty array of names (got ${JSON.stringify(value)})`)
  }
  // Not frozen: V8's optimized code reads a frozen array's elements through a generic call (~70 instructions
  // each), and the readers read these names on every versioned request.
  return [...new Set((list as string[]).map(item => item.toLowerCase()))]
}

function reportOption (value: unknown): Pick<ResolvedOptions, 'reportApiVersions' | 'supportedHeader' | 'deprecatedHeader'> {
  const names = { supportedHeader: 'api-supported-versions', deprecatedHeader: 'api-deprecated-versions' }
  if (typeof value === 'boolean' || value === undefined) return { reportApiVersions: value === true, ...names }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`reportApiVersions must be a boolean or { supportedHeader?, deprecatedHeader? } (got ${messageOf(value)})`)
  for (const key of Object.keys(value)) {
    if (!(key in names)) fail(`unknown reportApiVersions option ${JSON.stringify(key)}`)
  }
  for (const key of ['supportedHeader', 'deprecatedHeader'] as const) {
    const name = (value as Record<string, unknown>)[key] ?? names[key]
    if (typeof name !== 'string' || !TOKEN.test(name)) fail(`reportApiVersions.${key} must be a header name (got ${JSON.stringify(name) ?? messageOf(name)})`)
    if (isHttpField(name)) fail(`reportApiVersions.${key} must not be ${JSON.stringify(name)}, a header HTTP gives a meaning of its own; name it for the versions, such as 'x-api-versions'`)
    names[key] = name.toLowerCase()
  }
  if (names.supportedHeader === names.deprecatedHeader) fail(`reportApiVersions.supportedHeader and deprecatedHeader must be two headers (both are ${JSON.stringify(names.supportedHeader)})`)
  return { reportApiVersions: true, ...names }
}

// The plugin's own headers are refused whether it reports versions or not: turning reporting on later would make
// one header say two things.
function servedHeader (value: unknown, reporting: Pick<ResolvedOptions, 'supportedHeader' | 'deprecatedHeader'>): string | null {
  if (value === undefined) return null
  if (typeof value !== 'string' || !TOKEN.test(value)) fail(`servedApiVersionHeader must be a header name, such as 'api-version' or 'x-api-version' (got ${JSON.stringify(value)})`)
  if (isHttpField(value)) fail(`servedApiVersionHeader must not be ${JSON.stringify(value)}, a header HTTP gives a meaning of its own; name it for the version, such as 'x-api-version'`)
  const name = value.toLowerCase()
  for (const [key, what] of [['supportedHeader', 'supported'], ['deprecatedHeader', 'deprecated']] as const) {
    if (name === reporting[key]) fail(`servedApiVersionHeader must not be ${JSON.stringify(value)}, which the plugin sends the ${what} versions in (reportApiVersions.${key}); name it for the version served, such as 'x-api-version'`)
  }
  return name
}

/** Checks every option, naming the one that is wrong, and fills in the defaults; `warn` hears of options without effect. */
export function resolveOptions (options: ApiVersioningOptions, warn: (message: string) => void): ResolvedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) fail(`options must be an object (got ${messageOf(options)})`)
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) fail(`unknown option ${JSON.stringify(key)}`)
  }

  const status = options.unsupportedApiVersionStatusCode ?? 400
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    fail(`unsupportedApiVersionStatusCode must be an integer from 400 to 599 (got ${JSON.stringify(status)})`)
  }

  const defaultText = options.defaultVersion ?? '1.0'
  const defaultVersion = typeof defaultText === 'string' ? ApiVersion.tryParse(defaultText) : null
  if (defaultVersion === null) fail(`defaultVersion must be a valid API version such as '1.0' (got ${JSON.stringify(defaultText)})`)
  if (!isDeclarable(defaultVersion)) fail(`defaultVersion must be visible ASCII, since it goes into headers (got ${JSON.stringify(defaultText)}): ${DECLARABLE}`)

  const base = options.problemTypeBase ?? DEFAULT_PROBLEM_TYPE_BASE
  if (typeof base !== 'string' || base === '' || /[#\s]/.test(base)) {
    fail(`problemTypeBase must be a non-empty URI without '#' or spaces (got ${JSON.stringify(base)})`)
  }

  const reader = options.versionReader === undefined ? {} : options.versionReader
  if (typeof reader !== 'object' || reader === null || Array.isArray(reader)) fail('versionReader must be an object')
  for (const key of Object.keys(reader)) {
    if (!READERS.has(key)) fail(`unknown versionReader option ${JSON.stringify(key)}`)
  }
  const queryNames = names(reader.query, 'query', TOKEN)
  const headerNames = names(reader.header, 'header', TOKEN)
  const segment = reader.urlSegment ?? 'apiVersion'
  if (segment !== false && (typeof segment !== 'string' || !PARAM.test(segment))) {
    fail(`versionReader.urlSegment must be false or a route parameter name (got ${JSON.stringify(segment)})`)
  }
  const mediaType = resolveMediaTypeOption(reader.mediaType)
  const custom = reader.custom ?? null
  if (custom !== null && typeof custom !== 'function') fail(`versionReader.custom must be a function (request) => a version text, an array of them or undefined (got ${messageOf(custom)})`)
  // The router picks a route synchronously: an async reader's version would come too late for every request.
  if (isAsyncFunction(custom)) fail('versionReader.custom must return the version synchronously, but it is an async function; read the version from the request without await')
  if (queryNames.length === 0 && headerNames.length === 0 && segment === false && mediaType === null && custom === null) {
    fail('versionReader must enable at least one of query, header, urlSegment, mediaType and custom')
  }

  const given = options.problemWriters ?? []
  const writers: ProblemWriter[] = Array.isArray(given) ? Array.from(given) : []
  if (!Array.isArray(given) || !writers.every(w => typeof w?.canWrite === 'function' && typeof w.write === 'function')) {
    fail('problemWriters must be an array of { canWrite(context), write(context) } objects')
  }
  const writerNames = writers.map((writer, i) => {
    // Which writer answers is decided before any writes: it cannot wait.
    if (isAsyncFunction(writer.canWrite)) fail(`problemWriters[${i}].canWrite must answer synchronously, but it is an async function; decide from the context without await`)
    if (writer.name !== undefined && (typeof writer.name !== 'string' || writer.name === '')) fail(`problemWriters[${i}].name must be a non-empty string (got ${JSON.stringify(writer.name) ?? typeof writer.name})`)
    return writer.name ?? `problemWriters[${i}]`
  })

  const now = options.now ?? Date.now
  if (typeof now !== 'function') fail(`now must be a function that returns the time in ms since the epoch, as Date.now does (got ${typeof now})`)
  let time: unknown
  try {
    time = now()
    if (droppedPromise(time)) time = 'a promise'
  } catch (error) {
    fail(`now must be a function that returns the time in ms since the epoch, as Date.now does (it threw: ${messageOf(error)})`)
  }
  if (typeof time !== 'number' || !Number.isFinite(time)) fail(`now must be a function that returns the time in ms since the epoch, as Date.now does (got a function returning ${messageOf(time)})`)
  const apiVersionSelector = resolveSelector(options.apiVersionSelector)
  const assume = boolean(options.assumeDefaultVersionWhenUnspecified, 'assumeDefaultVersionWhenUnspecified')
  if (apiVersionSelector !== 'default' && !assume) warn('fastify-api-versioning: apiVersionSelector is used only with assumeDefaultVersionWhenUnspecified: true')

  // In the order the options were checked before servedApiVersionHeader, which reads reportApiVersions' names.
  const problemDetails = boolean(options.problemDetails, 'problemDetails')
  const reporting = reportOption(options.reportApiVersions)
  return Object.freeze({
    problemDetails,
    ...reporting,
    assumeDefaultVersionWhenUnspecified: assume,
    defaultVersion,
    unsupportedApiVersionStatusCode: status,
    problemTypeBase: base,
    queryNames,
    headerNames,
    segmentName: segment === false ? null : segment,
    mediaType,
    customReader: custom,
    problemWriters: Object.freeze([...writers]),
    problemWriterNames: Object.freeze(writerNames),
    policies: resolvePolicies(options.policies, warn),
    apiVersionSelector,
    now,
    logApiVersion: boolean(options.logApiVersion, 'logApiVersion'),
    servedHeader: servedHeader(options.servedApiVersionHeader, reporting),
    telemetry: resolveTelemetryOption(options.telemetry, fail),
    versionList: resolveVersionList(options.versionChanges),
    compileEagerly: compileWhen(options.versionChangesCompile) === 'eager',
    webhooks: resolveWebhooks(options.webhooks)
  })
}

function compileWhen (value: unknown): 'lazy' | 'eager' {
  if (value === undefined || value === 'lazy' || value === 'eager') return value ?? 'lazy'
  return fail(`versionChangesCompile must be 'lazy' or 'eager' (got ${messageOf(value)})`)
}
