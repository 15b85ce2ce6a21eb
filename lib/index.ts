import type { IncomingMessage } from 'node:http'
import type {
  FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, FastifyTypeProvider,
  FastifyTypeProviderDefault, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase,
  RawServerDefault, RouteGenericInterface, RouteOptions, ContextConfigDefault, onRequestHookHandler
} from 'fastify'
import fp from 'fastify-plugin'
import { ApiVersion } from './api-version.js'
import { createVersionStrategy, FALLBACK, IN_PATH, STRATEGY } from './constraint.js'
import { createErrorObjectWriter, kApiVersioning, kErrorObjects, type ErrorObjectsConfig } from './error-objects.js'
import { resolveOptions, type ApiVersioningOptions } from './options.js'
import { AMBIGUOUS, INVALID, NONE, ONE, type VersionOutcome } from './outcome.js'
import { createProblemSet, type ApiVersionProblem, type ProblemDocument } from './problems.js'
import { readRequest, type ReaderConfig } from './readers.js'
import { readDeclaration, RouteTable, type PathEntry } from './route-table.js'
import { kDeclaration, kState } from './state.js'
import { assertProblem, problemDetailsWriter, writeProblem, type ProblemWriter } from './writers.js'

export { ApiVersion } from './api-version.js'
export { errorObjects, type ErrorObject, type ErrorObjectsOptions } from './error-objects.js'
export type { ApiVersioningOptions, VersionReaderOptions } from './options.js'
export { ProblemDetailsSchema, type ProblemDetails } from './problem-schema.js'
export { PROBLEM_TEXTS, type ApiVersionProblem, type ApiVersionProblemKind, type ProblemDocument } from './problems.js'
export type { ProblemWriter, ProblemWriterContext } from './writers.js'

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

const kOutcome = Symbol('fastify-api-versioning.outcome')
const kFallback = Symbol('fastify-api-versioning.fallback')
const SUPPORTED_HEADER = 'api-supported-versions'
const DEPRECATED_HEADER = 'api-deprecated-versions'

type RawRequest = IncomingMessage & { [kOutcome]?: VersionOutcome }
type Done = (err?: Error) => void

function apiVersioningPlugin (fastify: FastifyInstance, rawOptions: ApiVersioningOptions, done: Done): void {
  let options: ReturnType<typeof resolveOptions>
  try {
    options = resolveOptions(rawOptions)
  } catch (error) {
    return done(error as Error)
  }
  if (fastify.hasConstraintStrategy(STRATEGY)) {
    return done(new Error('fastify-api-versioning: this server already has an "apiVersion" constraint strategy; register apiVersioning once, before the routes'))
  }
  const problems = createProblemSet(options.problemTypeBase, options.unsupportedApiVersionStatusCode)
  const assumed = options.assumeDefaultVersionWhenUnspecified ? options.defaultVersion : null
  const firstName = options.queryNames[0] ?? options.headerNames[0] ?? options.segmentName

  const errorObjectsConfig = (fastify as unknown as Record<symbol, ErrorObjectsConfig | undefined>)[kErrorObjects]
  const writers: ProblemWriter[] = [...options.problemWriters]
  if (errorObjectsConfig !== undefined) {
    writers.push(createErrorObjectWriter(errorObjectsConfig, problems.types, request => (request.raw as RawRequest)[kOutcome]?.source ?? firstName))
  }
  writers.push(problemDetailsWriter)
  if (!options.problemDetails && writers.length > 1) {
    fastify.log.warn('fastify-api-versioning: problemDetails is false, so version errors have no body and problem writers and errorObjects are not used for them')
  }

  const table = new RouteTable()
  const readers: ReaderConfig = {
    queryNames: options.queryNames,
    headerNames: options.headerNames,
    segmentName: options.segmentName,
    findSegment: null
  }
  // Only the routes whose path carries the version read it there: that costs a second router lookup.
  const pathReaders: ReaderConfig = { ...readers, findSegment }

  // Read once per request, and only when a versioned or version-neutral route asks.
  function outcomeOf (raw: RawRequest, config: ReaderConfig): VersionOutcome {
    let outcome = raw[kOutcome]
    if (outcome === undefined) {
      outcome = readRequest(raw, config)
      if (outcome.kind === NONE) outcome.version = assumed
      raw[kOutcome] = outcome
    }
    return outcome
  }

  function problemFor (outcome: VersionOutcome): ApiVersionProblem {
    switch (outcome.kind) {
      case AMBIGUOUS: return problems.ambiguous
      case INVALID: return problems.invalid
      case NONE: return outcome.version === null ? problems.unspecified : problems.unsupported
      default: return outcome.fromPath ? problems.unsupportedInPath : problems.unsupported
    }
  }

  function sendProblem (request: FastifyRequest, reply: FastifyReply, problem: ApiVersionProblem): void {
    if (options.problemDetails) writeProblem(writers, { problem, request, reply })
    else reply.code(problem.status).send()
  }

  fastify.addConstraintStrategy(createVersionStrategy((raw, inPath) => outcomeOf(raw, inPath ? pathReaders : readers).version))

  // What a versioned or neutral route answers depends on the version headers: caches must know.
  const vary = options.headerNames.length > 0 ? options.headerNames.join(', ') : null
  function addVary (reply: FastifyReply): void {
    const existing = reply.getHeader('vary')
    reply.header('vary', existing === undefined ? vary : `${existing}, ${vary}`)
  }

  function versionedHook (path: PathEntry, config: ReaderConfig): onRequestHookHandler {
    const report = options.reportApiVersions
    return function (request, reply, done) {
      request.apiVersion = outcomeOf(request.raw, config).version
      if (vary !== null) addVary(reply)
      if (report) {
        if (path.supportedHeader !== null) reply.header(SUPPORTED_HEADER, path.supportedHeader)
        if (path.deprecatedHeader !== null) reply.header(DEPRECATED_HEADER, path.deprecatedHeader)
      }
      done()
    }
  }

  function neutralHook (config: ReaderConfig): onRequestHookHandler {
    return function (request, reply, done) {
      const outcome = outcomeOf(request.raw, config)
      if (vary !== null) addVary(reply)
      if (outcome.kind === ONE && table.declared.has((outcome.version as ApiVersion).key)) {
        request.apiVersion = outcome.version
      } else if (outcome.kind !== NONE) {
        return sendProblem(request, reply, problemFor(outcome))
      }
      done()
    }
  }

  // The router's constraint store, and the route's hook, have read the request already.
  function fallbackHandler (request: FastifyRequest, reply: FastifyReply): void {
    sendProblem(request, reply, problemFor((request.raw as RawRequest)[kOutcome] as VersionOutcome))
  }

  fastify.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions & { prefix: string, [kFallback]?: true }) {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (route[kFallback] === true) {
      for (const method of methods) table.entry(method, route.url).hasFallback = true
      return
    }
    const label = `${methods.join(',')} ${route.url}`
    if (route.constraints?.[STRATEGY] !== undefined) {
      throw new Error(`fastify-api-versioning: route ${label} sets constraints.${STRATEGY}, which the plugin owns; declare apiVersions instead`)
    }
    const declaration = readDeclaration(route as unknown as Record<string, unknown>, label)
    const entries = methods.map(method => table.add(method, route.url, declaration))
    if (declaration.kind === 'plain') return

    const inPath = options.segmentName !== null && hasParam(route.url, options.segmentName)
    Object.assign(route, { [kDeclaration]: { kind: declaration.kind, supported: declaration.supported, deprecated: declaration.deprecated, inPath } })
    const config = inPath ? pathReaders : readers
    if (declaration.kind === 'neutral') {
      route.onRequest = prepend(neutralHook(config), route.onRequest)
      return
    }
    const hook = versionedHook(entries[0].path, config)
    route.onRequest = prepend(hook, route.onRequest)
    const keys = [...declaration.supported, ...declaration.deprecated].map(v => v.key)
    route.constraints = { ...route.constraints, [STRATEGY]: inPath ? [...keys, IN_PATH] : keys }
    for (let i = 0; i < methods.length; i++) {
      if (entries[i].hasFallback) continue
      const fallback: RouteOptions & { [kFallback]: true } = {
        method: methods[i],
        // Relative to this instance's prefix, as the route itself was given (a prefix's root is '/').
        url: route.url.slice(route.prefix.length) || '/',
        prefixTrailingSlash: route.prefixTrailingSlash,
        exposeHeadRoute: route.exposeHeadRoute,
        constraints: { [STRATEGY]: FALLBACK },
        schema: { hide: true } as FastifySchema,
        onRequest: hook,
        handler: fallbackHandler,
        [kFallback]: true
      }
      this.route(fallback)
    }
  })

  // The path version is a route parameter: ask the router itself which route the URL takes, as the hidden
  // route (every versioned path has one), so its matching options and precedence apply unchanged.
  const asFallback = { [STRATEGY]: FALLBACK }
  function findSegment (method: string, url: string): string | undefined {
    return fastify.findRoute({ method, url, constraints: asFallback })?.params[options.segmentName as string]
  }

  fastify.addHook('onReady', function (hookDone) {
    table.seal()
    if (table.declared.size === 0) table.declared.add(options.defaultVersion.key)
    hookDone()
  })

  fastify.decorate(kApiVersioning, true)
  fastify.decorate(kState, { options, errorObjects: errorObjectsConfig !== undefined })
  fastify.decorateRequest('apiVersion', null)
  fastify.decorateReply('problem', function (this: FastifyReply, problem: ProblemDocument) {
    assertProblem(problem)
    return writeProblem(writers, { problem, request: this.request, reply: this })
  })
  done()
}

function prepend (hook: onRequestHookHandler, hooks: RouteOptions['onRequest']): onRequestHookHandler[] {
  return hooks === undefined ? [hook] : [hook, ...(Array.isArray(hooks) ? hooks : [hooks])]
}

// True when `url` has the route parameter `name` (`:name`, ending the segment or followed by '-', '.', '(').
function hasParam (url: string, name: string): boolean {
  const token = ':' + name
  for (let i = url.indexOf(token); i !== -1; i = url.indexOf(token, i + 1)) {
    const next = url.charCodeAt(i + token.length)
    if (Number.isNaN(next) || next === 47 || next === 45 || next === 46 || next === 40) return true
  }
  return false
}

/** The plugin: register it before the routes it versions. */
export const apiVersioning = fp(apiVersioningPlugin, { fastify: '5.x', name: 'fastify-api-versioning' })
export default apiVersioning
