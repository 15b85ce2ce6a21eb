import type { FastifyBaseLogger, FastifyInstance, FastifySchema, onRequestHookHandler, onSendHookHandler } from 'fastify'
import type { ApiVersion } from '../api-version.js'
import type { ReaderOptions } from '../request/request-reader.js'
import { kDeclaration, kDocumentedRoutes } from './declaration-state.js'
import { DEPRECATED, IN_PATH, kAnswers, kBound, kCount, kSegment, STRATEGY, type CountServed } from './constraint.js'
import { declaredText } from './declared-version.js'
import { hiddenRoute, isHiddenRoute, type DeclaredRoute } from './hidden-route.js'
import { append, prepend, toArray } from './hook-lists.js'
import { createNearMissWarnings } from './near-misses.js'
import { onlyFor } from './served-only.js'
import { CHANGES_OPTION, kEnterOlder, kSent, kServesAll, type DocumentedShape, type EnterOlder, type RouteChanges, type SentBody } from './route-changes.js'
import type { RouteCounting, RouteMetrics, VersionedCounting } from './route-counting.js'
import type { HookOptions, RouteHooks } from './route-hooks.js'
import type { RouteLifecycle } from './route-lifecycle.js'
import { constraintKey, hasParam, routePathKey, segmentPrefix, type RouterPathOptions } from './route-path.js'
import { kPrefixRootOf, servedWithSlash } from './prefix-root.js'
import { readDeclaration, type ConstraintVariant, type RouteDeclaration, type RouteTable } from './route-table.js'
import { reportEarlyRoutes } from './routes-so-far.js'
import { versionNamesOut } from './code-schema-names.js'
import { allowVersionNames, type VersionNames } from './version-schemas.js'
import { declarationSource, versionSetOf } from './version-sets.js'
import { coded } from '../errors.js'
import { warnAtStartUp } from '../util/start-up-warning.js'

/** The options the declarations read (see options.ts). */
export interface DeclaringOptions extends Pick<ReaderOptions, 'segmentName' | 'queryNames' | 'assumeDefaultVersionWhenUnspecified' | 'defaultVersion'>, Pick<HookOptions, 'logApiVersion'> {
  /** The versions that have a policy (lifecycle's), by key. */
  readonly policies: ReadonlyMap<string, { readonly version: ApiVersion }>
  /** Which version a request without one gets (lifecycle's): read here only for whether it is `'default'`. */
  readonly apiVersionSelector: unknown
}

export interface DeclaringParts {
  readonly options: DeclaringOptions
  readonly table: RouteTable
  readonly hooks: RouteHooks
  readonly lifecycle: Pick<RouteLifecycle, 'policyHeaders' | 'retiresAt'>
  readonly router: RouterPathOptions
  readonly log: FastifyBaseLogger
  /** The routes in the router when the plugin loaded (see reportEarlyRoutes). */
  readonly early: readonly string[]
  /** The hooks that count requests, with the `telemetry` option; null without. */
  readonly metrics: RouteMetrics | null
  /** The routes of the `versionChanges` option. */
  readonly changes: RouteChanges
}

/** The onRoute and onReady hooks that turn each route's declaration into routes of the router. */
export interface RouteDeclaring {
  onRoute (this: FastifyInstance, route: DeclaredRoute): void
  onReady (done: (error?: Error) => void): void
}

/**
 * Each route that declares versions is checked, gets the version constraint (its versions as text), the hooks of
 * its kind, a schema that lets the version through, and, on each method and path and set of other constraints, a
 * hidden route that answers what no version route takes. Routes are checked against one another in the table, and
 * what depends on every route (the version headers, late shared schemas) is settled once the app is ready.
 */
export function createRouteDeclaring ({ options, table, hooks, lifecycle, router, log, early, metrics, changes }: DeclaringParts): RouteDeclaring {
  const nearMisses = createNearMissWarnings(message => warnAtStartUp(log, message), options.segmentName)
  // Checks of shared schemas that routes refer to but that were added after them (see allowVersionNames).
  const lateSchemas: Array<() => void> = []
  // The hidden routes of a prefix's root, with the routes they stand for (see RouteHooks.prefixRoot).
  const roots = new Map<ConstraintVariant, { slash: boolean, routes: DeclaredRoute[] }>()
  // A schema with the version names let through its validation; what a shared schema added later may forbid is
  // checked once the app is ready.
  // The names a route's validation must let through (see allowVersionNames, versionNamesOut).
  function versionNames (url: string): VersionNames {
    return { querystring: options.queryNames, params: options.segmentName !== null && hasParam(url, options.segmentName) ? [options.segmentName] : [] }
  }

  function allowedSchema (instance: FastifyInstance, schema: FastifySchema | undefined, url: string, label: string): FastifySchema | undefined {
    const allowed = allowVersionNames(schema, versionNames(url), id => instance.getSchema(id), label)
    if (allowed.checkLate !== null) lateSchemas.push(allowed.checkLate)
    return allowed.schema
  }

  // A route's `allow` for the versionChanges option (see RouteChanges.expand). Made apart, as each closure below:
  // closures made in apiVersioningRoute would keep all its locals, the route's options among them, for as long as
  // the shapes of a route keep one.
  function allowing (instance: FastifyInstance, url: string, label: string): (schema: FastifySchema | undefined) => FastifySchema | undefined {
    return schema => allowedSchema(instance, schema, url, label)
  }

  // The routes only the documents have, one a shape of a versionChanges route's older versions.
  function documentedRoutes (instance: FastifyInstance, route: DeclaredRoute, shapes: () => readonly DocumentedShape[], label: string, inPath: boolean, pathKey: string): () => DeclaredRoute[] {
    const url = route.url
    return () => shapes().map(shape => {
      const own = readDeclaration(shape as unknown as Record<string, unknown>, label)
      const documented = { ...route, schema: allowedSchema(instance, shape.schema, url, label), [kDeclaration]: { kind: own.kind, supported: own.supported, deprecated: own.deprecated, inPath, pathKey, url } }
      // Fastify registers a route declared '/' at a prefix's root twice, changing its url after its onRoute hooks
      // ('/prefix', then '/prefix/'): the shapes are documented where the route is, once @fastify/swagger reads it.
      return Object.defineProperty(documented, 'url', { get: () => route.url, enumerable: true })
    })
  }

  // The hook that answers a route's own version problems, last of its onRequest hooks whatever the onRoute hooks of
  // plugins registered after this one add (@fastify/rate-limit pushes its hook onto the list): Fastify reads the
  // list once the app is ready, and their hooks run before the problem is answered, as on a hidden route.
  function lastOnRequest (route: DeclaredRoute, hook: onRequestHookHandler): void {
    let list = append<onRequestHookHandler>(route.onRequest as onRequestHookHandler[] | undefined, hook) as onRequestHookHandler[]
    Object.defineProperty(route, 'onRequest', {
      configurable: true,
      enumerable: true,
      get () {
        const at = list.indexOf(hook)
        if (at !== list.length - 1) {
          if (at !== -1) list.splice(at, 1)
          list.push(hook)
        }
        return list
      },
      set (value: onRequestHookHandler[] | onRequestHookHandler | undefined) {
        list = toArray(value)
      }
    })
  }

  // By method and path, for telemetry: whether a versioned route there has other constraints, and what moves the
  // counting of those without into their hooks (see countsAtRouting).
  const countPlaces = new Map<string, { bound: boolean, demote: Array<() => void> }>()

  function apiVersioningRoute (this: FastifyInstance, route: DeclaredRoute): void {
    // Written for the newest version of versionChanges: now its routes of each shape, this one the newest.
    const pathKey = routePathKey(route.url, router)
    const { [STRATEGY]: own, ...others } = route.constraints ?? {}
    const constraintsKey = constraintKey(others)
    const inPath = options.segmentName !== null && hasParam(route.url, options.segmentName)
    const atPrefixRoot = route.routePath === '' && route.prefix !== '' && !router.ignoreTrailingSlash
    if ((route as unknown as Record<string, unknown>)[CHANGES_OPTION] !== undefined) {
      // Alone on its method and path, it answers its own version problems, unless finding the route takes the hidden
      // route's matching: other constraints, the version in the path, a prefix's root (see hiddenRoute).
      const alone = constraintsKey === '' && !inPath && !atPrefixRoot
      changes.expand(this, route, allowing(this, route.url, `${String(route.method)} ${route.url}`), method => alone && !table.hasFallback(method, pathKey, constraintsKey))
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (isHiddenRoute(route)) {
      for (const method of methods) table.addFallback(method, pathKey, constraintsKey)
      return
    }
    const label = `${methods.join(',')} ${route.url}`
    if (own !== undefined) {
      throw coded(new Error(`fastify-api-versioning: route ${label} sets constraints.${STRATEGY}, which the plugin owns; declare apiVersions instead`), 'FST_API_VERSIONING_UNSUPPORTED_ROUTE')
    }
    const declaration = readDeclaration(declarationSource(route as unknown as Record<string, unknown>, versionSetOf(this)), label)
    nearMisses(route, label, declaration.kind)
    // find-my-way (9.10) stores a RegExp host once per route and answers a lookup with the first route's alone.
    if (declaration.kind === 'versioned' && Object.prototype.toString.call(others.host) === '[object RegExp]') {
      throw coded(new Error(`fastify-api-versioning: route ${label} has a RegExp host constraint: Fastify's router keeps one per route, so a versioned route and the hidden route the plugin adds beside it cannot share it, and no version would be served; give the host as a string (a route per host), or check a host pattern in an onRequest hook`), 'FST_API_VERSIONING_UNSUPPORTED_ROUTE')
    }
    if (declaration.kind !== 'plain') {
      // A route the router has and the table has not was declared before the plugin: a versioned route would
      // take all its requests.
      for (const method of methods) {
        if (table.entry(method, pathKey).kind === null && this.hasRoute({ method, url: route.url, constraints: others })) {
          throw coded(new Error(`fastify-api-versioning: route ${method} ${route.url} is ${declaration.kind === 'neutral' ? 'version-neutral' : 'versioned'}, but a ${method} ${route.url} route declared before the plugin was loaded is not; one method and path cannot mix them, so declare that route after \`await app.register(apiVersioning, ...)\`, with its versions`), 'FST_API_VERSIONING_ROUTE_CONFLICT')
        }
      }
    }
    changes.declared(this, route, label, declaration)
    const variants = methods.map(method => table.add(method, pathKey, constraintsKey, declaration, `${method} ${route.url}`))
    if (declaration.kind === 'plain') return

    route.schema = allowedSchema(this, route.schema, route.url, label)
    const namesOut = versionNamesOut(route.schema, versionNames(route.url))
    if (namesOut !== null) route.preValidation = prepend(namesOut, route.preValidation)
    // A route that serves every version of a versionChanges route is documented as its newest shape.
    const servesAll = (route as { [kServesAll]?: Record<string, unknown> })[kServesAll]
    const documented = servesAll === undefined ? declaration : readDeclaration(servesAll, label)
    const declared = { kind: declaration.kind, supported: documented.supported, deprecated: documented.deprecated, inPath, pathKey, url: route.url }
    Object.assign(route, { [kDeclaration]: declared })
    table.routes.push({ names: methods.map(method => `${method} ${route.url}`), declaration: declared })
    // The shapes of a versionChanges route's older versions, each documented as a route of its versions would be:
    // made when the documents are.
    const shapes = changes.shapesOf(route)
    if (shapes !== null) Object.assign(route, { [kDocumentedRoutes]: documentedRoutes(this, route, shapes, label, inPath, pathKey) })
    const bound = constraintsKey !== ''
    const segment = inPath ? { prefix: segmentPrefix(route.url, options.segmentName as string) } : null
    // @fastify/otel (registered before the route) keeps its request span where a hook of the route can name it.
    const otel = metrics !== null && this.hasRequestDecorator('opentelemetry')
    if (declaration.kind === 'neutral') {
      // It serves any version some route declares: the policy headers of the one it serves, as telemetry counts it.
      const logServed = options.logApiVersion ? hooks.logServed(false, segment, table.forms) : null
      const counting = metrics?.neutral(route.url, segment, otel) ?? null
      route.onRequest = prepend(hooks.neutral(segment), spanFirst(counting, 'onRequest', route.onRequest))
      route.preParsing = prepend(hooks.neutralCheck, route.preParsing)
      route.onSend = append(route.onSend, hooks.versionHeaders(null), lifecycle.policyHeaders, logServed, hooks.servedHeader(false, segment, table.forms), counting?.onSend ?? null)
      if (counting !== null) route.onResponse = append(route.onResponse, counting.onResponse)
      route.onSend = spanFirst(counting, 'onSend', route.onSend)
      return
    }
    // The route's versions as it declares them: logs, metrics and media types name a version so.
    const { forms, texts } = formsOf(declaration)
    const logServed = options.logApiVersion ? hooks.logServed(bound, segment, forms) : null
    // Other constraints (a host) may reject what the constraint store picks, so a route that has them sets
    // apiVersion itself, and its hidden route says that what it takes is a problem; a route also has a hook when
    // the version goes into the log bindings.
    const hook = bound || options.logApiVersion ? hooks.versioned(segment, bound, options.logApiVersion ? forms : null) : null
    const hiddenHook = bound ? hooks.problemRead(segment) : null
    const answers = servesAll !== undefined
    const first = table.entry(methods[0], pathKey)
    // A route made by the versionChanges option makes its response its version's in the same hook.
    const sent = (route as { [kSent]?: SentBody })[kSent]
    const reported = hooks.versionHeaders(first.path, answers ? first.own : null)
    const headers = sent === undefined ? reported : hooks.withSent(sent, reported)
    const hiddenOnRequest = hiddenHook === null ? route.onRequest : prepend(hiddenHook, route.onRequest)
    const counting = metrics?.versioned(route.url, declaration, otel) ?? null
    const onRequest = spanFirst(counting, 'onRequest', route.onRequest)
    route.onRequest = hook === null ? onRequest : prepend(hook, onRequest)
    let policies = [...forms.keys()].some(key => options.policies.has(key)) ? lifecycle.policyHeaders : null
    if (answers && policies !== null) policies = onlyFor(true, 'onSend', policies) as onSendHookHandler
    const atRouting = counting === null ? null : countsAtRouting(route, methods, pathKey, bound, counting)
    const inHooks = atRouting === null ? counting : null
    const hiddenCount = metrics?.hidden(route.url) ?? null
    const problemCount = answers && hiddenCount !== null ? onlyFor(false, 'onSend', hiddenCount) as onSendHookHandler : null
    route.onSend = append(route.onSend, headers, policies, hooks.mediaTypeResponse(forms), logServed, hooks.servedHeader(bound, segment, forms), inHooks?.onSend ?? null, problemCount)
    if (inHooks !== null) route.onResponse = append(route.onResponse, inHooks.onResponse)
    route.onSend = spanFirst(counting, 'onSend', route.onSend)
    if (answers) {
      const enter = (route as { [kEnterOlder]?: EnterOlder })[kEnterOlder]
      lastOnRequest(route, enter === undefined ? hooks.ownProblem : hooks.ownProblemEntering(enter))
      variants[0].hasFallback = true
    }
    const versions = [...texts]
    if (segment !== null) {
      versions.push(IN_PATH)
      Object.defineProperty(versions, kSegment, { value: segment })
    }
    if (bound) Object.defineProperty(versions, kBound, { value: true })
    if (atRouting !== null) Object.defineProperty(versions, kCount, { value: atRouting })
    if (answers) Object.defineProperty(versions, kAnswers, { value: true })
    route.constraints = { ...others, [STRATEGY]: versions }
    for (let i = 0; i < methods.length; i++) {
      const rootOfPrefix = atPrefixRoot && methods[i] !== 'HEAD'
      let onRequest: onRequestHookHandler | onRequestHookHandler[] | undefined = hiddenOnRequest as onRequestHookHandler[] | undefined
      if (rootOfPrefix) {
        let root = roots.get(variants[i])
        if (root === undefined) roots.set(variants[i], root = { slash: false, routes: [] })
        root.routes.push(route)
        if (!variants[i].hasFallback) onRequest = prepend(hooks.prefixRoot(root), onRequest)
        // Registered with '/' beside a route that may be at the prefix alone.
        if (kPrefixRootOf in route) route.onRequest = prepend(hooks.prefixRoot(root), route.onRequest)
      }
      if (variants[i].hasFallback) continue
      const entry = table.entry(methods[i], pathKey)
      const onSend = append(undefined, hooks.versionHeaders(entry.path, entry.own), hiddenCount)
      this.route(hiddenRoute(route, methods[i], others, rootOfPrefix, { onRequest, onSend, answer: hooks.answerProblem }))
    }
  }

  // The hooks that name the served version on @fastify/otel's request span, where it is registered: first of the
  // route's own (after the plugin's, which settle the version), before @fastify/otel's onSend hook that ends it.
  function spanFirst<K extends 'onRequest' | 'onSend'> (counting: RouteCounting | null, kind: K, hooks: DeclaredRoute[K]): DeclaredRoute[K] {
    return (counting?.span == null ? hooks : prepend<unknown>(counting.span[kind], hooks)) as DeclaredRoute[K]
  }

  /**
   * With telemetry, a versioned route without other constraints is counted by the router's store as it takes the
   * request (no hook), unless a route of its method and path has other constraints (a host): the store cannot tell
   * which of them the router takes, so both count in their hooks. Such a route declared later moves the counting
   * of the earlier ones into their hooks, which Fastify reads from each route's options when the app gets ready.
   */
  function countsAtRouting (route: DeclaredRoute, methods: readonly string[], pathKey: string, bound: boolean, counting: VersionedCounting): CountServed | null {
    const places = methods.map(method => {
      const key = `${method} ${pathKey}`
      let place = countPlaces.get(key)
      if (place === undefined) countPlaces.set(key, place = { bound: false, demote: [] })
      return place
    })
    if (bound) {
      for (const place of places) {
        place.bound = true
        for (const demote of place.demote.splice(0)) demote()
      }
      return null
    }
    if (places.some(place => place.bound)) return null
    let here = true
    const demote = (): void => {
      if (!here) return
      here = false
      route.onSend = append(route.onSend, counting.onSend)
      route.onResponse = append(route.onResponse, counting.onResponse)
    }
    for (const place of places) place.demote.push(demote)
    return function countServed (req, outcome, version) {
      if (here) counting.atRouting(req, outcome, version)
    }
  }

  function apiVersioningReady (done: (error?: Error) => void): void {
    try {
      for (const check of lateSchemas) check()
      changes.ready(message => warnAtStartUp(log, message))
    } catch (error) {
      return done(error as Error)
    }
    table.seal(lifecycle.retiresAt)
    for (const policy of options.policies.values()) {
      if (!table.declared.has(policy.version.key) && !table.advertised.has(policy.version.key)) warnAtStartUp(log, `fastify-api-versioning: policies has a policy for ${policy.version}, which no route declares`)
    }
    reportEarlyRoutes(early, table.routes.length > 0, log)
    const { defaultVersion } = options
    if (options.assumeDefaultVersionWhenUnspecified && options.apiVersionSelector === 'default' && table.declared.size > 0 && !table.declared.has(defaultVersion.key)) {
      warnAtStartUp(log, `fastify-api-versioning: assumeDefaultVersionWhenUnspecified is on, but no route implements defaultVersion ${defaultVersion}, so every request without a version is answered Unsupported; set defaultVersion to a version the routes declare (${[...table.forms.values()].join(', ')}), or choose per path with apiVersionSelector: 'current'`)
    }
    if (table.declared.size === 0) {
      table.declared.add(options.defaultVersion.key)
      table.forms.set(options.defaultVersion.key, String(options.defaultVersion))
    }
    for (const root of roots.values()) root.slash = root.routes.some(servedWithSlash)
    done()
  }

  return { onRoute: apiVersioningRoute, onReady: apiVersioningReady }
}

/** A declaration's versions as written: by key (see `forms`), and as the constraint takes them (deprecated marked). */
interface DeclaredForms {
  readonly forms: ReadonlyMap<string, string>
  readonly texts: readonly string[]
}

// Found once a declaration, which the routes of a versionChanges route's shape share.
const declaredForms = new WeakMap<RouteDeclaration, DeclaredForms>()
function formsOf (declaration: RouteDeclaration): DeclaredForms {
  let found = declaredForms.get(declaration)
  if (found === undefined) {
    declaredForms.set(declaration, found = {
      forms: new Map([...declaration.supported, ...declaration.deprecated].map(v => [v.key, declaredText(v)])),
      texts: [...declaration.supported.map(declaredText), ...declaration.deprecated.map(v => declaredText(v) + DEPRECATED)]
    })
  }
  return found
}
