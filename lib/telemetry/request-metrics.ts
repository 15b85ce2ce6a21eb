import type { FastifyBaseLogger, FastifyRequest, onResponseHookHandler, onSendHookHandler } from 'fastify'
import type { ApiVersion } from '../api-version.js'
import type { RouteDeclaration } from '../routing/route-table.js'
import type { PathSegment } from '../request/path-segment.js'
import { AMBIGUOUS, INVALID, NONE, type VersionOutcome } from '../request/outcome.js'
import { kOutcome, type RawRequest } from '../request/request-reader.js'
import { failureLog } from '../util/failure-log.js'
import { isThenable } from '../util/is-thenable.js'
import type { Telemetry } from './telemetry.js'

/** What became of a request's version (`api_version.outcome`). */
export type VersionOutcomeName = 'served' | 'unsupported' | 'invalid' | 'ambiguous' | 'unspecified' | 'retired' | 'error'

type Attributes = Record<string, string | boolean>

export interface MetricsParts {
  readonly telemetry: Telemetry
  /** A request without a version gets one assumed: a missing version that no route takes is Unsupported. */
  readonly assumes: boolean
  /** The declared form of each version some route declares (`1` and `1.0` are one key): what neutral routes serve. */
  readonly declaredForms: ReadonlyMap<string, string>
  /** True when a deprecation policy has deprecated the version at the request's time; an error if the clock failed. */
  readonly deprecatedByPolicy: (version: ApiVersion, outcome: VersionOutcome) => boolean | Error
  /** The outcome of a neutral route's request, read if an earlier hook answered before the route read it. */
  readonly neutralOutcome: (raw: RawRequest, segment: PathSegment | null) => VersionOutcome
  readonly log: FastifyBaseLogger
}

/** The hooks that count the requests of one route (see createRequestMetrics). */
export interface RouteCounting {
  readonly onSend: onSendHookHandler
  readonly onResponse: onResponseHookHandler
}

/**
 * The hooks that count requests of versioned, hidden and version-neutral routes (`api_version.requests`), once
 * each, with attributes from the app's declarations only (a requested text nobody declared is never one), and that
 * name the served version on the request's span. A request is counted in `onSend`, which every response passes,
 * even one whose client leaves before it ends; a reply the handler hijacked (server-sent events, a stream of its
 * own) skips `onSend`, so `onResponse` counts what `onSend` did not. The counter is the app's code: what it throws
 * is logged once, never the request's failure.
 */
export type RequestMetrics = ReturnType<typeof createRequestMetrics>

export function createRequestMetrics (parts: MetricsParts) {
  const { telemetry, assumes, declaredForms, deprecatedByPolicy, neutralOutcome } = parts
  const counterFailed = failureLog('warn', 'fastify-api-versioning: telemetry failed to record a request')
  const clockFailed = failureLog('error', 'fastify-api-versioning: telemetry could not read the now option (the clock of enforced sunsets); the request is counted as not deprecated')
  const fail = (error: unknown): void => counterFailed(parts.log, error)

  // Each route keeps the attribute objects it has used: their number is bounded by its methods and versions.
  function recorder (url: string) {
    const cache = new Map<string, Attributes>()
    return function record (request: FastifyRequest, outcome: VersionOutcomeName, version: string | null, deprecated: boolean): void {
      const key = `${request.method} ${outcome} ${version ?? ''} ${deprecated}`
      let attributes = cache.get(key)
      if (attributes === undefined) {
        attributes = { 'http.request.method': request.method, 'http.route': url, 'api_version.outcome': outcome }
        if (version !== null) Object.assign(attributes, { api_version: version, 'api_version.deprecated': deprecated })
        cache.set(key, attributes)
      }
      try {
        // Typed void, but the app's: a promise it returns may reject.
        const added: unknown = telemetry.counter.add(1, attributes)
        if (isThenable(added)) Promise.resolve(added).catch(fail)
      } catch (error) {
        fail(error)
      }
      if (version === null || outcome !== 'served') return
      // Apart, so that a failing counter still leaves the version on the span, and the other way round.
      try {
        telemetry.activeSpan()?.setAttribute('api_version', version)
      } catch (error) {
        fail(error)
      }
    }
  }

  // The clock can fail only here, after the response was decided: the request stays served, its deprecation unknown.
  function deprecatedAt (request: FastifyRequest, version: ApiVersion, outcome: VersionOutcome): boolean {
    const deprecated = deprecatedByPolicy(version, outcome)
    if (typeof deprecated === 'boolean') return deprecated
    clockFailed(request.log, deprecated)
    return false
  }

  /**
   * What the hidden route answers (the version problem, or a server error, as problem-choice decides it), or what
   * a neutral route refuses: a retired version is named, as declared (who still calls it is what the count is for).
   */
  function unserved (request: FastifyRequest, record: ReturnType<typeof recorder>, outcome: VersionOutcome): void {
    if (outcome.retired && outcome.error === null) {
      const version = outcome.version as ApiVersion
      return record(request, 'retired', declaredForms.get(version.key) as string, deprecatedAt(request, version, outcome))
    }
    record(request, unservedName(outcome), null, false)
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
  function counting (count: (request: FastifyRequest) => void): RouteCounting {
    return {
      onSend: function apiVersionTelemetry (request, reply, payload, done) {
        const outcome = (request.raw as RawRequest)[kOutcome]
        if (outcome?.counted !== true) {
          count(request)
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
  function versioned (url: string, declaration: RouteDeclaration): RouteCounting {
    const record = recorder(url)
    const forms = new Map<string, { text: string, deprecated: boolean }>()
    for (const v of declaration.supported) forms.set(v.key, { text: String(v), deprecated: false })
    for (const v of declaration.deprecated) forms.set(v.key, { text: String(v), deprecated: true })
    return counting(function countVersioned (request) {
      const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
      const version = (outcome.served ?? outcome.version) as ApiVersion
      const form = forms.get(version.key) as { text: string, deprecated: boolean }
      record(request, 'served', form.text, form.deprecated || deprecatedAt(request, version, outcome))
    })
  }

  function hidden (url: string): onSendHookHandler {
    const record = recorder(url)
    return counting(request => unserved(request, record, (request.raw as RawRequest)[kOutcome] as VersionOutcome)).onSend
  }

  // A neutral route serves no version, or one that some route declares; anything else is its problem.
  function neutral (url: string, segment: PathSegment | null): RouteCounting {
    const record = recorder(url)
    return counting(function countNeutral (request) {
      const raw = request.raw as RawRequest
      const outcome = raw[kOutcome] ?? neutralOutcome(raw, segment)
      const served = outcome.served
      if (served !== null) record(request, 'served', declaredForms.get(served.key) as string, deprecatedAt(request, served, outcome))
      else if (outcome.kind === NONE && outcome.error === null) record(request, 'served', null, false)
      else unserved(request, record, outcome)
    })
  }

  return { versioned, hidden, neutral }
}
