import type { onSendHookHandler } from 'fastify'
import type { ApiVersion } from '../api-version.js'
import type { VersionOutcome } from '../request/outcome.js'
import type { VersionLookup } from './constraint.js'

/**
 * What routing's hooks and declarations ask of a version's life (lifecycle/, which comes later in a request's
 * flow): the wiring hands it over.
 */
export interface RouteLifecycle {
  readonly retired: VersionLookup['retired']
  /** The enforced sunset of a version in ms, or null. */
  retiresAt (version: ApiVersion): number | null
  /**
   * The request's instant, from the clock read once a request, so that what is enforced and what is reported
   * agree; NaN when the clock fails, which leaves the error on the outcome.
   */
  timeOf (outcome: VersionOutcome): number
  /** The onSend hook of versioned routes that sends the policy headers of the version served, or null without policies. */
  readonly policyHeaders: onSendHookHandler | null
}
