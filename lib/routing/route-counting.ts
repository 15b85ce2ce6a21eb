import type { onRequestHookHandler, onResponseHookHandler, onSendHookHandler } from 'fastify'
import type { PathSegment } from '../request/path-segment.js'
import type { CountServed } from './constraint.js'
import type { RouteDeclaration } from './route-table.js'

/**
 * What routing's declarations ask of telemetry (telemetry/, which observes the outcomes): the hooks that count
 * the requests of each route, made as a route is declared; the wiring hands it over, with the `telemetry` option.
 */
export interface RouteMetrics {
  /** For a version route, named by its versions as it declares them. */
  versioned (url: string, declaration: RouteDeclaration, otel: boolean): VersionedCounting
  /** For the hidden route of a route's method and path. */
  hidden (url: string): onSendHookHandler
  /** For a version-neutral route (`segment`: where its path carries the version, or null). */
  neutral (url: string, segment: PathSegment | null, otel: boolean): RouteCounting
}

/** The hooks that count the requests of one route (see createRequestMetrics). */
export interface RouteCounting {
  readonly onSend: onSendHookHandler
  readonly onResponse: onResponseHookHandler
  /** Where @fastify/otel is registered: the hooks that name the served version on its request span (see otelSpan). */
  readonly span: OtelSpanHooks | null
}

/** The first of a route's `onRequest` hooks after the plugin's own, and the first of its `onSend` hooks. */
export interface OtelSpanHooks {
  readonly onRequest: onRequestHookHandler
  readonly onSend: onSendHookHandler
}

/** A versioned route counts its requests in its hooks, or, where the router's pick is final, while routing. */
export interface VersionedCounting extends RouteCounting {
  /** Counts a request of the route as the router sends it there, served as `version`. */
  readonly atRouting: CountServed
}
