import type {
  FastifyBaseLogger, FastifyInstance, FastifyReply, FastifySchema, FastifyTypeProvider,
  FastifyTypeProviderDefault, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase,
  RawServerDefault, RouteGenericInterface, ContextConfigDefault
} from 'fastify'
import fp from 'fastify-plugin'
import { FASTIFY_RANGE } from './fastify-range.js'
import type { ApiVersion } from './api-version.js'
import type { ApiVersionSource } from './request/source.js'
import { createLifecycle } from './lifecycle/lifecycle.js'
import { resolveOptions, type ApiVersioningOptions, type ResolvedOptions } from './options.js'
import { kApiVersioning, kErrorObjects, type ErrorObjectsConfig } from './problems/error-objects.js'
import { createProblemAnswer } from './problems/problem-answer.js'
import { createProblemChoice } from './problems/problem-choice.js'
import { createProblemWriting } from './problems/problem-writing.js'
import { createProblemSet, type ProblemDocument } from './problems/problems.js'
import { decorateRequests } from './request/request-decorators.js'
import { createRequestReader } from './request/request-reader.js'
import { createSegmentFinder, createVersionStrategy, STRATEGY } from './routing/constraint.js'
import { createRouteDeclaring } from './routing/declare-routes.js'
import { guardOutsideScope } from './routing/outside-scope.js'
import { createRouteHooks } from './routing/route-hooks.js'
import { routerPathOptions, semicolonDelimits } from './routing/route-path.js'
import { RouteTable } from './routing/route-table.js'
import { earlyRoutes } from './routing/routes-so-far.js'
import { kState } from './state.js'
import { coded } from './errors.js'
import { createRequestMetrics } from './telemetry/request-metrics.js'
import { createTelemetry, startsAtReady, type Telemetry } from './telemetry/telemetry.js'
import { changeVersions, kChangeVersions } from './version-changes/applied.js'
import { valueConverter, type ConvertToApiVersionOptions } from './version-changes/convert-value.js'
import { createRouteChanges } from './version-changes/route-changes.js'
import { sharedSchemasOf } from './version-changes/shared-ref.js'
import { warnAtStartUp } from './util/start-up-warning.js'

export { ApiVersion } from './api-version.js'
export type { ApiVersioningErrorCode } from './errors.js'
export { errorObjects, type ErrorObject, type ErrorObjectsOptions } from './problems/error-objects.js'
export type { ApiVersioningOptions, VersionReaderOptions } from './options.js'
export type { ApiVersionSource } from './request/source.js'
export type { CustomReader } from './request/custom-reader.js'
export type { SunsetPolicyOption, VersionPolicyOption } from './lifecycle/policies.js'
export type { DeprecationPolicyOption, PolicyLinkOption } from './util/policy-values.js'
export type { SelectorContext, SelectorFunction } from './lifecycle/selectors.js'
export { withApiVersions, type ApiVersionSet } from './routing/version-sets.js'
export { ProblemDetailsSchema, type ProblemDetails } from './problems/problem-schema.js'
export { PROBLEM_TEXTS, type ApiVersionProblem, type ApiVersionProblemKind, type ProblemDocument } from './problems/problems.js'
export type { ProblemWriter, ProblemWriterContext } from './problems/writers.js'
export type { TelemetryMeterProvider, TelemetryOption } from './telemetry/telemetry.js'
export type { VersionOutcomeName } from './telemetry/request-metrics.js'
export { versionChange, type EndpointDocs, type EndpointInstruction, type EnumInstruction, type EnumMember, type FieldInstruction, type FieldOf, type RequestInstruction, type RequestToMigrate, type ResponseInstruction, type ResponseToMigrate, type SchemaNameInstruction, type SchemaTarget, type VersionChange, type VersionChangeOptions, type WebhookInstruction } from './version-changes/version-change.js'
export type { VersionChangesEntry } from './version-changes/version-list.js'
export type { ConvertToApiVersionOptions } from './version-changes/convert-value.js'
export type { WebhookOption } from './version-changes/webhooks.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The requested API version of a versioned or version-neutral route, or null where none applies. */
    apiVersion: ApiVersion | null
    /** Where the version the request is served as came from, or null where `apiVersion` is null. */
    apiVersionSource: ApiVersionSource | null
  }
  interface FastifyReply {
    /** Sends an RFC 9457 problem document with `problem.status` as the status code, through the problem writers. */
    problem (problem: ProblemDocument): FastifyReply
  }
  interface FastifyInstance {
    /**
     * A copy of `value` (the newest version's shape) as `version` of the `versionChanges` option shows it, through
     * the renames, dropped fields and response migrations of its schema: for webhooks and events pinned to a
     * client's version. Throws for a version not in the list.
     */
    convertToApiVersion (options: ConvertToApiVersionOptions): Promise<unknown>
  }
  // An augmentation repeats Fastify's type parameters, used or not.
  /* eslint-disable @typescript-eslint/no-unused-vars */
  interface RouteShorthandOptions<
    RawServer extends RawServerBase = RawServerDefault,
    RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
    RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
    Logger extends FastifyBaseLogger = FastifyBaseLogger
  > {
    /** The API versions this route implements; another route on the same method and path may implement others. */
    apiVersions?: string | readonly string[]
    /** Deprecated API versions this route still implements; reported in `api-deprecated-versions`. */
    deprecatedApiVersions?: string | readonly string[]
    /** The route accepts no version, or any version declared somewhere in the app. */
    apiVersionNeutral?: boolean
    /** Versions of this path that other services implement: reported in the version headers, never routed here. */
    advertisedApiVersions?: string | readonly string[]
    /** Deprecated versions of this path that other services implement: reported, never routed here. */
    advertisedDeprecatedApiVersions?: string | readonly string[]
    /**
     * The route is written for the newest version of the plugin's `versionChanges` option and serves every version
     * of it in which it exists, older ones through the changes listed there.
     */
    versionChanges?: true
  }
  /* eslint-enable @typescript-eslint/no-unused-vars */
}

type Done = (err?: Error) => void

function apiVersioningPlugin (fastify: FastifyInstance, rawOptions: ApiVersioningOptions, done: Done): void {
  let options: ResolvedOptions
  try {
    options = resolveOptions(rawOptions, message => warnAtStartUp(fastify.log, message))
  } catch (error) {
    return done(error as Error)
  }
  if (fastify.hasConstraintStrategy(STRATEGY)) {
    return done(coded(new Error('fastify-api-versioning: this server already has an "apiVersion" constraint strategy; register apiVersioning once, before the routes'), 'FST_API_VERSIONING_REGISTERED_TWICE'))
  }
  // Only telemetry loads a package (@opentelemetry/api), and only when asked for.
  if (options.telemetry === null) return wire(fastify, options, null, done)
  createTelemetry(options.telemetry.meterProvider).then(telemetry => wire(fastify, options, telemetry, done), done)
}

function wire (fastify: FastifyInstance, options: ResolvedOptions, telemetry: Telemetry | null, done: Done): void {
  const errorObjects = (fastify as unknown as Record<symbol, ErrorObjectsConfig | undefined>)[kErrorObjects] ?? null
  const problems = createProblemSet(options.problemTypeBase, options.unsupportedApiVersionStatusCode)
  const writing = createProblemWriting(options, errorObjects, problems, message => warnAtStartUp(fastify.log, message))
  const lifecycle = createLifecycle(options, fastify.log)
  const reader = createRequestReader(options, createSegmentFinder(fastify, options.segmentName), semicolonDelimits(fastify.initialConfig))
  const table = new RouteTable()
  const hooks = createRouteHooks({ options, forms: table.forms, everywhere: table.everywhere, lifecycle, reader, answer: createProblemAnswer(lifecycle, createProblemChoice(problems, options), writing) })
  const metrics = telemetry === null
    ? null
    : createRequestMetrics({ telemetry, assumes: options.assumeDefaultVersionWhenUnspecified, declaredForms: table.forms, deprecatedByPolicy: lifecycle.deprecatedByPolicy, hasDeprecationPolicy: version => (options.policies.get(version.key)?.deprecationPolicy ?? null) !== null, neutralOutcome: hooks.neutralOutcome, log: fastify.log })
  const shared = sharedSchemasOf(fastify)
  const changes = createRouteChanges(options, shared)
  const declaring = createRouteDeclaring({ options, table, hooks, lifecycle, router: routerPathOptions(fastify.initialConfig), log: fastify.log, early: earlyRoutes(fastify), metrics, changes })

  const strategy = createVersionStrategy({ read: reader.read, select: lifecycle.select, retired: lifecycle.retired })
  fastify.addConstraintStrategy(strategy)
  fastify.addHook('onRoute', declaring.onRoute)
  fastify.addHook('onReady', declaring.onReady)
  fastify.addHook('onReady', strategy.forget)
  if (telemetry !== null) fastify.addHook('onReady', startsAtReady(telemetry, fastify.log))
  fastify.decorate(kApiVersioning, true)
  fastify.decorate(kState, { options, errorObjects, paths: table.paths, routes: table.routes, shared, releaseGate: null })
  guardOutsideScope(fastify)
  decorateRequests(fastify)
  fastify.decorateReply('problem', function (this: FastifyReply, problem: ProblemDocument) {
    writing.problem(this, problem)
    return this
  })
  fastify.decorate('convertToApiVersion', valueConverter(options.versionList, shared, fastify, options.webhooks))
  fastify.decorate(kChangeVersions, changeVersions(options.versionList))
  done()
}

/** The plugin: register it before the routes it versions. */
export const apiVersioning = fp(apiVersioningPlugin, { fastify: FASTIFY_RANGE, name: 'fastify-api-versioning' })
export default apiVersioning
