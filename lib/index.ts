import type {
  FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, FastifyTypeProvider,
  FastifyTypeProviderDefault, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase,
  RawServerDefault, RouteGenericInterface, RouteOptions, ContextConfigDefault
} from 'fastify'
import fp from 'fastify-plugin'
import { ApiVersion } from './api-version.js'
import { createVersionStrategy, DEPRECATED, FALLBACK, IN_PATH, kBound, STRATEGY } from './routing/constraint.js'
import { createErrorObjectWriter, kApiVersioning, kErrorObjects, type ErrorObjectsConfig } from './problems/error-objects.js'
import { createLifecycle } from './lifecycle/lifecycle.js'
import { resolveOptions, type ApiVersioningOptions } from './options.js'
import { AMBIGUOUS, INVALID, NONE, type VersionOutcome } from './request/outcome.js'
import { createProblemSet, type ApiVersionProblem, type ProblemDocument } from './problems/problems.js'
import { readRequest, type ReaderConfig } from './request/readers.js'
import { createRouteHooks, kOutcome, type RawRequest } from './routing/route-hooks.js'
import { createNearMissWarnings } from './routing/near-misses.js'
import { guardOutsideScope } from './routing/outside-scope.js'
import { routesSoFar } from './routing/routes-so-far.js'
import { constraintKey, hasParam, routePathKey, routerPathOptions } from './routing/route-path.js'
import { readDeclaration, RouteTable, type ConstraintVariant } from './routing/route-table.js'
import { kDeclaration, kState } from './state.js'
import { allowVersionNames } from './routing/version-schemas.js'
import { declarationSource, versionSetOf } from './routing/version-sets.js'
import { createProblemWriting, problemDetailsWriter, type ProblemWriter } from './problems/writers.js'

export { ApiVersion } from './api-version.js'
export { errorObjects, type ErrorObject, type ErrorObjectsOptions } from './problems/error-objects.js'
export type { ApiVersioningOptions, VersionReaderOptions } from './options.js'
export type { DeprecationPolicyOption, PolicyLinkOption, SunsetPolicyOption, VersionPolicyOption } from './lifecycle/policies.js'
export type { SelectorContext, SelectorFunction } from './lifecycle/selectors.js'
export { withApiVersions, type ApiVersionSet } from './routing/version-sets.js'
export { ProblemDetailsSchema, type ProblemDetails } from './problems/problem-schema.js'
export { PROBLEM_TEXTS, type ApiVersionProblem, type ApiVersionProblemKind, type ProblemDocument } from './problems/problems.js'
export type { ProblemWriter, ProblemWriterContext } from './problems/writers.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The requested API version of a versioned or version-neutral route, or null where none applies. */
    apiVersion: ApiVersion | null
  }
  interface FastifyReply {
    /** Sends an RFC 9457 problem document with `problem.status` as the status code, through the problem writers. */
    problem (problem: ProblemDocument): FastifyReply
  }
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
  }
}

const kFallback = Symbol.for('fastify-api-versioning.fallback')

type Done = (err?: Error) => void
type Route = RouteOptions & { prefix: string, routePath: string, [kFallback]?: true }

function apiVersioningPlugin (fastify: FastifyInstance, rawOptions: ApiVersioningOptions, done: Done): void {
  let options: ReturnType<typeof resolveOptions>
  try {
    options = resolveOptions(rawOptions, message => fastify.log.warn(message))
  } catch (error) {
    return done(error as Error)
  }
  if (fastify.hasConstraintStrategy(STRATEGY)) {
    return done(new Error('fastify-api-versioning: this server already has an "apiVersion" constraint strategy; register apiVersioning once, before the routes'))
  }
  const early = routesSoFar(fastify).map(route => `${route.path} (${route.methods.join(', ')})`)
  if (early.length > 0) {
    fastify.log.warn(`fastify-api-versioning: routes were declared before the plugin was loaded (${early.join(', ')}): the plugin does not see them, so they are unversioned, which is right for a route that declares no versions (a health or docs route); a route meant to be versioned must be declared after \`await app.register(apiVersioning, ...)\`. Register apiVersioning before the plugins that add routes (such as @fastify/under-pressure) and this warning goes`)
  }
  const problems = createProblemSet(options.problemTypeBase, options.unsupportedApiVersionStatusCode)
  const assumed = options.assumeDefaultVersionWhenUnspecified ? options.defaultVersion : null
  const firstName = options.queryNames[0] ?? options.headerNames[0] ?? options.segmentName
  const router = routerPathOptions(fastify.initialConfig)
  const lifecycle = createLifecycle({
    policies: options.policies,
    selector: options.apiVersionSelector,
    defaultVersion: options.defaultVersion,
    assumeDefaultVersionWhenUnspecified: options.assumeDefaultVersionWhenUnspecified,
    now: options.now,
    log: fastify.log
  })

  const errorObjectsConfig = (fastify as unknown as Record<symbol, ErrorObjectsConfig | undefined>)[kErrorObjects]
  const ownWriters: ProblemWriter[] = [problemDetailsWriter]
  if (errorObjectsConfig !== undefined) {
    ownWriters.unshift(createErrorObjectWriter(errorObjectsConfig, problems.types, request => (request.raw as RawRequest)[kOutcome]?.source ?? firstName))
  }
  const writing = createProblemWriting(options.problemWriters, options.problemWriterNames, ownWriters)
  if (!options.problemDetails && (options.problemWriters.length > 0 || errorObjectsConfig !== undefined)) {
    fastify.log.warn('fastify-api-versioning: problemDetails is false, so version errors have no body and problem writers and errorObjects are not used for them')
  }

  const table = new RouteTable()
  const readers: ReaderConfig = {
    queryNames: options.queryNames,
    shortestQueryName: Math.min(...options.queryNames.map(name => name.length)),
    headerNames: options.headerNames,
    mediaType: options.mediaType,
    segmentName: options.segmentName,
    findSegment: null
  }
  // Only the routes whose path carries the version read it there: that costs a second router lookup.
  const pathReaders: ReaderConfig = { ...readers, findSegment }

  // Read only when a versioned or version-neutral route asks, and kept on the raw request for its hooks and
  // `request.apiVersion`.
  function read (raw: RawRequest, config: ReaderConfig): VersionOutcome {
    const outcome = readRequest(raw, config)
    if (outcome.kind === NONE) outcome.version = assumed
    raw[kOutcome] = outcome
    return outcome
  }

  // For hooks, which may run after the router's store has read the request.
  function outcomeOf (raw: RawRequest, config: ReaderConfig): VersionOutcome {
    return raw[kOutcome] ?? read(raw, config)
  }

  const hooks = createRouteHooks({
    reportApiVersions: options.reportApiVersions,
    vary: varyOf(options.headerNames, options.mediaType !== null),
    declared: table.declared,
    timeOf: lifecycle.timeOf,
    logApiVersion: options.logApiVersion,
    retirementHeaders: lifecycle.retirementHeaders,
    outcomeOf,
    problemFor (outcome, raw) {
      switch (outcome.kind) {
        case AMBIGUOUS: return problems.ambiguous
        case INVALID: return problems.invalid
        case NONE: return assumed === null ? problems.unspecified : unsupportedFor(outcome, raw)
        default: return unsupportedFor(outcome, raw)
      }
    },
    sendProblem (request, reply, problem) {
      if (options.problemDetails) writing.write(problem, request, reply)
      else reply.code(problem.status).send()
    }
  })

  const mediaTypeResponse = options.mediaType === null ? null : hooks.mediaTypeResponse(options.mediaType)
  // As ASP.NET: when only media types carry versions, an unsupported one is a media type the route cannot take.
  const mediaTypeOnly = options.mediaType !== null && options.queryNames.length === 0 && options.headerNames.length === 0 && options.segmentName === null
  function unsupportedFor (outcome: VersionOutcome, raw: RawRequest): ApiVersionProblem {
    if (outcome.fromPath) return problems.unsupportedInPath
    if (mediaTypeOnly) return raw.headers['content-type'] === undefined ? problems.notAcceptable : problems.unsupportedMediaType
    return problems.unsupported
  }

  fastify.addConstraintStrategy(createVersionStrategy({
    read: (raw, inPath) => read(raw, inPath ? pathReaders : readers),
    select: lifecycle.select,
    retired: lifecycle.retired
  }))

  const nearMisses = createNearMissWarnings(message => fastify.log.warn(message), options.segmentName)
  // Checks of shared schemas that routes refer to but that were added after them (see allowVersionNames).
  const lateSchemas: Array<() => void> = []
  // The hidden routes of a prefix's root, with the routes they stand for (see prefixRoot).
  const roots = new Map<ConstraintVariant, { slash: boolean, routes: Route[] }>()

  fastify.addHook('onRoute', function (this: FastifyInstance, route: Route) {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    const pathKey = routePathKey(route.url, router)
    const { [STRATEGY]: own, ...others } = route.constraints ?? {}
    const constraintsKey = constraintKey(others)
    if (route[kFallback] === true) {
      for (const method of methods) table.addFallback(method, pathKey, constraintsKey)
      return
    }
    const label = `${methods.join(',')} ${route.url}`
    if (own !== undefined) {
      throw new Error(`fastify-api-versioning: route ${label} sets constraints.${STRATEGY}, which the plugin owns; declare apiVersions instead`)
    }
    const declaration = readDeclaration(declarationSource(route as unknown as Record<string, unknown>, versionSetOf(this)), label)
    nearMisses(route, label, declaration.kind === 'versioned')
    // find-my-way (9.10) stores a RegExp host once per route and answers a lookup with the first route's alone.
    if (declaration.kind === 'versioned' && Object.prototype.toString.call(others.host) === '[object RegExp]') {
      throw new Error(`fastify-api-versioning: route ${label} has a RegExp host constraint: Fastify's router keeps one per route, so a versioned route and the hidden route the plugin adds beside it cannot share it, and no version would be served; give the host as a string (a route per host), or check a host pattern in an onRequest hook`)
    }
    if (declaration.kind !== 'plain') {
      // A route the router has and the table has not was declared before the plugin: a versioned route would
      // take all its requests.
      for (const method of methods) {
        if (table.entry(method, pathKey).kind === null && this.hasRoute({ method, url: route.url, constraints: others })) {
          throw new Error(`fastify-api-versioning: route ${method} ${route.url} is ${declaration.kind === 'neutral' ? 'version-neutral' : 'versioned'}, but a ${method} ${route.url} route declared before the plugin was loaded is not; one method and path cannot mix them, so declare that route after \`await app.register(apiVersioning, ...)\`, with its versions`)
        }
      }
    }
    const variants = methods.map(method => table.add(method, pathKey, constraintsKey, declaration, `${method} ${route.url}`))
    if (declaration.kind === 'plain') return

    const inPath = options.segmentName !== null && hasParam(route.url, options.segmentName)
    const allowed = allowVersionNames(route.schema, { querystring: options.queryNames, params: inPath ? [options.segmentName as string] : [] }, id => this.getSchema(id), label)
    route.schema = allowed.schema
    if (allowed.checkLate !== null) lateSchemas.push(allowed.checkLate)
    Object.assign(route, { [kDeclaration]: { kind: declaration.kind, supported: declaration.supported, deprecated: declaration.deprecated, inPath, pathKey } })
    const config = inPath ? pathReaders : readers
    const logServed = !options.logApiVersion ? null : declaration.kind === 'neutral' ? hooks.logServed(false, config) : hooks.logServed(constraintsKey !== '', null)
    if (declaration.kind === 'neutral') {
      route.onRequest = prepend(hooks.neutral(config), route.onRequest)
      route.preParsing = prepend(hooks.neutralCheck, route.preParsing)
      route.onSend = append(append(route.onSend, hooks.versionHeaders(null)), logServed)
      return
    }
    // Other constraints (a host) may reject what the constraint store picks, so a route that has them, and its
    // hidden route, set apiVersion themselves; a route also has a hook when the version goes into the log bindings.
    const bound = constraintsKey !== ''
    const hook = bound || options.logApiVersion ? hooks.versioned(config, bound, options.logApiVersion) : null
    const hiddenHook = bound ? hooks.versioned(config, true, false) : null
    const headers = hooks.versionHeaders(table.entry(methods[0], pathKey).path)
    const hiddenOnRequest = hiddenHook === null ? route.onRequest : prepend(hiddenHook, route.onRequest)
    route.onRequest = hook === null ? route.onRequest : prepend(hook, route.onRequest)
    const policies = [...declaration.supported, ...declaration.deprecated].some(v => options.policies.has(v.key)) ? lifecycle.policyHeaders : null
    route.onSend = append(append(append(append(route.onSend, headers), policies), mediaTypeResponse), logServed)
    const versions = [...declaration.supported.map(String), ...declaration.deprecated.map(v => String(v) + DEPRECATED)]
    if (inPath) versions.push(IN_PATH)
    if (bound) Object.defineProperty(versions, kBound, { value: true })
    route.constraints = { ...others, [STRATEGY]: versions }
    const atPrefixRoot = route.routePath === '' && route.prefix !== '' && !router.ignoreTrailingSlash
    for (let i = 0; i < methods.length; i++) {
      const method = methods[i]
      let onRequest = hiddenOnRequest
      const rootOfPrefix = atPrefixRoot && method !== 'HEAD'
      if (rootOfPrefix) {
        let root = roots.get(variants[i])
        if (root === undefined) roots.set(variants[i], root = { slash: false, routes: [] })
        root.routes.push(route)
        if (!variants[i].hasFallback) onRequest = prepend(hooks.prefixRoot(root), onRequest)
      }
      if (variants[i].hasFallback) continue
      // The hidden route matches what its routes match: the same path, prefix and other constraints; it runs
      // the same onRequest hooks, config, error handler and handler timeout as the first of them.
      const fallback: RouteOptions & { [kFallback]: true } = {
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
        onRequest,
        onSend: headers ?? undefined,
        preParsing: hooks.answerProblem,
        handler: hooks.answerProblem,
        [kFallback]: true
      }
      this.route(fallback)
    }
  })

  // The path version is a route parameter: ask the router itself which route the URL takes, as the hidden
  // route (every versioned path has one), so its matching options and precedence apply unchanged. The host is
  // passed, as the router would derive it, for hidden routes that carry a host constraint.
  function findSegment (method: string, url: string, host: string | undefined): string | undefined {
    return fastify.findRoute({ method, url, constraints: { [STRATEGY]: FALLBACK, host } })?.params[options.segmentName as string]
  }

  fastify.addHook('onReady', function (hookDone) {
    try {
      for (const check of lateSchemas) check()
    } catch (error) {
      return hookDone(error as Error)
    }
    table.seal(lifecycle.retiresAt)
    for (const policy of options.policies.values()) {
      if (!table.declared.has(policy.version.key)) fastify.log.warn(`fastify-api-versioning: policies has a policy for ${policy.version}, which no route declares`)
    }
    if (table.declared.size === 0) table.declared.add(options.defaultVersion.key)
    for (const root of roots.values()) root.slash = root.routes.some(route => route.routePath === '/')
    hookDone()
  })

  fastify.decorate(kApiVersioning, true)
  guardOutsideScope(fastify)
  fastify.decorate(kState, { options, errorObjects: errorObjectsConfig ?? null, paths: table.paths })
  // Read from the request's outcome when asked, so that requests pay nothing for it (a plain decorator is one
  // more property to set on every request); set by a hook or handler, it becomes the request's own.
  fastify.decorateRequest('apiVersion', {
    getter (this: FastifyRequest) {
      return (this.raw as RawRequest)[kOutcome]?.served ?? null
    },
    setter (this: FastifyRequest, value: ApiVersion | null) {
      Object.defineProperty(this, 'apiVersion', { value, writable: true, enumerable: true, configurable: true })
    }
  })
  fastify.decorateReply('problem', function (this: FastifyReply, problem: ProblemDocument) {
    writing.problem(this, problem)
    return this
  })
  done()
}


// What a versioned or neutral route answers depends on where versions are read: caches must know.
function varyOf (headerNames: readonly string[], mediaType: boolean): string | null {
  const names = mediaType ? [...headerNames, 'accept', 'content-type'] : headerNames
  return names.length > 0 ? names.join(', ') : null
}

function toArray<T> (hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]
}

function prepend<T> (hook: T, hooks: T | T[] | undefined): T[] {
  return [hook, ...toArray(hooks)]
}

function append<T> (hooks: T | T[] | undefined, hook: T | null): T | T[] | undefined {
  return hook === null ? hooks : [...toArray(hooks), hook]
}

/** The plugin: register it before the routes it versions. */
export const apiVersioning = fp(apiVersioningPlugin, { fastify: '5.x', name: 'fastify-api-versioning' })
export default apiVersioning
