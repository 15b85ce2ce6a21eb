import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler, preParsingHookHandler } from 'fastify'
import { ApiVersion } from '../api-version.js'
import { withMediaTypeVersion, type MediaTypeConfig } from '../request/media-type.js'
import { MEDIA_TYPE, NONE, ONE, type VersionOutcome } from '../request/outcome.js'
import type { PathSegment } from '../request/path-segment.js'
import type { EnterOlder } from './route-changes.js'
import { sentHook } from './sent-hook.js'
import { sourceOfServed } from '../request/source.js'
import { kOutcome, type RawRequest, type ReaderOptions, type RequestReader } from '../request/request-reader.js'
import type { RouteLifecycle } from './route-lifecycle.js'
import type { PathEntry } from './route-table.js'
import { logSafely } from '../util/failure-log.js'

/** The options the request-time hooks read (see options.ts). */
export interface HookOptions extends Pick<ReaderOptions, 'headerNames' | 'mediaType'> {
  readonly reportApiVersions: boolean
  /** The names of the two version headers, lower-case. */
  readonly supportedHeader: string
  readonly deprecatedHeader: string
  readonly logApiVersion: boolean
  /** The header that names the version served, lower-case; null when off. */
  readonly servedHeader: string | null
}

/**
 * Answers a request that no route serves a version to, whose outcome has no error (problems/, which comes later
 * in a request's flow, writes it: the wiring hands it over).
 */
export type AnswerProblem = (outcome: VersionOutcome, request: FastifyRequest, reply: FastifyReply) => void

/** What the request-time hooks use, built once at start-up. */
export interface HookParts {
  readonly options: HookOptions
  /**
   * The declared form of every version some route declares (`1` and `1.0` are one key): what version-neutral
   * routes accept, and how their logs name it.
   */
  readonly forms: ReadonlyMap<string, string>
  /** The versions of every route: what a version-neutral route's Unsupported reports (spec, rule 3). */
  readonly everywhere: PathEntry
  readonly lifecycle: Pick<RouteLifecycle, 'timeOf' | 'retired'>
  readonly reader: RequestReader
  readonly answer: AnswerProblem
}

export type RouteHooks = ReturnType<typeof createRouteHooks>

/**
 * The hooks of versioned, version-neutral and hidden routes. The router's constraint store reads a request's
 * version while it picks the route and keeps it on the raw request, where `request.apiVersion` reads it: a
 * versioned route needs no hook for it. The version headers go on in an `onSend` hook, the one step every
 * response of the route passes (its handler's, its hooks', app-wide hooks', errors), and the cheapest hook
 * Fastify runs. A version problem is answered from the route's first `preParsing` hook: after every
 * `onRequest` hook (app-wide, plugins', the route's own), so rate limits, authentication and CORS apply to it,
 * and before the body is read, so a body that is too large or malformed cannot hide it.
 */
export function createRouteHooks (parts: HookParts) {
  const { options, forms, everywhere, reader, answer } = parts
  const { timeOf, retired } = parts.lifecycle
  const { reportApiVersions, logApiVersion, supportedHeader, deprecatedHeader } = options
  const vary = varyOf(options.headerNames, options.mediaType !== null)
  const mediaType = options.mediaType

  // After any Vary another hook or plugin set (CORS adds Origin), without a name twice, and never after `*`.
  // Asked with hasHeader: a getHeader('vary') here would make the getHeader('content-type') of Fastify's
  // reply.send, the same function, read headers by a computed name the slow way on every request.
  function addVary (reply: FastifyReply, vary: Vary): void {
    if (!reply.hasHeader('vary')) {
      reply.header('vary', vary.text)
      return
    }
    const existing = reply.getHeader('vary') as string | string[] | number
    reply.header('vary', mergeVary(Array.isArray(existing) ? existing.join(', ') : String(existing), vary.names))
  }

  /**
   * The headers of every response of a versioned route (`path`) or a neutral one (null); null when none. The hidden
   * route of a method (`own`: its versions, and the path's advertised ones) answers a version another method
   * implements (an endpoint a version lacks) with that method's versions: never Unsupported beside a header that
   * says it is supported here.
   */
  function versionHeaders (path: PathEntry | null, own: PathEntry | null = null): onSendHookHandler | null {
    if (path === null || !reportApiVersions) {
      if (vary === null) return null
      return function apiVersionVary (request, reply, payload, done) {
        addVary(reply, vary)
        done(null, payload)
      }
    }
    return function apiVersionHeaders (request, reply, payload, done) {
      if (vary !== null) addVary(reply, vary)
      // Only a request the route answers as a version problem (a versionChanges route answers its own).
      const outcome = own === null ? null : (request.raw as RawRequest)[kOutcome] as VersionOutcome
      const version = outcome?.fallback === true ? outcome.version : null
      const entry = version !== null && own !== null && path.implements(version.key) && !own.implements(version.key) ? own : path
      if (entry.timed) {
        // Nothing on the 500 of a clock that failed while routing; one that fails here answers with its error.
        const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
        if (outcome.error !== null) return done(null, payload)
        const failed = reportVersions(reply, entry, outcome)
        if (failed !== null) return done(failed)
      } else {
        reportVersions(reply, entry, null)
      }
      done(null, payload)
    }
  }

  /**
   * Sets the version headers `entry` reports; at the request's time where an enforced sunset changes them
   * (`outcome`, given then). The clock's error where it fails there, and no header is set; else null.
   */
  function reportVersions (reply: FastifyReply, entry: PathEntry, outcome: VersionOutcome | null): Error | null {
    let reported = entry.reported
    if (outcome !== null) {
      const time = timeOf(outcome)
      if (outcome.error !== null) return outcome.error
      reported = entry.at(time)
    }
    if (reported.supported !== null) reply.header(supportedHeader, reported.supported)
    if (reported.deprecated !== null) reply.header(deprecatedHeader, reported.deprecated)
    return null
  }

  /**
   * For a versioned route that carries other constraints (a host), whose router node may reject a request the
   * store has read: there the store leaves `apiVersion` to the route that takes the request (`setsVersion`).
   * Also where a versioned route's version goes into the log bindings (`logs`: the route's declared forms of its
   * versions), for every later log line of the request; never the hidden route's, which serves no version.
   */
  function versioned (segment: PathSegment | null, setsVersion: boolean, logs: ReadonlyMap<string, string> | null): onRequestHookHandler {
    return function apiVersionRead (request, reply, done) {
      const outcome = reader.outcomeOf(request.raw, segment)
      if (setsVersion) outcome.served = outcome.version
      if (logs !== null && outcome.served !== null && !outcome.fallback) logVersion(request, outcome, logs.get(outcome.served.key) as string)
      done()
    }
  }

  /**
   * The hidden route's, beside versioned routes that carry other constraints (a host): the router brings it a
   * version they implement where none of them takes the request (another host's, see constraint.ts), which is a
   * problem there, as a version no route implements is.
   */
  function problemRead (segment: PathSegment | null): onRequestHookHandler {
    return function apiVersionProblemRead (request, reply, done) {
      reader.outcomeOf(request.raw, segment).fallback = true
      done()
    }
  }

  /**
   * With `logApiVersion`, on versioned routes (`bound`: with other constraints, see `versioned`) and neutral ones
   * (`segment` tells where the latter read): a response that an earlier onRequest hook sent (a 401 from
   * authentication) still names the version the route serves in its "request completed" line, in its declared
   * form (`logs`: the versioned route's own, or every declared one for a neutral route).
   */
  function logServed (bound: boolean, segment: PathSegment | null, logs: ReadonlyMap<string, string>): onSendHookHandler {
    return function apiVersionLog (request, reply, payload, done) {
      const raw = request.raw as RawRequest
      // The router reads a versioned route's version; a neutral route reads it in its own onRequest hook, which
      // an earlier hook may have preempted.
      const outcome = raw[kOutcome] ?? neutralOutcome(raw, segment)
      const served = outcome.logged ? null : servedBy(outcome, bound)
      if (served !== null) logVersion(request, outcome, logs.get(served.key) as string)
      done(null, payload)
    }
  }

  /**
   * With `servedApiVersionHeader`, on versioned routes (`bound`: with other constraints, see `versioned`) and neutral
   * ones: names the version the route serves, as `declared` has it (the versioned route's own forms, or every
   * declared one for a neutral route), on every response it sends, errors and a response an earlier hook sent
   * included. The version the router chose, not `request.apiVersion`, which a hook may have changed: the header
   * says what the logs and metrics say. A neutral route served as no version sends none.
   */
  function servedHeader (name: string, bound: boolean, segment: PathSegment | null, declared: ReadonlyMap<string, string>): onSendHookHandler {
    return function apiVersionServed (request, reply, payload, done) {
      const raw = request.raw as RawRequest
      const outcome = raw[kOutcome] ?? neutralOutcome(raw, segment)
      const served = servedBy(outcome, bound)
      if (served !== null) reply.header(name, declared.get(served.key) as string)
      done(null, payload)
    }
  }

  /**
   * A neutral route serves no version, or one that some route declares and that is in force: a version past its
   * enforced sunset is implemented nowhere any more, so it is answered as a version no route declares (with its
   * Sunset and Link), and counted as retired.
   */
  function neutralOutcome (raw: RawRequest, segment: PathSegment | null): VersionOutcome {
    const outcome = reader.outcomeOf(raw, segment)
    const version = outcome.version as ApiVersion
    outcome.served = null
    if (outcome.kind === ONE && outcome.error === null && forms.has(version.key)) {
      if (retired !== null && retired(version, outcome)) outcome.retired = true
      else outcome.served = version
    }
    return outcome
  }

  function neutral (segment: PathSegment | null): onRequestHookHandler {
    return function apiVersionNeutral (request, reply, done) {
      const outcome = neutralOutcome(request.raw, segment)
      if (logApiVersion && outcome.served !== null) logVersion(request, outcome, forms.get(outcome.served.key) as string)
      done()
    }
  }

  // A neutral route takes no version, or one that some route declares; anything else is a problem.
  const neutralCheck: preParsingHookHandler = function apiVersionNeutralCheck (request, reply, payload, done) {
    const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
    if (outcome.error !== null) {
      reply.send(outcome.error)
      return
    }
    if (outcome.kind === NONE || outcome.served !== null) return done(null, payload)
    // A neutral route reports no versions, but an Unsupported answer says which are supported: every route's.
    const failed = reportApiVersions && outcome.kind === ONE ? reportVersions(reply, everywhere, everywhere.timed ? outcome : null) : null
    if (failed !== null) {
      reply.send(failed)
      return
    }
    answer(outcome, request, reply)
  }

  // The hidden route's first preParsing hook, and its handler (never reached: the hook always answers): a version
  // problem, or the error of a clock that failed while routing.
  function apiVersionProblem (request: FastifyRequest, reply: FastifyReply): void {
    const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
    if (outcome.error !== null) {
      reply.send(outcome.error)
      return
    }
    answer(outcome, request, reply)
  }

  // The last onRequest hook of a versionChanges route that answers its own version problems (see constraint.ts,
  // kAnswers): as the hidden route would, after every other onRequest hook and before the body is read. Not a
  // preParsing hook, as the hidden route's: on every request of the route, Fastify's preParsing step costs more.
  const ownProblem: onRequestHookHandler = function apiVersionOwnProblem (request, reply, done) {
    if (!((request.raw as RawRequest)[kOutcome] as VersionOutcome).fallback) return done()
    answerOwnProblem(request, reply)
  }

  /**
   * ownProblem for a route whose older versions' requests have steps of their own: any other request is moved onto
   * them where it is of an older version (see route-changes.ts, kEnterOlder).
   */
  function ownProblemEntering (enter: EnterOlder): onRequestHookHandler {
    // The last version served that has no steps: clients send one version again and again, and most the newest,
    // whose requests pay a comparison rather than a lookup.
    let newest: unknown = null
    return function apiVersionOwnProblem (request, reply, done) {
      const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
      if (outcome.fallback) return answerOwnProblem(request, reply)
      if (outcome.served === newest) return done()
      const entered = enter(request, outcome)
      if (entered === null) newest = outcome.served
      done(entered ?? undefined)
    }
  }

  // As on a hidden route, which has no schema: what a writer of the app's sends is JSON, whatever the route's
  // response schema of that status says.
  function answerOwnProblem (request: FastifyRequest, reply: FastifyReply): void {
    reply.serializer(problemJson)
    apiVersionProblem(request, reply)
  }

  /**
   * The routes of `get('')` under a prefix take `/prefix` only, those of `get('/')` take `/prefix/` as well, and
   * Fastify tells the two apart only after the hooks that see them have run. So the hidden route of a prefix's
   * root takes both, and sends `/prefix/` to the not-found handler unless one of its routes takes it.
   */
  function prefixRoot (root: { slash: boolean }): onRequestHookHandler {
    return function apiVersionPrefixRoot (request, reply, done) {
      const url = request.url
      const query = url.indexOf('?')
      const end = query === -1 ? url.length : query
      if (!root.slash && url.charCodeAt(end - 1) === 47) return reply.callNotFound()
      done()
    }
  }

  // A success response to a version given in a media type names the version in its own media type, as ASP.NET
  // does (only on success: a problem stays application/problem+json): as the client spelled it (`2` stays `2`),
  // but never longer than the route declares it (`1.0` or `01` is `1` on a route of `'1'`), so that no client
  // text longer than the route's own reaches the header, unless a hook or handler assigned request.apiVersion
  // another version (or none, or, from plain JS, something else).
  function mediaTypeResponse (config: MediaTypeConfig, declared: ReadonlyMap<string, string>): onSendHookHandler {
    // The route serves only versions it declares, so every version it serves has its form here.
    return function apiVersionMediaType (request, reply, payload, done) {
      const outcome = (request.raw as RawRequest)[kOutcome] as VersionOutcome
      const type = reply.getHeader('content-type')
      if ((outcome.from & MEDIA_TYPE) !== 0 && outcome.kind === ONE && reply.statusCode < 300 && typeof type === 'string') {
        const served: unknown = request.apiVersion
        const text = !(served instanceof ApiVersion) ? null : served === outcome.served ? shortest(outcome.text as string, declared.get(served.key) as string) : served.toString()
        if (text !== null) reply.header('content-type', withMediaTypeVersion(type, text, config, outcome.source))
      }
      done(null, payload)
    }
  }

  return {
    versionHeaders,
    withSent: sentHook,
    versioned,
    problemRead,
    logServed,
    neutral,
    neutralCheck,
    neutralOutcome,
    answerProblem: apiVersionProblem,
    ownProblem,
    ownProblemEntering,
    prefixRoot,
    /** The served version's header hook of a route (see servedHeader); null when the option is off. */
    servedHeader: (bound: boolean, segment: PathSegment | null, declared: ReadonlyMap<string, string>) => options.servedHeader === null ? null : servedHeader(options.servedHeader, bound, segment, declared),
    /** The media type hook of a versioned route, for its versions' declared forms; null when media types are not read. */
    mediaTypeResponse: (declared: ReadonlyMap<string, string>) => mediaType === null ? null : mediaTypeResponse(mediaType, declared)
  }
}

// What a versioned or neutral route answers depends on where versions are read: caches must know.
interface Vary { readonly text: string, readonly names: readonly string[] }
function varyOf (headerNames: readonly string[], mediaType: boolean): Vary | null {
  const names = mediaType ? [...headerNames, 'accept', 'content-type'] : headerNames
  return names.length > 0 ? { text: names.join(', '), names } : null
}

// The version a route serves a request as: for a route with other constraints (`bound`), the one the router read
// (an earlier hook may have answered before the route's own set it, see `versioned`); none for a version problem.
function servedBy (outcome: VersionOutcome, bound: boolean): ApiVersion | null {
  return outcome.fallback ? null : bound ? outcome.version : outcome.served
}

// A problem's body as Fastify writes one where no schema is: a text as it is, anything else as JSON.
function problemJson (this: FastifyReply, payload: unknown): string {
  if (typeof payload === 'string') return payload
  if (!this.hasHeader('content-type')) this.header('content-type', 'application/json; charset=utf-8')
  return JSON.stringify(payload)
}

function shortest (spelled: string, declared: string): string {
  return spelled.length > declared.length ? declared : spelled
}

// As the vary package appends, with its output, but scanning the existing value in place instead of splitting
// it into a list: a few times faster, on every response of a route where another hook set Vary (CORS).
function mergeVary (existing: string, names: readonly string[]): string {
  const lower = existing.toLowerCase()
  if (hasMember(lower, '*')) return existing
  let merged = existing
  for (let i = 0; i < names.length; i++) {
    if (!hasMember(lower, names[i])) merged += `, ${names[i]}`
  }
  return merged
}

/** Whether a comma-separated list (in lower case) has `name` as a member, white space around it allowed. */
function hasMember (list: string, name: string): boolean {
  for (let at = list.indexOf(name); at !== -1; at = list.indexOf(name, at + 1)) {
    const end = at + name.length
    if ((at === 0 || isSeparator(list.charCodeAt(at - 1))) && (end === list.length || isSeparator(list.charCodeAt(end)))) return true
  }
  return false
}

function isSeparator (code: number): boolean {
  return code === 44 || code === 32 || code === 9 // , SP HTAB
}

// So that Fastify's "request completed" line says which version was served, as declared (as metrics name it);
// once a request. The logger is the app's: its failure is no failure of the request.
function logVersion (request: FastifyRequest, outcome: VersionOutcome, declared: string): void {
  outcome.logged = true
  const log = request.log
  const setBindings = (log as { setBindings?: unknown }).setBindings
  if (typeof setBindings === 'function') logSafely(() => setBindings.call(log, { apiVersion: declared, apiVersionSource: sourceOfServed(outcome) }))
}
