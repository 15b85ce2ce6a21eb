import type { IncomingMessage } from 'node:http'
import type { FastifyBaseLogger, FastifyReply } from 'fastify'
import { ApiVersion } from '../api-version.js'
import type { VersionOutcome } from '../request/outcome.js'
import type { ReaderOptions } from '../request/request-reader.js'
import type { NodeVersions, VersionLookup } from '../routing/constraint.js'
import type { RouteLifecycle } from '../routing/route-lifecycle.js'
import { failureLog } from '../util/failure-log.js'
import { readClock } from './clock.js'
import type { VersionPolicy } from './policies.js'
import { appendLink } from '../util/policy-values.js'
import { selectOverTime, selectPerRequest, type Selector, type TimedSelection } from './selectors.js'

/** A version's life: which version a request without one gets, when a version retires, and its policy headers. */
export interface Lifecycle extends RouteLifecycle {
  readonly select: VersionLookup['select']
  /** Sends a retired version's Sunset and Link headers with the problem that refuses it. */
  retirementHeaders (reply: FastifyReply, outcome: VersionOutcome): void
  /**
   * True when the version's deprecation policy has deprecated it at the request's time (from its date on, or
   * always without one), or the error of a clock that failed: the caller logs it, as the request was served and
   * the failure is no error of its.
   */
  deprecatedByPolicy (version: ApiVersion, outcome: VersionOutcome): boolean | Error
}

/** The options a version's life depends on (see options.ts). */
export interface LifecycleOptions extends Pick<ReaderOptions, 'defaultVersion' | 'assumeDefaultVersionWhenUnspecified'> {
  readonly policies: ReadonlyMap<string, VersionPolicy>
  readonly apiVersionSelector: Selector
  readonly now: () => number
}

export function createLifecycle (options: LifecycleOptions, log: FastifyBaseLogger): Lifecycle {
  const { policies, apiVersionSelector: selector, defaultVersion, now } = options
  const enforced = new Map<string, number>()
  for (const [key, policy] of policies) if (policy.enforce) enforced.set(key, policy.sunsetAt as number)
  const retiresAt = (version: ApiVersion): number | null => enforced.get(version.key) ?? null
  // One lookup per versioned request when some policy enforces, and the clock only for an enforced version;
  // nothing otherwise. A failing clock (NaN) retires: the request goes to the hidden route, which answers it.
  const retired = enforced.size === 0
    ? null
    : (version: ApiVersion, outcome: VersionOutcome): boolean => {
        const at = enforced.get(version.key)
        return at !== undefined && !(timeOf(outcome) < at)
      }

  function timeOf (outcome: VersionOutcome): number {
    if (!Number.isNaN(outcome.time) || outcome.error !== null) return outcome.time
    const time = readClock(now, 'fastify-api-versioning')
    if (typeof time === 'number') return (outcome.time = time)
    outcome.error = time
    return NaN
  }

  return {
    select: options.assumeDefaultVersionWhenUnspecified ? selectorFor(selector) : null,
    retired,
    retiresAt,
    timeOf,
    policyHeaders: policies.size === 0
      ? null
      : function apiVersionPolicy (request, reply, payload, done) {
        // Whatever a hook of a plain-JS app assigned to apiVersion: only an ApiVersion has a policy.
        const version: unknown = request.apiVersion
        const policy = version instanceof ApiVersion ? policies.get(version.key) : undefined
        if (policy !== undefined) sendPolicy(reply, policy, true)
        done(null, payload)
      },
    retirementHeaders (reply, outcome) {
      if (outcome.retired) sendPolicy(reply, policies.get((outcome.version as ApiVersion).key) as VersionPolicy, false)
    },
    deprecatedByPolicy (version, outcome) {
      const deprecation = policies.get(version.key)?.deprecationPolicy ?? null
      if (deprecation === null) return false
      if (deprecation.date === null) return true
      if (Number.isNaN(outcome.time)) {
        const time = readClock(now, 'fastify-api-versioning')
        if (typeof time !== 'number') return time
        outcome.time = time
      }
      return deprecation.date.getTime() <= outcome.time
    }
  }

  // 'default' needs no selector: the outcome step assumes defaultVersion everywhere.
  function selectorFor (selector: Selector): VersionLookup['select'] {
    if (selector === 'default') return null
    if (typeof selector === 'function') {
      // Any request without a version runs it: a selector that fails cannot be made to flood the log.
      const failed = failureLog('error', 'fastify-api-versioning: apiVersionSelector failed; the request is answered as Unsupported')
      const onError = (error: Error): void => failed(log, error)
      return (req: IncomingMessage, node: NodeVersions, outcome: VersionOutcome) => {
        let [supported, deprecated] = (node.selection ??= [Object.freeze([...node.supported]), Object.freeze([...node.deprecated])]) as [readonly ApiVersion[], readonly ApiVersion[]]
        // A version past its enforced sunset is not offered: it is implemented no more.
        if (retired !== null) {
          supported = Object.freeze(supported.filter(v => !retired(v, outcome)))
          deprecated = Object.freeze(deprecated.filter(v => !retired(v, outcome)))
          if (outcome.error !== null) return null
        }
        return selectPerRequest(selector, req, supported, deprecated, onError)
      }
    }
    // Resolved once per router node; with enforced sunsets, a pick per period.
    return (req: IncomingMessage, node: NodeVersions, outcome: VersionOutcome) => {
      const steps = (node.selection ??= selectOverTime(selector, node.supported, node.deprecated, defaultVersion, retiresAt)) as TimedSelection[]
      if (steps.length === 1) return steps[0].version
      const time = timeOf(outcome)
      if (Number.isNaN(time)) return null
      let i = steps.length - 1
      while (steps[i].from > time) i--
      return steps[i].version
    }
  }
}

// A route's own Deprecation and Sunset stay; our links go after its own.
function sendPolicy (reply: FastifyReply, policy: VersionPolicy, deprecation: boolean): void {
  if (deprecation && policy.deprecation !== null && !reply.hasHeader('deprecation')) reply.header('deprecation', policy.deprecation)
  if (policy.sunset !== null && !reply.hasHeader('sunset')) reply.header('sunset', policy.sunset)
  if (policy.links !== null) reply.header('link', appendLink(reply.getHeader('link'), policy.links))
}
