import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify'
import type { DeclaredRoute } from './hidden-route.js'
import type { RouteDeclaration } from './route-table.js'
import type { VersionOutcome } from '../request/outcome.js'

/** The route option of a route written for the newest version of the plugin's `versionChanges` option. */
export const CHANGES_OPTION = 'versionChanges'

/**
 * Set by `expand` on a route that serves every version of a `versionChanges` route and answers its own version
 * problems (no hidden route beside it, see constraint.ts, kAnswers): the versions of its own shape, which its
 * document shows (its older shapes are documented apart).
 */
export const kServesAll = Symbol.for('fastify-api-versioning.servesAll')

/**
 * Set by `expand` on each route it makes that serves older versions: what their responses need once the route's own
 * onSend hooks have run (see SentBody). The plugin's own onSend hook of the route runs it before its work (see
 * RouteHooks.withSent): one hook where there would be two, each a step of Fastify's onSend runner.
 */
export const kSent = Symbol.for('fastify-api-versioning.sent')

/**
 * Set by `expand` on a route that serves every version of a `versionChanges` route where its older versions'
 * requests have steps of their own (validation and conversion before Fastify's): the plugin's onRequest hook that
 * answers the route's problems runs it on every other request, and it moves a request of an older version onto a
 * context of the route's with those steps (see version-changes/older-context.ts), so that the newest's pass none.
 */
export const kEnterOlder = Symbol.for('fastify-api-versioning.enterOlder')

/**
 * Moves a request of an older version (by its outcome, which the router made) onto its steps (see kEnterOlder): the
 * error that keeps it from them, if any; null for a version of the newest shape, which has none.
 */
export type EnterOlder = (request: FastifyRequest, outcome: VersionOutcome) => Error | undefined | null

/** A response's payload at the plugin's onSend hook, made its version's: as it is, or a promise of it; throws where it cannot be sent. */
export type SentBody = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => unknown

/** One shape of a route's older versions, as the documents show it: its schema, and the versions it serves. */
export interface DocumentedShape {
  readonly schema: FastifySchema | undefined
  readonly apiVersions: readonly string[] | undefined
  readonly deprecatedApiVersions: readonly string[] | undefined
}

/**
 * What routing's declarations ask of the `versionChanges` option (version-changes/, which comes later in a
 * request's flow): the routes a `versionChanges: true` route is served by, and the checks that need every route.
 * The wiring hands it over.
 */
export interface RouteChanges {
  /**
   * Makes a route that gives the `versionChanges` option into the routes of its versions' shapes, before its
   * declaration is read (`allow`: a version's schema with the plugin's version names let through its validation;
   * `answersOwn`: whether its route on a method may answer its own version problems, see kServesAll).
   */
  expand (instance: FastifyInstance, route: DeclaredRoute, allow: (schema: FastifySchema | undefined) => FastifySchema | undefined, answersOwn: (method: string) => boolean): void
  /** Notes a route with its checked declaration (`label`: its methods and URL), for the checks at ready. */
  declared (instance: FastifyInstance, route: DeclaredRoute, label: string, declaration: RouteDeclaration): void
  /** The shapes of the older versions a route made by `expand` serves, made when asked; null for any other route. */
  shapesOf (route: DeclaredRoute): (() => readonly DocumentedShape[]) | null
  /** Once every route is declared: checks the instructions against them, and compiles what is compiled eagerly. Throws. */
  /** The checks once every route is declared; `warn` logs what may be a mistake but can be meant. */
  ready (warn: (message: string) => void): void
}
