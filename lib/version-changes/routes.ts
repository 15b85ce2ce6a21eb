import type { FastifyInstance, FastifyReply, FastifySchema, RouteOptions } from 'fastify'
import { coded } from '../errors.js'
import type { DeclaredRoute } from '../routing/hidden-route.js'
import { CHANGES_OPTION as OPTION, kEnterOlder, kSent, kServesAll, type DocumentedShape } from '../routing/route-changes.js'
import { AFTER_ANSWER, onlyFor } from '../routing/served-only.js'
import type { ApiVersion } from '../api-version.js'
import { append, prepend } from '../routing/hook-lists.js'
import { messageOf } from '../util/server-error.js'
import { isCodeSchema } from '../util/code-schema.js'
import { isObject } from '../util/is-object.js'
import { conversionFrom, holds, inRequests, inResponses, locatorOf, REQUEST_PARTS, stepPlan, type StepPlan } from './conversion.js'
import { movesWithStatus } from './status-key.js'
import type { VersionSchemas } from './version-parts.js'
import { ruleNeeds } from './migration-needs.js'
import { missingMigrations, type Holding } from './missing-migrations.js'
import type { EnumRule, FieldRule } from './version-change.js'
import { versionsOfEndpoint } from './endpoints.js'
import { besideRoute, getUrlOfHead } from '../routing/prefix-root.js'
import { olderRouteHooks, type OlderRouteHooks, type OlderShape, type RouteShapesOf } from './older-route.js'
import { versionSerializers, type Serialize, type SerializerCompiler, type VersionSerializers } from './version-serialization.js'
import { versionValidation, type ValidatorCompiler } from './version-validation.js'
import { writesNamedOnly } from './named-only.js'
import { unknownRefs } from './late-refs.js'
import { clashMessage, unionClash } from './union-clash.js'
import { deriveSchema } from './schemas.js'
import { sharedSchemasOf, type SharedSchemas } from './shared-ref.js'
import { only, stepsOf, type StatusChange, type VersionStep } from './version-steps.js'
import { sameShape } from './schema-identity.js'
import { markSharedCopies } from './shared-copies.js'
import type { ListedVersion, VersionList } from './version-list.js'
import { endpointUrlOf, movedOffAt } from '../routing/endpoint-url.js'

// Route options a versionChanges route takes from its list instead.
const DECLARING = ['apiVersions', 'deprecatedApiVersions', 'apiVersionNeutral', 'advertisedApiVersions', 'advertisedDeprecatedApiVersions']
// The parts of a route's schema that hold data.
const PARTS = ['body', 'querystring', 'params', 'headers'] as const

function fail (label: string, message: string): never {
  throw coded(new Error(`fastify-api-versioning: route ${label}: ${message}`), 'FST_API_VERSIONING_INVALID_DECLARATION')
}

/** What the `versionChanges: true` routes declared, for the checks once the app is ready (see checkInstructions). */
export interface ChangingRoutes {
  /** Their names (`'GET /orders'`): what instructions may name. */
  readonly names: Set<string>
  /** The migrations that run on some route: it is named, or it holds the schema named, in their version. */
  readonly migrating: Set<object>
  /** Every schema object the routes hold, nested ones too: where a look-alike of an instruction's schema shows. */
  readonly schemas: Set<object>
  /** The field and enum rules whose schemas some route holds, in their version. */
  readonly held: Set<FieldRule | EnumRule>
  /** The routes declared without versionChanges: true, which must not hold what a change changes. */
  readonly others: OtherRoute[]
  /** What compiles each route's older versions at once (versionChangesCompile: 'eager'). */
  readonly warmers: Array<{ warm: () => void }>
  /**
   * The older groups of versions and the group of each (by key), one for the routes whose versions group alike
   * (most routes of a list do): a thousand routes of a hundred versions would otherwise hold a hundred thousand entries.
   */
  readonly groupMaps: Map<string, OlderGroups>
  /** What the checks found of routes of the same schemas and versions (see planKey), until the app is ready. */
  readonly plans: Map<string, CheckedGroups>
  /** The routes that refer to shared schemas their instance did not know when they were declared, by `$id`. */
  readonly late: Array<{ readonly label: string, readonly refs: readonly string[], readonly shared: SharedSchemas }>
}

/** A route declared without versionChanges: true, as its check at ready reads it. */
export interface OtherRoute {
  readonly label: string
  readonly schema: Record<string, unknown> | undefined
  readonly shared: SharedSchemas
  readonly kind: 'plain' | 'versioned' | 'neutral'
  /** Its versions, supported and deprecated. */
  readonly versions: readonly ApiVersion[]
}

export function changingRoutes (): ChangingRoutes {
  return { names: new Set(), migrating: new Set(), schemas: new Set(), held: new Set(), others: [], warmers: [], groupMaps: new Map(), plans: new Map(), late: [] }
}

/** Set on the routes this stage makes of a route declared with versionChanges: true. */
export const kMadeByChanges = Symbol('fastify-api-versioning.madeByChanges')

/** What expanding a route needs of the routing stage. */
export interface ExpandContext {
  /** The query parameters that carry the version (lower case). */
  readonly queryNames: readonly string[]
  /** A version's schema with the plugin's version names let through its validation (see allowVersionNames). */
  readonly allow: (schema: FastifySchema | undefined) => FastifySchema | undefined
  /** Whether the route on a method may answer its own version problems: then one route serves every version. */
  readonly answersOwn: (method: string) => boolean
}

/** Set on the route that serves a `versionChanges` route's older versions: the shapes its documents show, made when asked. */
export const kDocumentedShapes = Symbol.for('fastify-api-versioning.documentedShapes')

/**
 * Turns a route declared with `versionChanges: true` (written for the newest version of the list) into the routes of
 * the router that serve its versions, whatever their number. Where it may answer its own version problems (alone on
 * its method and path, see RouteChanges.expand), it is one route: the app's own, which serves the newest version as
 * written (Fastify validates and serializes it; **no conversion code runs for it**) and every older version by its
 * shape (see olderRouteHooks). Elsewhere it is two: the app's own for the versions of the newest shape, and one for
 * all the older versions, which validates, converts and serializes a request by its version's shape. What a shape
 * needs is compiled at its first request. A route of several methods is one route a method first. `declared`
 * collects what the checks at ready need.
 */
export function expandRoute (instance: FastifyInstance, route: DeclaredRoute, list: VersionList | null, declared: ChangingRoutes, context: ExpandContext): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  const label = `${methods.join(',')} ${route.url}`
  const given = (route as unknown as Record<string, unknown>)[OPTION]
  if (given !== true) fail(label, `${OPTION} must be true (got ${messageOf(given)})`)
  if (list === null) fail(label, `${OPTION}: true needs the versionChanges option of the plugin: the list of versions and their changes (see docs/version-changes.md)`)
  const declaring = declaringOf(route as unknown as Record<string, unknown>)
  if (declaring.length > 0) fail(label, `${OPTION}: true takes its versions from the versionChanges option, so it cannot declare ${declaring.join(' or ')} too; remove ${declaring.length === 1 ? 'it' : 'them'}, or declare the route without ${OPTION}`)
  if (methods.length > 1) {
    // One route a method: their versions and conversions may differ. Fastify adds the HEAD route of a GET from
    // this route's options, once.
    for (const method of methods.slice(1)) instance.route({ ...route, ...besideRoute(route, method), method, exposeHeadRoute: false } as RouteOptions)
    route.method = methods[0]
  }
  // Expanded here, once: what the router gets is made by this stage.
  const own = route as unknown as Record<string, unknown>
  own[OPTION] = undefined
  Object.assign(route, { [kMadeByChanges]: true })
  const method = methods[0]
  // A HEAD route answers for its GET route unless an instruction names HEAD itself. A route at an older URL of its
  // endpoint answers to the endpoint's name (see endpoint-names.ts).
  const endpoint = endpointUrlOf(route)
  const keys = method === 'HEAD' ? [`HEAD ${endpoint}`, `GET ${endpoint === route.url ? getUrlOfHead(route) : endpoint}`] : [`${method} ${endpoint}`]
  for (const key of keys) declared.names.add(key)
  const since = movedOffAt(route)
  const exists = versionsOfEndpoint(list, method, route.url, since)
  if (method === 'HEAD' && exists.every(Boolean)) exists.splice(0, exists.length, ...versionsOfEndpoint(list, 'GET', route.url, since))
  // Instructions that contradict each other throw above: an endpoint is always in some version.
  const last = exists.lastIndexOf(true)

  const shared = sharedSchemasOf(instance)
  const declaredSchema = route.schema
  const library = codeSchemaPart(declaredSchema)
  if (library !== null) fail(label, `${OPTION}: true derives its older versions' schemas from its JSON Schemas, but its ${library} schema is a schema of a validation library (zod, valibot: a Standard Schema), which a type provider compiles; write the route's schemas in TypeBox or plain JSON Schema, or declare the route without ${OPTION}`)
  // Planned now, without them: what the checks at ready must see, where the route has older versions.
  const unknown = exists.some((older, k) => k > 0 && older) ? unknownRefs(declaredSchema, shared) : []
  if (unknown.length > 0) declared.late.push({ label, refs: unknown, shared })
  // The route's schema and steps in each version: planned at start-up for the checks and the groups of versions,
  // and again at the first request that needs them (from the derivations kept for every route): the route keeps
  // none of it in between.
  const source: PlanSource = { schema: declaredSchema, list, last, shared, label, keys }
  // The plan is let go of once read (no closure of this function may name it: the closures the route keeps would
  // keep it too). Routes of the same schemas, versions and shared schemas find the same: planned once.
  const known = planKey(declaredSchema, exists, shared, list, keys)
  let checked = known === null ? undefined : declared.plans.get(known)
  if (checked === undefined) {
    checked = checkedGroups(planOf(source), list, exists, shared, label, keys, declared)
    if (known !== null) declared.plans.set(known, checked)
  }
  const { converting, differ, respondsAlike } = checked
  collectSchemas(declaredSchema, declared.schemas)
  checked.shared ??= sharedGroups(checked.groups, list, declared.groupMaps)
  const { newestGroup, groups: olderGroups, groupOf, every, newestVersions, olderVersions } = checked.shared
  const answers = context.answersOwn(method)
  const converts = olderGroups.some(({ from }) => converting.has(from))
  // What the shapes use of the context, which the route would otherwise keep whole.
  const { allow, queryNames } = context
  if (answers) {
    // Its version problems pass none of its own hooks after onRequest ones, as on a hidden route.
    for (const kind of AFTER_ANSWER) if (own[kind] !== undefined) own[kind] = onlyFor(true, kind, own[kind])
    Object.assign(route, { [kServesAll]: newestVersions ?? every })
  }
  if (olderGroups.length === 0) {
    Object.assign(route, every)
    return
  }

  const { url, validatorCompiler, serializerCompiler } = route
  const shapes = new RouteShapes({ ...source, instance, method, url, validatorCompiler, serializerCompiler, groups: olderGroups, groupOf, allow, queryNames })
  // With versionChangesCompile: 'eager', all of it once the app is ready, with the compilers Fastify set up then.
  declared.warmers.push(shapes)
  const documentedShapes = (): DocumentedShape[] => shapes.documented()
  if (newestGroup !== null && answers) {
    // One route serves every version: the newest with its own schema, the older ones by their shapes.
    // The steps of its older versions' requests, where they have some, only on those requests (see kEnterOlder).
    const hooks = olderRouteHooks(shapes, { attachValidation: route.attachValidation === true, converts, newest: differ ? 'differ' : 'same', moves: true, responds: !respondsAlike })
    Object.assign(route, { [kDocumentedShapes]: documentedShapes, ...hooks.sent === null ? {} : { [kSent]: hooks.sent }, ...hooks.enter === null ? {} : { [kEnterOlder]: hooks.enter }, ...every, ...withHooks(route, hooks) })
    return
  }
  // Where the route serves the newest versions too, its request schemas (the newest's) are validated after an older
  // request is converted, as on one route for every version: the handler gets what they let through (their defaults).
  const hooks = olderRouteHooks(shapes, { attachValidation: route.attachValidation === true, converts, newest: newestGroup === null ? null : differ ? 'differ' : 'same', moves: false, responds: true })
  // The route's options (its versionChanges option is undefined now), for its older versions.
  const older: Record<string | symbol, unknown> = {
    ...route,
    [kDocumentedShapes]: documentedShapes,
    // Its versions' schemas are its hooks' to run, but for the newest's request schemas, which Fastify validates
    // after them where the route serves the newest versions too. Its documents are the shapes', not its own.
    schema: newestGroup === null ? { hide: true } : { ...requestSchemas(declaredSchema), hide: true },
    ...olderVersions,
    [kSent]: hooks.sent
  }
  Object.assign(older, withHooks(older as unknown as DeclaredRoute, hooks))
  if (newestGroup === null) {
    Object.assign(route, older)
    return
  }
  Object.assign(route, newestVersions)
  // Fastify adds the HEAD route of a GET once, from the route's own options. Its path as declared, under the prefix
  // once: Fastify takes `path` where `url` is '' (the root of a prefix), and `path` has the prefix already.
  Object.assign(older, besideRoute(route, method))
  older.exposeHeadRoute = false
  instance.route(older as unknown as RouteOptions)
}

// The route's own hooks with those of its older versions: after them, as they were written for the newest version,
// but the conversion of a request, before its own preHandler hooks. What reaches onSend unconverted is converted
// first of the onSend hooks, on the context an older request is moved onto (see OlderRouteHooks.enter), else (a
// request answered before it was moved) by the plugin's onSend hook (see kSent).
function withHooks (route: DeclaredRoute, hooks: OlderRouteHooks): Pick<RouteOptions, 'onRequest' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onError'> {
  return {
    onRequest: append(route.onRequest, hooks.onRequest),
    preValidation: append(route.preValidation, hooks.preValidation),
    preHandler: hooks.preHandler === null ? route.preHandler : prepend(hooks.preHandler, route.preHandler),
    preSerialization: append(route.preSerialization, hooks.preSerialization),
    onError: append(route.onError, hooks.onError)
  } as Pick<RouteOptions, 'onRequest' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onError'>
}

// The route options among DECLARING that a route gives. Apart, so that no closure of expandRoute names the route:
// what its route keeps would keep the route's options too.
function declaringOf (route: Record<string, unknown>): string[] {
  return DECLARING.filter(name => route[name] !== undefined)
}

/** What checkedGroups finds of a route; with what routes of the same groups share, once made. */
interface CheckedGroups {
  readonly groups: Array<{ from: number, versions: number[] }>
  readonly converting: Set<number>
  readonly differ: boolean
  readonly respondsAlike: boolean
  shared?: SharedGroups
}

/** A route's versions as route options declare them. */
type RouteVersions = Pick<DocumentedShape, 'apiVersions' | 'deprecatedApiVersions'>

// The versions at these indexes of the list, as a route declares them.
function versionsAt (list: VersionList, indexes: readonly number[]): RouteVersions {
  return { apiVersions: versionsIn(indexes.map(i => list[i]), false), deprecatedApiVersions: versionsIn(indexes.map(i => list[i]), true) }
}

/** The groups of a route's versions, and their versions as route options declare them: shared by routes alike. */
interface SharedGroups extends OlderGroups {
  readonly newestGroup: { readonly from: number, readonly versions: readonly number[] } | null
  readonly every: RouteVersions
  readonly newestVersions: RouteVersions | null
  readonly olderVersions: RouteVersions
}

function sharedGroups (groups: CheckedGroups['groups'], list: VersionList, maps: Map<string, OlderGroups>): SharedGroups {
  const newestGroup = groups[0].from === 0 ? groups[0] : null
  const older = groupMap(newestGroup === null ? groups : groups.slice(1), list, maps)
  return {
    ...older,
    newestGroup,
    every: versionsAt(list, groups.flatMap(group => group.versions)),
    newestVersions: newestGroup === null ? null : versionsAt(list, newestGroup.versions),
    olderVersions: versionsAt(list, older.groups.flatMap(group => group.versions))
  }
}

// Objects by a number, for keys made of their identities.
const ids = new WeakMap<object, number>()
let lastId = 0
function idOf (value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(JSON.stringify(value))
  let id = ids.get(value)
  if (id === undefined) ids.set(value, id = ++lastId)
  return `#${id}`
}

// What checkedGroups finds of a route depends on its schemas' parts, the versions it is in and the shared schemas
// alone, unless a migration names the route itself (null: planned for it alone).
function planKey (schema: FastifySchema | undefined, exists: readonly boolean[], shared: SharedSchemas, list: VersionList, keys: readonly string[]): string | null {
  const named = namedRoutes(list)
  if (keys.some(key => named.has(key))) return null
  const given = (schema ?? {}) as Record<string, unknown>
  const response = isObject(given.response) ? Object.entries(given.response).map(([status, value]) => `${status}=${idOf(value)}`).join(',') : idOf(given.response)
  return [exists.map(Number).join(''), idOf(shared), idOf(given.body), idOf(given.querystring ?? given.query), idOf(given.params), idOf(given.headers), response].join(' ')
}

// The routes a migration of the list names, by list.
const named = new WeakMap<VersionList, ReadonlySet<string>>()
function namedRoutes (list: VersionList): ReadonlySet<string> {
  let routes = named.get(list)
  if (routes === undefined) {
    routes = new Set(stepsOf(list).flatMap(step => [...step.requests, ...step.responses].flatMap(rule => rule.route === null ? [] : [rule.route])))
    named.set(list, routes)
  }
  return routes
}

/** Older groups of versions, and the group of each of their versions by key (see ChangingRoutes.groupMaps). */
export interface OlderGroups {
  readonly groups: ReadonlyArray<{ readonly from: number, readonly versions: readonly number[] }>
  readonly groupOf: ReadonlyMap<string, number>
}

// The older groups, and the group of each of their versions: another route's where it has the same groups.
function groupMap (groups: ReadonlyArray<{ from: number, versions: readonly number[] }>, list: VersionList, maps: Map<string, OlderGroups>): OlderGroups {
  const id = groups.map(({ versions }) => versions.join(',')).join(';')
  let known = maps.get(id)
  if (known === undefined) {
    const groupOf = new Map<string, number>()
    groups.forEach(({ versions }, g) => { for (const i of versions) groupOf.set(list[i].version.key, g) })
    maps.set(id, known = { groups, groupOf })
  }
  return known
}

/** A route's schema and steps in each version of the list. */
interface RoutePlan {
  readonly data: readonly VersionSchemas[]
  readonly steps: StepPlan
}

/** What a route's plan is made of: the route's schema as declared, and where it is in the list. */
interface PlanSource {
  readonly schema: FastifySchema | undefined
  readonly list: VersionList
  /** The index of its oldest version. */
  readonly last: number
  readonly shared: SharedSchemas
  readonly label: string
  readonly keys: readonly string[]
}

function planOf ({ schema, list, last, shared, label, keys }: PlanSource): RoutePlan {
  const data = versionSchemas(schema, list, last, shared, label, keys)
  return { data, steps: stepPlan(list, keys, data, shared) }
}

/** What a route's older shapes are made of, besides its plan. */
interface ShapeSource extends PlanSource, OlderGroups {
  readonly instance: FastifyInstance
  readonly method: string
  readonly url: string
  readonly validatorCompiler: RouteOptions['validatorCompiler']
  readonly serializerCompiler: RouteOptions['serializerCompiler']
  readonly allow: (schema: FastifySchema | undefined) => FastifySchema | undefined
  readonly queryNames: readonly string[]
}

/**
 * The older versions' shapes of a route, each made at its first request (`versionChangesCompile: 'eager'`: all of
 * them once the app is ready, see `warm`), from a plan made then. One object a route rather than a closure for each
 * of its parts, which a thousand routes would hold ten times over.
 */
class RouteShapes implements RouteShapesOf {
  private plan: RoutePlan | null = null
  private readonly made: Array<OlderShape | undefined> = []
  // The last version's, kept: clients send one version again and again, and each request asks at every hook of the
  // route (the same key, which the parse cache gives), where a lookup costs more.
  private lastKey: string | null = null
  private lastShape: OlderShape | null = null
  private newestSerializers: VersionSerializers | null = null

  constructor (private readonly source: ShapeSource) {}

  /** The shape of the version of `key`; null for a version of the newest shape. */
  shapeOf (key: string): OlderShape | null {
    if (key === this.lastKey) return this.lastShape
    const g = this.source.groupOf.get(key)
    this.lastShape = g === undefined ? null : this.shapeAt(g)
    this.lastKey = key
    return this.lastShape
  }

  /** The newest version's serializer of a reply's status and type (see VersionSerializers). */
  newest (reply: FastifyReply): Serialize | null {
    return this.newestOnes()(reply)
  }

  /** The newest version's schema of a reply's media type (see VersionSerializers.byMediaType). */
  newestByMediaType (reply: FastifyReply): unknown {
    return this.newestOnes().byMediaType(reply)
  }

  /** The older shapes as the documents show them. A shared schema a change changed stays a component of its name. */
  documented (): DocumentedShape[] {
    const { groups, list, shared } = this.source
    return groups.map(({ from, versions }) => ({ schema: markSharedCopies(this.schemaOf(from), shared) as FastifySchema | undefined, ...versionsAt(list, versions) }))
  }

  /** Compiles every older shape, and the newest's serializers of errors, with the compilers Fastify set up. */
  warm (): void {
    const { instance, validatorCompiler, serializerCompiler, method, url, groups } = this.source
    const validator = (validatorCompiler ?? instance.validatorCompiler) as ValidatorCompiler | undefined
    const serializer = (serializerCompiler ?? instance.serializerCompiler) as SerializerCompiler | undefined
    if (serializer !== undefined) {
      // The newest version's serializers write the errors Fastify writes: those of error statuses.
      this.newestOnes().compile(given => serializer({ ...given, method, url }), status => /^[45d]/.test(status))
      for (let g = 0; g < groups.length; g++) this.shapeAt(g).serializerOf.compile(given => serializer({ ...given, method, url }))
    }
    if (validator !== undefined) for (let g = 0; g < groups.length; g++) this.shapeAt(g).validation?.compile(given => validator({ ...given, method, url }))
  }

  private planned (): RoutePlan {
    this.plan ??= planOf(this.source)
    return this.plan
  }

  // A version's schema as Fastify and the documents take it: the route's, with that version's parts.
  private schemaOf (k: number): FastifySchema | undefined {
    const { schema } = this.source
    return schema === undefined ? schema : fastifySchema(schema, this.planned().data[k])
  }

  private shapeAt (g: number): OlderShape {
    this.made[g] ??= this.olderShape(this.source.groups[g].from)
    return this.made[g]
  }

  private olderShape (from: number): OlderShape {
    const { data, steps } = this.planned()
    const { instance, serializerCompiler, allow, list, queryNames } = this.source
    const writtenNamedOnly = writesNamedOnly(serializerCompiler ?? instance.serializerCompiler)
    return {
      validation: versionValidation(allow(this.schemaOf(from)) as Record<string, unknown> | undefined),
      conversion: conversionFrom(steps, from, { versions: list.map(entry => entry.text), newest: data[0], queryNames, writtenNamedOnly }),
      serializerOf: versionSerializers(data[from].response)
    }
  }

  private newestOnes (): VersionSerializers {
    this.newestSerializers ??= versionSerializers(this.planned().data[0].response)
    return this.newestSerializers
  }
}

/**
 * Checks what a route's versions need (each migration it runs noted; each field rule whose schema it holds noted,
 * and refused where its data needs a migration the step lacks), and gives the runs of versions of one shape, with
 * those of them whose requests are converted up, and whether some older one's requests have other schemas than the
 * newest's.
 */
function checkedGroups ({ data, steps }: RoutePlan, list: VersionList, exists: readonly boolean[], shared: SharedSchemas, label: string, keys: readonly string[], declared: ChangingRoutes): CheckedGroups {
  const listed = stepsOf(list)
  // Whether some step's migrations convert the route's responses (by the route, or by a schema they hold).
  let migratesResponses = false
  for (let k = 0; k < data.length - 1; k++) {
    const step = listed[k]
    const newer = data[k]
    for (const rule of step.requests) if (rule.route === null && inRequests(newer, only(rule), shared)) declared.migrating.add(rule)
    for (const rule of step.responses) {
      if (rule.route !== null) migratesResponses ||= keys.includes(rule.route)
      else if (inResponses(newer, only(rule), shared)) {
        declared.migrating.add(rule)
        migratesResponses = true
      }
    }
    for (const rule of [...step.rules, ...step.enums]) {
      const holding = holdingOf(newer, rule, shared)
      if (holding === null) continue
      declared.held.add(rule)
      const need = ruleNeeds(rule)
      if (need === null) continue
      const missing = missingMigrations(need, holding, steps.at(k), schema => holds(schema, rule, shared))
      if (missing.length > 0) fail(label, `the change of ${step.version}, ${rule.at}: ${missing[0]}; add it to that change`)
    }
  }
  const groups = groupsOf(exists, steps, data)
  // A group's requests are converted up where some step newer than it converts requests: one pass, newest first.
  const converting = new Set<number>()
  let k = 0
  let converts = false
  for (const { from } of groups) {
    for (; k < from && !converts; k++) converts = steps.touches(k) && steps.at(k).request !== null
    if (converts) converting.add(from)
  }
  // Whether some older group's requests have other schemas than the newest's.
  const differ = groups.some(({ from }) => from > 0 && PARTS.some(part => data[from][part] !== data[0][part]))
  // Whether every older group's responses are the newest's: the very schemas (a version whose changes touch none
  // has them), no migration converting them.
  const respondsAlike = !migratesResponses && groups.every(({ from }) => data[from].response === data[0].response)
  return { groups, converting, differ, respondsAlike }
}

/**
 * The route's schema in each version of the list down to `last`, by parts: index 0 is the app's own, each older one
 * derived; a version whose changes touch none of its parts has the very object of the version after it.
 */
function versionSchemas (schema: FastifySchema | undefined, list: VersionList, last: number, shared: SharedSchemas, label: string, keys: readonly string[]): VersionSchemas[] {
  const given = (schema ?? {}) as Record<string, unknown>
  const versions: VersionSchemas[] = [{
    body: given.body,
    querystring: given.querystring ?? given.query,
    params: given.params,
    headers: given.headers,
    response: isObject(given.response) ? new Map(Object.entries(given.response)) : undefined
  }]
  const steps = stepsOf(list)
  // Once, on the newest schemas, for the instructions of every step (a walk a step cost ~4% of a start).
  const rules = steps.slice(0, last).flatMap(step => step.rules)
  for (const [part, value] of [...PARTS.map(part => [part, versions[0][part]] as const), ...[...versions[0].response ?? []].map(([status, value]) => [`response ${status}`, value] as const)]) {
    const clash = unionClash(value, rules, shared)
    if (clash !== null) fail(label, clashMessage(clash, steps, `its ${part}`, 'request and response migrations by its schema (they see the value, and can tell the members apart)'))
  }
  for (let k = 0; k < last; k++) {
    const newer = versions[k]
    const step = steps[k]
    const status = step.statuses.find(change => keys.includes(change.route))
    // Most versions of a long list change other routes or behaviour only: the very schemas of the version after.
    if (step.rules.length + step.enums.length === 0 && status === undefined) {
      versions.push(newer)
      continue
    }
    // A path parameter is named by the URL, which every version shares.
    const renamed = step.rules.filter(rule => rule.kind === 'renamed' && locatorOf(newer.params, only(rule), shared) !== null)
    if (renamed.length > 0) fail(label, `the change of ${step.version}, ${renamed[0].at}, renames a path parameter, which the route's URL names in every version; declare the older versions' route apart instead, with apiVersions`)
    // Where a rule changes a schema, its data must be found to be converted: a schema under `not`, `if`, `contains`
    // and the like is derived, but no value of it is converted.
    const derived = (part: string, value: unknown): unknown => {
      if (value === undefined) return value
      const applied = new Set<FieldRule>()
      const result = derivedPart(value, step, shared, applied)
      for (const rule of applied) {
        if (rule.kind !== 'changed' && locatorOf(value, only(rule), shared) === null) {
          fail(label, `the change of ${step.version}, ${rule.at}, changes a schema that its ${part} holds only where no value is converted (under not, if, then, else, contains, propertyNames, dependentSchemas or dependencies); older versions would be told one shape and served another: hold that schema under properties, items, additionalProperties, patternProperties, allOf, anyOf or oneOf, or change the schema around it`)
        }
      }
      return result
    }
    const older: Record<string, unknown> = {}
    let changed = false
    for (const part of PARTS) {
      older[part] = derived(part, newer[part])
      changed ||= older[part] !== newer[part]
    }
    let response = newer.response
    if (response !== undefined) {
      const statuses = [...response].map(([status, value]) => [status, derived(`response ${status}`, value)] as const)
      if (statuses.some(([status, value]) => value !== response?.get(status))) {
        response = new Map(statuses)
        changed = true
      }
      const keyed = status === undefined ? response : withStatus(response, status, label, step.version)
      changed ||= keyed !== response
      response = keyed
    }
    versions.push(changed ? { ...older, response } : newer)
  }
  return versions
}

// A version's responses with their success ones under the status the version before answered: one schema, or none.
function withStatus (response: ReadonlyMap<string, unknown>, change: StatusChange, label: string, version: string): ReadonlyMap<string, unknown> {
  const successes = [...response].filter(([status]) => movesWithStatus(status))
  if (successes.length === 0) return response
  if (successes.some(([, schema]) => !sameShape(schema, successes[0][1]))) {
    fail(label, `the change of ${version}, ${change.at}, says older versions answered ${change.status}, but the route declares several success responses (${successes.map(([status]) => status).join(', ')}) with other schemas, which one status cannot hold; declare one, or give them one schema`)
  }
  const keyed = new Map<string, unknown>()
  for (const [status, schema] of response) {
    if (!movesWithStatus(status)) keyed.set(status, schema)
    else if (!keyed.has(String(change.status))) keyed.set(String(change.status), schema)
  }
  return keyed
}

// A part's schema as the version before sees it; by media type where the part has them (`content`).
function derivedPart (value: unknown, step: VersionStep, shared: SharedSchemas, applied: Set<FieldRule>): unknown {
  if (!isObject(value) || !isObject(value.content)) return deriveSchema(value, step, shared, applied)
  // Fastify takes no media type without its schema.
  const content = value.content as Record<string, { schema: unknown }>
  const media = Object.entries(content).map(([type, entry]) => {
    const schema = deriveSchema(entry.schema, step, shared, applied)
    return [type, schema === entry.schema ? entry : { ...entry, schema }] as const
  })
  return media.every(([type, entry]) => entry === content[type]) ? value : { ...value, content: Object.fromEntries(media) }
}

// The parts of a route's schema that Fastify validates a request by. The query string's once, as `querystring`: a
// schema an app made ready before has `query` and the `querystring` Fastify copied it to, which a new route's
// schema may not have both of.
function requestSchemas (schema: FastifySchema | undefined): FastifySchema {
  const own: Record<string, unknown> = { ...schema }
  return Object.fromEntries(PARTS.map(part => [part, part === 'querystring' ? own.querystring ?? own.query : own[part]]).filter(([, value]) => value !== undefined))
}

// A version's schema as Fastify takes a route's: the route's own, with the version's parts.
function fastifySchema (schema: FastifySchema, parts: VersionSchemas): FastifySchema {
  const own = schema as Record<string, unknown>
  const made: Record<string, unknown> = { ...own }
  for (const part of PARTS) if (parts[part] !== undefined) made[part] = parts[part]
  // A query string schema given as `query`: Fastify copies it to `querystring` in the route's schema as the app gets
  // ready, before any shape is made, and validation and documents read that; both names are the version's.
  if (own.query !== undefined) made.query = made.querystring
  if (parts.response !== undefined) made.response = Object.fromEntries(parts.response)
  return made as FastifySchema
}

// Where a version's schemas of a route hold the schema a rule names; null for nowhere.
function holdingOf (schemas: VersionSchemas, rule: FieldRule | EnumRule, shared: SharedSchemas): Holding | null {
  const parts = REQUEST_PARTS.filter(part => holds(schemas[part], rule, shared))
  const statuses = [...schemas.response ?? []].filter(([, schema]) => holds(schema, rule, shared)).map(([status]) => status)
  return parts.length + statuses.length === 0 ? null : { parts, statuses }
}

function collectSchemas (value: unknown, into: Set<object>): void {
  if (typeof value !== 'object' || value === null || into.has(value)) return
  into.add(value)
  for (const member of Object.values(value)) collectSchemas(member, into)
}

/**
 * Runs of versions (by index, newest first) in which the route exists with one shape: no step between them
 * changes its schemas (what Fastify validates and serializes, and the documents show) or converts its data.
 */
function groupsOf (exists: readonly boolean[], steps: StepPlan, schemas: readonly VersionSchemas[]): Array<{ from: number, versions: number[] }> {
  const groups: Array<{ from: number, versions: number[] }> = []
  let current: { from: number, versions: number[] } | null = null
  for (let i = 0; i < exists.length; i++) {
    if (!exists[i]) {
      current = null
      continue
    }
    const touched = i > 0 && (schemas[i - 1] !== schemas[i] || steps.touches(i - 1))
    if (current === null || touched) groups.push(current = { from: i, versions: [] })
    current.versions.push(i)
  }
  return groups
}

// The versions of a run as the route declares them: the listed ones deprecated, or the others; none is undefined.
// Frozen: the routes alike share them, and routing reads a frozen list once (see readDeclaration).
function versionsIn (versions: readonly ListedVersion[], deprecated: boolean): readonly string[] | undefined {
  const texts = versions.filter(v => v.deprecated === deprecated).map(v => v.text)
  return texts.length === 0 ? undefined : Object.freeze(texts)
}

// The first part of a route's schema that is a validation library's, not a JSON Schema: `body`, `response 200`,
// `response 200 text/csv` (one of Fastify's schemas by content type).
function codeSchemaPart (schema: FastifySchema | undefined): string | null {
  if (!isObject(schema)) return null
  for (const [part, value] of Object.entries(schema)) {
    const found = part === 'response' && isObject(value) ? Object.entries(value).map(([status, response]) => codeSchemaIn(response, `response ${status}`)).find(at => at !== null) : codeSchemaIn(value, part)
    if (found !== undefined && found !== null) return found
  }
  return null
}

function codeSchemaIn (schema: unknown, at: string): string | null {
  if (isCodeSchema(schema)) return at
  if (!isObject(schema) || !isObject(schema.content)) return null
  for (const [type, media] of Object.entries(schema.content)) if (isObject(media) && isCodeSchema(media.schema)) return `${at} ${type}`
  return null
}
