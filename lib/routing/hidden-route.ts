import type { FastifySchema, onRequestHookHandler, onSendHookHandler, RouteHandlerMethod, RouteOptions } from 'fastify'
import { FALLBACK, STRATEGY } from './constraint.js'

/** Marks the plugin's hidden routes, so that its onRoute hook knows them. */
const kHidden = Symbol.for('fastify-api-versioning.fallback')

/** A route as Fastify's onRoute hooks see it. */
export type DeclaredRoute = RouteOptions & { prefix: string, routePath: string, [kHidden]?: true }

export function isHiddenRoute (route: DeclaredRoute): boolean {
  return route[kHidden] === true
}

/** What the hidden route of one method and path runs: the same for every such route of the app. */
export interface HiddenRouteHooks {
  readonly onRequest: onRequestHookHandler[] | onRequestHookHandler | undefined
  readonly onSend: onSendHookHandler[] | onSendHookHandler | undefined
  /** Answers the version problem (or the error of a clock that failed while routing). */
  readonly answer: RouteHandlerMethod
}

/**
 * The hidden route of `route` on `method`: it takes every request no version route there takes, and answers with
 * the right problem. It matches what its routes match (the same path, prefix and other constraints `others`), and
 * runs the same onRequest hooks, config, error handler and handler timeout as the first of them. At the root of a
 * prefix it takes `/prefix` and `/prefix/` both (see RouteHooks.prefixRoot).
 */
export function hiddenRoute (route: DeclaredRoute, method: string, others: Record<string, unknown>, rootOfPrefix: boolean, hooks: HiddenRouteHooks): RouteOptions {
  return {
    method,
    url: rootOfPrefix ? '/' : route.routePath,
    prefixTrailingSlash: route.prefixTrailingSlash,
    exposeHeadRoute: route.exposeHeadRoute,
    constraints: { ...others, [STRATEGY]: FALLBACK },
    schema: { hide: true } as FastifySchema,
    config: route.config,
    logLevel: route.logLevel,
    errorHandler: route.errorHandler,
    handlerTimeout: route.handlerTimeout,
    onRequest: hooks.onRequest,
    onSend: hooks.onSend,
    // Before the body is read: a body that is too large or malformed cannot hide the version problem.
    preParsing: hooks.answer as never,
    handler: hooks.answer,
    [kHidden]: true
  } as RouteOptions
}
