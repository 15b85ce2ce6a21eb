import type { FastifyBaseLogger, FastifyRequest, onSendHookHandler } from 'fastify'
import type { ApiVersion } from '../api-version.js'
import type { OtelSpanHooks, RouteCounting, RouteMetrics, VersionedCounting } from '../routing/route-counting.js'
import type { RouteDeclaration } from '../routing/route-table.js'
import type { PathSegment } from '../request/path-segment.js'
import { AMBIGUOUS, INVALID, NONE, type VersionOutcome } from '../request/outcome.js'
import { kOutcome, type RawRequest } from '../request/request-reader.js'
import { failureLog } from '../util/failure-log.js'
import { NOW_OPTION } from '../lifecycle/clock.js'
import type { Cell, Telemetry, TelemetryAttributes } from './telemetry.js'

/** What became of a request's version (`api_version.outcome`). */
export type VersionOutcomeName = 'served' | 'unsupported' | 'invalid' | 'ambiguous' | 'unspecified' | 'retired' | 'error'

export interface MetricsParts {
  readonly telemetry: Telemetry
  /** A request without a version gets one assumed: a missing version that no route takes is Unsupported. */
  readonly assumes: boolean
  /** The declared form of each version some route declares (`1` and `1.0` are one key): what neutral routes serve. */
  readonly declaredForms: ReadonlyMap<string, string>
  /** True when a deprecation policy has deprecated the version at the request's time; an error if the clock failed. */
  readonly deprecatedByPolicy: (version: ApiVersion, outcome: VersionOutcome) => boolean | Error
  /** True when the version has a deprecation policy: only then can deprecatedByPolicy say true. */
  readonly hasDeprecationPolicy: (version: ApiVersion) => boolean
  /** The outcome of a neutral route's request, read if an earlier hook answered before the route read it. */
  readonly neutralOutcome: (raw: RawRequest, segment: PathSegment | null) => VersionOutcome
  readonly log: FastifyBaseLogger
}

/** A request of an app that @fastify/otel instruments (its request decorator). */
type OtelRequest = FastifyRequest & { opentelemetry (): { span?: { setAttribute?: unknown } | null } }

/**
 * What counts requests of versioned, hidden and version-neutral routes (`api_version.requests`), once each, with
 * attributes from the app's declarations only (a requested text nobody declared is never one), and names the
 * served version on the request's span. A versioned route that no other route of its method and path shares
 * with other constraints is counted by the router's store as it picks the route (`atRouting`): every request it
 * takes, answered, hijacked or abandoned, with no hook at all. The others are counted in `onSend`, which every
 * response passes, even one whose client leaves before it ends; a reply the handler hijacked (server-sent events,
 * a stream of its own) skips `onSend`, so `onResponse` counts what `onSend` did not.
 */
export function createRequestMetrics (parts: MetricsParts): RouteMetrics {
  const { telemetry, assumes, declaredForms, deprecatedByPolicy, neutralOutcome } = parts
  const clockFailed = failureLog('error', `fastify-api-versioning: telemetry could not read ${NOW_OPTION}; the request is counted as not deprecated`)
  const spanFailed = failureLog('warn', 'fastify-api-versioning: telemetry failed to set the served version on the request\'s span')

  // The series of one route: by outcome and, with a version, by its key and deprecation. Each adds one to a number
  // (see Tally); nothing is hashed, compared or made per request but a map lookup by a version's key.
  function recorder (url: string) {
    const plain = new Map<VersionOutcomeName, Tally>()
    const withVersion = { served: new Map<string, [Tally, Tally]>(), retired: new Map<string, [Tally, Tally]>() }
    function record (request: FastifyRequest, outcome: VersionOutcomeName): void {
      let tally = plain.get(outcome)
      if (tally === undefined) plain.set(outcome, tally = new Tally(telemetry, { 'http.route': url, 'api_version.outcome': outcome }))
      tally.add(request.method)
    }
    function recordVersion (request: FastifyRequest, outcome: 'served' | 'retired', key: string, version: string, deprecated: boolean, span: boolean): void {
      const byKey = withVersion[outcome]
      let tallies = byKey.get(key)
      if (tallies === undefined) byKey.set(key, tallies = versionTallies(url, outcome, version))
      tallies[deprecated ? 1 : 0].add(request.method)
      if (span) onSpan(version)
    }
    return { record, recordVersion }
  }

  function versionTallies (url: string, outcome: 'served' | 'retired', version: string): [Tally, Tally] {
    const attributes = (deprecated: boolean): TelemetryAttributes => ({ 'http.route': url, 'api_version.outcome': outcome, api_version: version, 'api_version.deprecated': deprecated })
    return [new Tally(telemetry, attributes(false)), new Tally(telemetry, attributes(true))]
  }

  // The instrumentation's span is the app's code: what it throws is logged, never the request's failure.
  function onSpan (version: string): void {
    try {
      telemetry.activeSpan()?.setAttribute('api_version', version)
    } catch (error) {
      spanFailed(parts.log, error)
    }
  }

  /**
   * @fastify/otel starts its request span in its onRequest hook, after routing, and ends it in an onSend hook it
   * puts last on every route; the hooks it wraps run in spans of their own. So where it is registered, the served
   * version goes on its request span by name, never on a hook's span or an ended one: from the route's first
   * `onRequest` hook after the plugin's own (before the route's hooks and handler, which may hijack the reply and
   * pass no other hook), and again from its first `onSend` hook, which a response an earlier hook answered passes
   * (the same value twice changes nothing). A request it leaves out (a route's `otel: false`, an ignored path,
   * the instrumentation off) has no request span: the active span is named instead, as without it.
   */
  function otelSpan (textOf: (key: string) => string | undefined, servedOf: (request: FastifyRequest) => ApiVersion | null): OtelSpanHooks {
    function name (request: FastifyRequest): void {
      const served = servedOf(request)
      const text = served === null ? undefined : textOf(served.key)
      if (text === undefined) return
      try {
        const span = (request as OtelRequest).opentelemetry().span
        if (typeof span?.setAttribute === 'function') span.setAttribute('api_version', text)
        else onSpan(text)
      } catch (error) {
        spanFailed(request.log, error)
      }
    }
    return {
      onRequest: function apiVersionSpan (request, reply, done) {
        name(request)
        done()
      },
      onSend: function apiVersionSpanAnswered (request, reply, payload, done) {
        name(request)
        done(null, payload)
      }
    }
  }

  // Where only the count needs the clock (while routing, or after the response was decided), its failure fails
  // nothing: the request stays served, its deprecation unknown.
  function deprecatedAt (log: FastifyBaseLogger, version: ApiVersion, outcome: VersionOutcome): boolean {
    const deprecated = deprecatedByPolicy(version, outcome)
    if (typeof deprecated === 'boolean') return deprecated
    clockFailed(log, deprecated)
    return false
  }

  /**
   * What the hidden route answers (the version problem, or a server error, as problem-choice decides it), or what
   * a neutral route refuses: a retired version is named, as declared (who still calls it is what the count is for).
   */
  function unserved (request: FastifyRequest, record: ReturnType<typeof recorder>, outcome: VersionOutcome): void {
    if (outcome.retired && outcome.error === null) {
      const version = outcome.version as ApiVersion
      return record.recordVersion(request, 'retired', version.key, declaredForms.get(version.key) as string, deprecatedAt(request.log, version, outcome), false)
    }
    record.record(request, unservedName(outcome))
  }

  function unservedName (outcome: VersionOutcome): VersionOutcomeName {
    if (outcome.error !== null) return 'error'
    switch (outcome.kind) {
      case AMBIGUOUS: return 'ambiguous'
      case INVALID: return 'invalid'
      case NONE: return assumes ? 'unsupported' : 'unspecified'
      default: return 'unsupported'
    }
  }

  /**
   * The hooks of one route from the function that counts its request: `onSend` counts and marks the request,
   * `onResponse` counts one `onSend` never saw.
   */
  function counting (count: (request: FastifyRequest) => boolean | void, span: OtelSpanHooks | null = null): RouteCounting {
    return {
      span,
      onSend: function apiVersionTelemetry (request, reply, payload, done) {
        const outcome = (request.raw as RawRequest)[kOutcome]
        // Not counted (false): a version problem that a hook of the route's counts as the hidden route would.
        if (outcome?.counted !== true && count(request) !== false) {
          ;((request.raw as RawRequest)[kOutcome] as VersionOutcome).counted = true
        }
        done(null, payload)
      },
      onResponse: function apiVersionTelemetryHijacked (request, reply, done) {
        if ((request.raw as RawRequest)[kOutcome]?.counted !== true) count(request)
        done()
      }
    }
  }

  /**
   * For a version route, named by its versions as it declares them (deprecated there or not). The router marks the
   * version served, except on a route with other constraints, whose own hook does it: where an earlier hook
   * answered before that one, the route serves the version the router read.
   */
  function versioned (url: string, declaration: RouteDeclaration, otel: boolean): VersionedCounting {
    // Its served series, laid out now: a request only finds its version's, and asks the clock only where a
    // deprecation policy may have deprecated it since.
    interface Form { readonly text: string, readonly deprecated: boolean, readonly dated: boolean, readonly tallies: [Tally, Tally] }
    const forms = new Map<string, Form>()
    const add = (v: ApiVersion, deprecated: boolean): void => {
      forms.set(v.key, { text: String(v), deprecated, dated: !deprecated && parts.hasDeprecationPolicy(v), tallies: versionTallies(url, 'served', String(v)) })
    }
    for (const v of declaration.supported) add(v, false)
    for (const v of declaration.deprecated) add(v, true)
    // Clients send the same version again and again, and the parse cache gives the same ApiVersion for it.
    let lastVersion: ApiVersion | null = null
    let lastForm: Form | undefined
    // While routing, the active span is one that began before (an HTTP server's); in a hook under @fastify/otel,
    // it would be the hook's own.
    function count (method: string, log: FastifyBaseLogger, outcome: VersionOutcome, version: ApiVersion, span: boolean): void {
      if (version !== lastVersion) {
        lastForm = forms.get(version.key)
        lastVersion = version
      }
      const form = lastForm as Form
      if (telemetry.counts) form.tallies[form.deprecated || (form.dated && deprecatedAt(log, version, outcome)) ? 1 : 0].add(method)
      if (span) onSpan(form.text)
    }
    const hooks = counting(function countVersioned (request) {
      const version = servedOrRead(request)
      if (version === null) return false
      count(request.method, request.log, (request.raw as RawRequest)[kOutcome] as VersionOutcome, version, !otel)
    }, otel ? otelSpan(key => forms.get(key)?.text, servedOrRead) : null)
    return {
      ...hooks,
      // Before any hook: no request's logger yet, the app's.
      atRouting: function countAtRouting (req, outcome, version) { count(req.method as string, parts.log, outcome, version, true) }
    }
  }

  // A versioned route's version: the one it serves, or, where an earlier hook answered before a route with other
  // constraints marked it, the one the router read.
  function servedOrRead (request: FastifyRequest): ApiVersion | null {
    const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
    // A version problem that a versionChanges route answers itself is counted as the hidden route counts it.
    return outcome.fallback ? null : outcome.served ?? outcome.version
  }

  function hidden (url: string): onSendHookHandler {
    const record = recorder(url)
    return counting(request => unserved(request, record, (request.raw as RawRequest)[kOutcome] as VersionOutcome)).onSend
  }

  // A neutral route serves no version, or one that some route declares; anything else is its problem.
  function neutral (url: string, segment: PathSegment | null, otel: boolean): RouteCounting {
    const record = recorder(url)
    const outcomeOf = (request: FastifyRequest): VersionOutcome => (request.raw as RawRequest)[kOutcome] ?? neutralOutcome(request.raw, segment)
    return counting(function countNeutral (request) {
      const outcome = outcomeOf(request)
      const served = outcome.served
      if (served !== null) record.recordVersion(request, 'served', served.key, declaredForms.get(served.key) as string, deprecatedAt(request.log, served, outcome), !otel)
      else if (outcome.kind === NONE && outcome.error === null) record.record(request, 'served')
      else unserved(request, record, outcome)
    }, otel ? otelSpan(key => declaredForms.get(key), request => outcomeOf(request).served) : null)
  }

  return { versioned, hidden, neutral }
}

/**
 * The requests of one series but their method, by method (a route's methods are few: a scan of them is cheaper
 * than a lookup). A request adds one to its cell; the counter reads the cells when the SDK collects.
 */
class Tally {
  private readonly methods: string[] = []
  private readonly cells: Cell[] = []
  constructor (private readonly telemetry: Telemetry, private readonly attributes: TelemetryAttributes) {}

  add (method: string): void {
    const methods = this.methods
    for (let i = 0; i < methods.length; i++) {
      if (methods[i] === method) {
        this.cells[i].count++
        return
      }
    }
    const cell = this.telemetry.cellOf({ 'http.request.method': method, ...this.attributes })
    methods.push(method)
    this.cells.push(cell)
    cell.count++
  }
}
