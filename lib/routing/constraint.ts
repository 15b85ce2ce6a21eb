import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { ApiVersion } from '../api-version.js'
import { NONE, type VersionOutcome } from '../request/outcome.js'
import type { PathSegment } from '../request/path-segment.js'
import type { FindSegment } from '../request/request-reader.js'
import { declaredVersion } from './declared-version.js'

/** The router constraint the plugin owns. */
export const STRATEGY = 'apiVersion'
/**
 * The constraint value of the hidden route that takes every request no version route takes. Constraint values
 * are what `printRoutes()` shows, so they read as words.
 */
export const FALLBACK = '(version problems)'
/** Among a versioned route's versions: its path carries the version as a route parameter. */
export const IN_PATH = '(in path)'
/** Marks a deprecated version among a versioned route's versions. */
export const DEPRECATED = ' (deprecated)'
/**
 * Set on the versions of a route that carries other constraints (a host): the router may still reject such a
 * route for what the store picks, and go on to other routes, so such a route sets `apiVersion` itself.
 */
export const kBound = Symbol.for('fastify-api-versioning.bound')
/** Set on the versions of a route whose path carries the version: where it is (see request/path-segment.ts). */
export const kSegment = Symbol.for('fastify-api-versioning.segment')
/**
 * Set on the versions of a route that telemetry counts while routing (see telemetry/request-metrics.ts): the
 * function that counts a request the store sends there. Only on routes without other constraints, whose pick
 * by the store is final.
 */
export const kCount = Symbol.for('fastify-api-versioning.count')

/**
 * Set on the versions of a `versionChanges` route that answers its own version problems: it is the one route of
 * its method and path, so it takes the requests a hidden route would, and no hidden route is made beside it (a
 * Fastify route costs start-up time and memory: a thousand paths were five thousand routes).
 */
export const kAnswers = Symbol.for('fastify-api-versioning.answers')

/** Counts a request the store sends to a route, served as `version` (see kCount). */
export type CountServed = (req: IncomingMessage, outcome: VersionOutcome, version: ApiVersion) => void
// Routes of one router node whose paths read the version from different texts: the router is asked.
const ASK_ROUTER: PathSegment = { prefix: null }

type Strategy = Parameters<FastifyInstance['addConstraintStrategy']>[0]

/** The strategy, and an onReady hook that lets go of what only built the stores (no route is added after ready). */
export interface VersionStrategy extends Strategy {
  forget (done: () => void): void
}

/** The versions the routes of one router node implement. */
export interface NodeVersions {
  readonly supported: ApiVersion[]
  readonly deprecated: ApiVersion[]
  /** What a selector made of them, kept by the selector. */
  selection?: unknown
}

/** How the router's stores learn a request's version. */
export interface VersionLookup {
  /**
   * Reads the request's outcome and keeps it on the request. The router asks a store once per request, but for
   * a request it sends on to another node after a store's pick is rejected: reading again costs less than
   * looking for an earlier outcome on every request (a miss on the request object is a slow lookup).
   */
  read (req: IncomingMessage, segment: PathSegment | null): VersionOutcome
  /** The version for a request that gives none, chosen among a node's versions; null when none is assumed there. */
  readonly select: ((req: IncomingMessage, node: NodeVersions, outcome: VersionOutcome) => ApiVersion | null) | null
  /**
   * True once a version's enforced sunset has passed at the request's time; null when no policy enforces one.
   * True as well when the clock fails: the request then goes to the hidden route, which answers the error.
   */
  readonly retired: ((version: ApiVersion, outcome: VersionOutcome) => boolean) | null
}

/**
 * The router constraint strategy. A versioned route's value is the array of its versions as text (deprecated
 * ones marked, and IN_PATH when its path carries the version); the hidden route's is FALLBACK. The derived value
 * is the request itself: a store reads the request's version only at a node that has versioned routes, so
 * requests to other routes pay nothing, and reads the path only at a node whose routes carry the version there.
 */
export function createVersionStrategy (lookup: VersionLookup): VersionStrategy {
  const { read, select, retired } = lookup
  // The versions of router nodes, by the routes' versions and bits that built them: the nodes of a thousand paths
  // of one version list share one (a hundred versions would otherwise be a hundred thousand entries).
  const built = new Map<string, NodeState>()
  // A node's state before its first versioned route; the app's own, as a selector keeps what it made on it.
  const none: NodeState = { byKey: new Map(), node: { supported: [], deprecated: [] } }
  return <VersionStrategy><unknown>{
    name: STRATEGY,
    forget: function apiVersioningStoresBuilt (done: () => void) {
      built.clear()
      done()
    },
    mustMatchWhenDerived: false,
    deriveConstraint: (req: IncomingMessage) => req,
    // A store of one router node: bit masks of route indexes by version key (find-my-way's types call them handlers).
    storage () {
      let { byKey, node } = none
      // What built byKey and node: each route's bits and versions, in order.
      let id = ''
      let fallback = 0
      let segment: PathSegment | null = null
      // By version key, what counts the requests of the route that serves it here, where telemetry counts here.
      const counts = new Map<string, CountServed>()
      // The routes with no other constraints: when the store's pick includes one, the router takes it (or the
      // hidden route beside them, which has none either), so the request is served as the version read here.
      let unbound = 0
      // The last version looked up, and its routes: clients send the same version again and again, and the
      // parse cache gives the same ApiVersion for the same text, so comparing it costs less than a lookup.
      let lastVersion: ApiVersion | null = null
      let lastBits: number | undefined
      let lastCount: CountServed | undefined
      return {
        get (value: IncomingMessage | readonly string[] | string): number {
          if (typeof value === 'string') return fallback
          // A route's own versions, while the router builds this store: routes with other constraints (a host)
          // may share a version, so `set` adds the route's bit to each version's routes.
          if (Array.isArray(value)) return 0
          const req = value as IncomingMessage
          const outcome = read(req, segment)
          // The app's reader failed: the hidden route answers with its error.
          if (outcome.error !== null) {
            outcome.fallback = true
            return fallback
          }
          let version = outcome.version
          if (outcome.kind === NONE && select !== null) version = outcome.version = select(req, node, outcome)
          let bits = lastBits
          if (version !== lastVersion) {
            bits = lastBits = version === null ? undefined : byKey.get(version.key)
            lastCount = version === null ? undefined : counts.get(version.key)
            lastVersion = version
          }
          // Only a version implemented here can be retired here (and only then is the clock read).
          if (bits !== undefined && retired !== null && retired(version as ApiVersion, outcome)) {
            outcome.retired = true
            bits = undefined
          }
          if (bits === undefined) {
            if (fallback !== 0 && unbound !== 0) outcome.served = version
            outcome.fallback = true
            return fallback
          }
          if ((bits & unbound) !== 0) {
            outcome.served = version
            if (lastCount !== undefined) lastCount(req, outcome, version as ApiVersion)
            return bits
          }
          // Routes with other constraints only (a host): where none of them takes the request, the hidden route of
          // its host does, with the version problem it is there. Where one does, it wins: of the routes that match,
          // find-my-way takes the last added of the most constraints, and a hidden route is added before the first
          // route of its constraints (from that route's onRoute hook).
          return bits | fallback
        },
        set (value: readonly string[] | string, bits: number) {
          lastVersion = null
          lastBits = undefined
          lastCount = undefined
          if (typeof value === 'string') fallback = bits
          else {
            if ((value as { [kBound]?: true })[kBound] !== true) unbound |= bits
            if ((value as { [kAnswers]?: true })[kAnswers] === true) fallback = bits
            id += `\n${bits} ${value.join(',')}`
            let state = built.get(id)
            if (state === undefined) built.set(id, state = withRoute({ byKey, node }, value, bits))
            byKey = state.byKey
            node = state.node
            for (const text of value) {
              if (text === IN_PATH) {
                const own = (value as { [kSegment]?: PathSegment })[kSegment] as PathSegment
                segment = segment === null || segment.prefix === own.prefix ? own : ASK_ROUTER
                continue
              }
              const count = (value as { [kCount]?: CountServed })[kCount]
              if (count !== undefined) counts.set(versionOf(text).key, count)
            }
          }
        }
      }
    }
  }
}

/** What a router node's routes implement: the routes (as bits) of each version, and the versions. */
interface NodeState {
  readonly byKey: ReadonlyMap<string, number>
  readonly node: NodeVersions
}

// A version of a route's constraint value: its text, marked when deprecated.
function versionOf (text: string): ApiVersion {
  return declaredVersion(text.endsWith(DEPRECATED) ? text.slice(0, -DEPRECATED.length) : text) as ApiVersion
}

// A node's versions with one more route's: new objects, as the state before may be another node's too.
function withRoute (before: NodeState, value: readonly string[], bits: number): NodeState {
  const byKey = new Map(before.byKey)
  const node: NodeVersions = { supported: [...before.node.supported], deprecated: [...before.node.deprecated] }
  for (const text of value) {
    if (text === IN_PATH) continue
    const version = versionOf(text)
    byKey.set(version.key, (byKey.get(version.key) ?? 0) | bits)
    ;(text.endsWith(DEPRECATED) ? node.deprecated : node.supported).push(version)
  }
  return { byKey, node }
}

/**
 * Finds the path version of a request: the path version is a route parameter, so the router itself is asked
 * which route the URL takes, as the hidden route (every versioned path has one), and its matching options and
 * precedence apply unchanged. The host is passed as the router derives it, for hidden routes that carry a host
 * constraint. Null when the version is not read from the path.
 */
export function createSegmentFinder (fastify: FastifyInstance, segmentName: string | null): FindSegment {
  return function findSegment (method, url, host) {
    return fastify.findRoute({ method, url, constraints: { [STRATEGY]: FALLBACK, host } })?.params[segmentName as string]
  }
}
