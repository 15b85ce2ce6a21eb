import type { IncomingMessage } from 'node:http'
import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler, preParsingHookHandler } from 'fastify'
import { ApiVersion } from '../api-version.js'
import { withMediaTypeVersion, type MediaTypeConfig } from '../request/media-type.js'
import { NONE, ONE, type VersionOutcome } from '../request/outcome.js'
import type { ApiVersionProblem } from '../problems/problems.js'
import type { ReaderConfig } from '../request/readers.js'
import type { PathEntry } from './route-table.js'

/**
 * Where a request's outcome is kept: read once, by the router's constraint store or a route's first hook. A
 * registry symbol, as every key the package leaves on shared objects, so that its two builds agree.
 */
export const kOutcome = Symbol.for('fastify-api-versioning.outcome')
export type RawRequest = IncomingMessage & { [kOutcome]?: VersionOutcome }

const SUPPORTED_HEADER = 'api-supported-versions'
const DEPRECATED_HEADER = 'api-deprecated-versions'

/** What the request-time hooks need, built once from the resolved options. */
export interface HookContext {
  readonly reportApiVersions: boolean
  /** The `Vary` value for the version headers, or null when no header is read. */
  readonly vary: string | null
  /** Every version some route declares: what version-neutral routes accept. */
  readonly declared: ReadonlySet<string>
  /** The request's instant, read once a request (see Lifecycle.timeOf). */
  timeOf (outcome: VersionOutcome): number
  /** Adds `apiVersion` to the request's log bindings. */
  readonly logApiVersion: boolean
  /** Sends a retired version's Sunset and Link headers. */
  retirementHeaders (reply: FastifyReply, outcome: VersionOutcome): void
  outcomeOf (raw: RawRequest, config: ReaderConfig): VersionOutcome
  problemFor (outcome: VersionOutcome, raw: RawRequest): ApiVersionProblem
  sendProblem (request: FastifyRequest, reply: FastifyReply, problem: ApiVersionProblem): void
}

/**
 * The hooks of versioned, version-neutral and hidden routes. The router's constraint store reads a request's
 * version while it picks the route and keeps it on the raw request, where `request.apiVersion` reads it: a
 * versioned route needs no hook for it. The version headers go on in an `onSend` hook, the one step every
 * response of the route passes (its handler's, its hooks', app-wide hooks', errors), and the cheapest hook
 * Fastify runs. A version problem is answered from the route's first `preParsing` hook: after every
 * `onRequest` hook (app-wide, plugins', the route's own), so rate limits, authentication and CORS apply to it,
 * and before the body is read, so a body that is too large or malformed cannot hide it.
 */
export function createRouteHooks (ctx: HookContext) {
  const { vary, reportApiVersions } = ctx

  // After any Vary another hook or plugin set (CORS adds Origin), without a name twice, and never after `*`.
  // Asked with hasHeader: a getHeader('vary') here would make the getHeader('content-type') of Fastify's
  // reply.send, the same function, read headers by a computed name the slow way on every request.
  function addVary (reply: FastifyReply, vary: string): void {
    if (!reply.hasHeader('vary')) {
      reply.header('vary', vary)
      return
    }
    const existing = reply.getHeader('vary') as string | string[] | number
    reply.header('vary', mergeVary(Array.isArray(existing) ? existing.join(', ') : String(existing), vary))
  }

  /** The headers of every response of a versioned route (`path`) or a neutral one (null); null when none. */
  function versionHeaders (path: PathEntry | null): onSendHookHandler | null {
    if (path === null || !reportApiVersions) {
      if (vary === null) return null
      return function (request, reply, payload, done) {
        addVary(reply, vary)
        done(null, payload)
      }
    }
    return function (request, reply, payload, done) {
      if (vary !== null) addVary(reply, vary)
      let reported = path.reported
      if (path.timed) {
        // An enforced sunset changes what is reported: at the request's time, or nothing on the 500 of a clock
        // that failed (while routing, or here, which answers with its error).
        const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
        if (outcome.error !== null) return done(null, payload)
        const time = ctx.timeOf(outcome)
        if (outcome.error !== null) return done(outcome.error)
        reported = path.at(time)
      }
      if (reported.supported !== null) reply.header(SUPPORTED_HEADER, reported.supported)
      if (reported.deprecated !== null) reply.header(DEPRECATED_HEADER, reported.deprecated)
      done(null, payload)
    }
  }

  /**
   * For a versioned route that carries other constraints (a host), whose router node may reject a request the
   * store has read: there the store leaves `apiVersion` to the route that takes the request (`setsVersion`), the
   * hidden route beside it included. Also where a versioned route's version goes into the log bindings (`logs`),
   * for every later log line of the request; never the hidden route's, which serves no version.
   */
  function versioned (config: ReaderConfig, setsVersion: boolean, logs: boolean): onRequestHookHandler {
    return function (request, reply, done) {
      const outcome = ctx.outcomeOf(request.raw, config)
      if (setsVersion) outcome.served = outcome.version
      if (logs && outcome.served !== null) logVersion(request, outcome, outcome.served)
      done()
    }
  }

  /**
   * With `logApiVersion`, on versioned routes (`bound`: with other constraints, see `versioned`) and neutral ones
   * (`neutralConfig`): a response that an earlier onRequest hook sent (a 401 from authentication) still names the
   * version the route serves in its "request completed" line.
   */
  function logServed (bound: boolean, neutralConfig: ReaderConfig | null): onSendHookHandler {
    return function (request, reply, payload, done) {
      const raw = request.raw as RawRequest
      // The router reads a versioned route's version; a neutral route reads it in its own onRequest hook, which
      // an earlier hook may have preempted.
      const outcome = raw[kOutcome] ?? neutralOutcome(raw, neutralConfig as ReaderConfig)
      const served = outcome.logged ? null : bound ? outcome.version : outcome.served
      if (served !== null) logVersion(request, outcome, served)
      done(null, payload)
    }
  }

  // A neutral route serves no version, or one that some route declares.
  function neutralOutcome (raw: RawRequest, config: ReaderConfig): VersionOutcome {
    const outcome = ctx.outcomeOf(raw, config)
    outcome.served = outcome.kind === ONE && ctx.declared.has((outcome.version as ApiVersion).key) ? outcome.version : null
    return outcome
  }

  function neutral (config: ReaderConfig): onRequestHookHandler {
    return function (request, reply, done) {
      const outcome = neutralOutcome(request.raw, config)
      if (ctx.logApiVersion && outcome.served !== null) logVersion(request, outcome, outcome.served)
      done()
    }
  }

  // A neutral route takes no version, or one that some route declares; anything else is a problem.
  const neutralCheck: preParsingHookHandler = function (request, reply, payload, done) {
    const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
    if (outcome.kind === NONE || outcome.served !== null) return done(null, payload)
    ctx.sendProblem(request, reply, ctx.problemFor(outcome, request.raw))
  }

  // The hidden route's first preParsing hook, and its handler (never reached: the hook always answers): a version
  // problem, or the error of a clock that failed while routing.
  function answerProblem (request: FastifyRequest, reply: FastifyReply): void {
    const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
    if (outcome.error !== null) {
      reply.send(outcome.error)
      return
    }
    ctx.retirementHeaders(reply, outcome)
    ctx.sendProblem(request, reply, ctx.problemFor(outcome, request.raw))
  }

  /**
   * The routes of `get('')` under a prefix take `/prefix` only, those of `get('/')` take `/prefix/` as well, and
   * Fastify tells the two apart only after the hooks that see them have run. So the hidden route of a prefix's
   * root takes both, and sends `/prefix/` to the not-found handler unless one of its routes takes it.
   */
  function prefixRoot (root: { slash: boolean }): onRequestHookHandler {
    return function (request, reply, done) {
      const url = request.url
      const query = url.indexOf('?')
      const end = query === -1 ? url.length : query
      if (!root.slash && url.charCodeAt(end - 1) === 47) return reply.callNotFound()
      done()
    }
  }

  // A success response to a version given in a media type names the version in its own media type, as ASP.NET
  // does (only on success: a problem stays application/problem+json): as the client spelled it (`2` stays `2`),
  // but never longer than the version's own form (`02.00` is `2.0`), unless a hook or handler assigned
  // request.apiVersion another version (or none, or, from plain JS, something else).
  function mediaTypeResponse (config: MediaTypeConfig): onSendHookHandler {
    return function (request, reply, payload, done) {
      const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
      const type = reply.getHeader('content-type')
      if (outcome.fromMediaType && outcome.kind === ONE && reply.statusCode < 300 && typeof type === 'string') {
        const served: unknown = request.apiVersion
        const text = !(served instanceof ApiVersion) ? null : served === outcome.served ? shortest(outcome.text as string, served) : served.toString()
        if (text !== null) reply.header('content-type', withMediaTypeVersion(type, text, config, outcome.source))
      }
      done(null, payload)
    }
  }

  return { versionHeaders, versioned, logServed, neutral, neutralCheck, answerProblem, prefixRoot, mediaTypeResponse }
}

function shortest (spelled: string, version: ApiVersion): string {
  const own = version.toString()
  return spelled.length > own.length ? own : spelled
}

function mergeVary (existing: string, vary: string): string {
  const names = existing.split(',').map(name => name.trim().toLowerCase())
  if (names.includes('*')) return existing
  const missing = vary.split(', ').filter(name => !names.includes(name))
  return missing.length === 0 ? existing : `${existing}, ${missing.join(', ')}`
}

// So that Fastify's "request completed" line says which version was served; once a request.
function logVersion (request: FastifyRequest, outcome: VersionOutcome, version: ApiVersion): void {
  outcome.logged = true
  const log = request.log as FastifyRequest['log'] & { setBindings?: (bindings: object) => void }
  if (typeof log.setBindings === 'function') log.setBindings({ apiVersion: String(version) })
}
