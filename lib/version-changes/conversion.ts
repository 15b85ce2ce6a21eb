import type { FastifyReply, FastifyRequest } from 'fastify'
import { isObject } from '../util/is-object.js'
import { isOpaqueBody } from '../util/opaque-body.js'
import { requestPart } from '../util/request-part.js'
import { serverError } from '../util/server-error.js'
import { isThenable } from '../util/is-thenable.js'
import { innerWeakMap } from '../util/inner-weak-map.js'
import { locator, type Locate } from './locate.js'
import { names } from './schema-identity.js'
import { recheck, type Rechecked } from './recheck.js'
import { downName, rebuild, removedName, upName } from './renaming.js'
import { bodyAfter } from './migration-result.js'
import { forStatus, keyFor, movesWithStatus } from './status-key.js'
import { compileNames, type NamesStep } from './compiled-names.js'
import type { SharedSchemas } from './shared-ref.js'
import type { VersionSchemas } from './version-parts.js'
import type { FieldRule, MigrationRule, RequestToMigrate, ResponseRule, ResponseToMigrate } from './version-change.js'
import type { VersionList } from './version-list.js'
import { isStatusRule, only, stepsOf, type VersionStep } from './version-steps.js'

/** The parts of a request a conversion reads and writes. */
export const REQUEST_PARTS = ['body', 'querystring', 'params', 'headers'] as const
type RequestPart = typeof REQUEST_PARTS[number]

/** One migration of a step: of the route (`locates` null), or of each value of its schema in the parts. */
export interface Migration<R> {
  readonly rule: R
  readonly locates: ReadonlyArray<readonly [string, Locate<R>]> | null
}

export interface RequestStep {
  /** The version whose changes these are, as listed. */
  readonly version: string
  /** Renamed and added fields, found in the client's version's schema. */
  readonly ups: ReadonlyArray<readonly [RequestPart, Locate<FieldRule>]>
  readonly migrations: ReadonlyArray<Migration<MigrationRule<RequestToMigrate>>>
  /** Fields the newer version no longer has, dropped after the migrations. */
  readonly drops: ReadonlyArray<readonly [RequestPart, Locate<FieldRule>]>
  /** What of the step may leave a request its newer version's schema does not take: its migrations, its changed fields. */
  readonly unsure: readonly string[]
}

export interface ResponseStep {
  readonly version: string
  /** Renamed and added fields, by status key. */
  readonly auto: ReadonlyMap<string, Locate<FieldRule>>
  /**
   * Each with its locators by status key; `moves`, of a status change, the statuses it moves: the success responses
   * the route declares (any where it declares none), never a 204, which has no content to answer with another (null
   * for any other migration).
   */
  readonly migrations: ReadonlyArray<{ readonly rule: ResponseRule, readonly route: boolean, readonly byStatus: ReadonlyMap<string, Locate<ResponseRule>>, readonly moves: ((status: number) => boolean) | null }>
}

/** What the changes of one version (step k) do to a route's data: null where they do not touch it. */
export interface Step {
  readonly request: RequestStep | null
  readonly response: ResponseStep | null
}

/** What converts a response down: the body, or a promise of it where a migration runs. */
export type Down = (reply: ReplyState, body: unknown) => unknown

/** What a status needs of a body Fastify serialized unconverted: nothing, the body as it is, or its data. */
export type Need = 'none' | 'body' | 'data'

/** What converts the requests and responses of one route between one version of the list and the newest. */
export interface Conversion {
  /** Converts a request up to the newest version, in place; a promise where a migration or check runs; null for none. */
  readonly up: ((request: FastifyRequest) => void | Promise<void>) | null
  /**
   * Whether converting a request up only renames and drops fields, synchronously: no migration (the app's code,
   * whose errors are the app's to answer with) runs, nor a check of what they left (see recheck.ts).
   */
  readonly renamesOnly: boolean
  /** Converts a response's body down to the version; null for none. */
  readonly down: Down | null
  /** What a status needs of a body that reaches the onSend hook unconverted (an error's, a text, a stream). */
  readonly needs: (status: number) => Need
  /**
   * Whether a request of the version that its own schemas validated has, converted up, a body that the newest
   * version's validation leaves as it is and lets pass: only renamed and dropped fields of what was validated (the
   * schemas of each field alike), or checked against the newest's schemas (see recheck.ts). Not where a field of
   * the body was added, which the newest's validation may give its default.
   */
  readonly bodyAsNewest: boolean
}

/** What a conversion needs of its route beyond its steps. */
export interface ConversionContext {
  /** The versions of the list, as listed. */
  readonly versions: readonly string[]
  /** The newest version's schemas of the route: a converted request is checked against them. */
  readonly newest: VersionSchemas
  /** The query parameters that carry the version (lower case): no schema's to check. */
  readonly queryNames: readonly string[]
  /**
   * The route's responses are written with their schemas by a serializer that writes only the properties a schema
   * names (fast-json-stringify, see writesNamedOnly): a response converted without migrations is then only written.
   */
  readonly writtenNamedOnly?: boolean
}

/** What each step does to the data of one route: planned at its first use, and told without planning it. */
export interface StepPlan {
  /** Step k (the changes of version k): converts a request of version k + 1 into version k, a response back. */
  at (k: number): Step
  /** Whether step k converts any of the route's data: a request or response step of it is not null. */
  touches (k: number): boolean
  /** The version list, the route's schema in each of its versions, and the shared schemas they are read with. */
  readonly list: VersionList
  readonly schemas: readonly VersionSchemas[]
  readonly shared: SharedSchemas
}

/**
 * What each step does to the data of the route `routeKeys` (`'POST /orders'`, one per name it answers to):
 * `schemas[k]` is its schema in the version at index k. A step is planned at its first use (a request of a
 * version that needs it); whether it touches the route is told from the planned places of its rules alone.
 */
export function stepPlan (list: VersionList, routeKeys: readonly string[], schemas: readonly VersionSchemas[], shared: SharedSchemas): StepPlan {
  const listed = stepsOf(list)
  const planned: Array<Step | undefined> = []
  // Asked for every step of every group of versions, at start-up and at each version's first request.
  const touched: Array<boolean | undefined> = []
  return {
    list,
    schemas,
    shared,
    at (k) {
      planned[k] ??= { request: requestStep(listed[k], routeKeys, schemas[k + 1], schemas[k], shared), response: responseStep(listed[k], routeKeys, schemas[k], shared) }
      return planned[k]
    },
    touches (k) {
      touched[k] ??= stepTouches(listed[k], routeKeys, schemas[k + 1], schemas[k], shared)
      return touched[k]
    }
  }
}

type Rules = ReadonlyArray<{ schema: unknown, id: string | null }>

/** Whether the rules' schemas are in a version's request parts of a route (see locatorOf). */
export function inRequests (schemas: VersionSchemas, rules: Rules, shared: SharedSchemas): boolean {
  return REQUEST_PARTS.some(part => locatorOf(schemas[part], rules, shared) !== null)
}

/** Whether a schema (an object, or the `$id` of a shared schema) is or holds the one a rule names (see locatorOf). */
export function holds (schema: unknown, rule: { schema: unknown, id: string | null }, shared: SharedSchemas): boolean {
  return locatorOf(typeof schema === 'string' ? shared(schema) : schema, only(rule), shared) !== null
}

/** Whether the rules' schemas are in a version's responses of a route (see locatorOf). */
export function inResponses (schemas: VersionSchemas, rules: Rules, shared: SharedSchemas): boolean {
  return [...schemas.response?.values() ?? []].some(schema => locatorOf(schema, rules, shared) !== null)
}

// Whether a step converts any of a route's data, from the planned places of its rules alone (see StepPlan.touches).
function stepTouches (step: VersionStep, routeKeys: readonly string[], older: VersionSchemas, newer: VersionSchemas, shared: SharedSchemas): boolean {
  return inRequests(older, step.automatic, shared) || inRequests(newer, step.removed, shared) || inResponses(newer, step.automatic, shared) ||
    step.changed.some(rule => inRequests(newer, only(rule), shared)) ||
    step.requests.some(rule => rule.route === null ? inRequests(newer, only(rule), shared) : routeKeys.includes(rule.route)) ||
    step.responses.some(rule => rule.route === null ? inResponses(newer, only(rule), shared) : routeKeys.includes(rule.route))
}

/**
 * The conversions of the version at index `from`: a request goes up through steps `from - 1` to 0 (in each, the
 * renames, with the fields the client's version lacks dropped; the migrations, seeing the names of the version they
 * belong to; then the fields the newer version no longer has dropped), then is checked against the newest version's
 * schema where a migration or a changed field may have left it otherwise; a response goes down through steps 0 to
 * `from - 1` (the migrations, seeing the names of the version they belong to; then the fields older versions lack
 * are dropped and the renamed ones named back). Only the steps that touch the route run.
 */
export function conversionFrom (steps: StepPlan, from: number, context: ConversionContext): Conversion {
  const up: number[] = []
  const down: number[] = []
  for (let k = from - 1; k >= 0; k--) if (steps.touches(k) && steps.at(k).request !== null) up.push(k)
  for (let k = 0; k < from; k++) if (steps.touches(k) && steps.at(k).response !== null) down.push(k)
  const responses = down.map(k => steps.at(k).response as ResponseStep)
  return {
    up: up.length === 0 ? null : upward(steps, up, context.versions[from], context),
    renamesOnly: up.every(k => (steps.at(k).request as RequestStep).unsure.length === 0),
    // A field an older version has that this one removed (no migration need give it, where optional) is the
    // handler's to send: only a pass that keeps what the value has beside its schema's names gives it.
    down: down.length === 0 ? null : downward(steps, down, context.writtenNamedOnly === true && !removesFrom(steps, from)),
    needs: needsOf(responses),
    // A step that is not sure has the converted request checked against the newest's schemas (see upward).
    bodyAsNewest: up.some(k => (steps.at(k).request as RequestStep).unsure.length > 0) || !up.some(k => addsToBody(steps, k))
  }
}

// Whether step k added a field to a schema the body holds in the newer version.
function addsToBody (plan: StepPlan, k: number): boolean {
  return locatorOf(plan.schemas[k].body, stepsOf(plan.list)[k].automatic.filter(rule => rule.kind === 'added'), plan.shared) !== null
}

/**
 * A run of steps whose renames and dropped fields go in one pass (see compileNames), from the version `start`: by
 * part of a request, or by status of a response (its key in the start version's schemas), compiled at first use;
 * where it cannot be, each step walks the value as it locates its sites (`interpreted`).
 */
interface NamesRun {
  readonly start: number
  readonly steps: NamesStep[]
  readonly interpreted: Array<(box: { value: unknown }, key: string) => void>
  readonly compiled: Map<string, (value: unknown) => unknown>
  /** A request's parts the run converts, each with its pass; made at the first request. */
  parts?: ReadonlyArray<readonly [RequestPart, (value: unknown) => unknown]>
  /** What the run gives is only written with its version's schema (see compileNames). */
  written: boolean
  /**
   * The body the run is given was validated by its version's schema (see compileNames): a request's first run. (Not
   * its query string: the plugin's version parameters were let through its check.)
   */
  validated: boolean
  // The status of the last response through the run, and its key: a route answers one status again and again, and
  // finding a key makes a string of the status each time.
  status: number
  statusKey: string | undefined
}

function namesRun (start: number): NamesRun {
  return { start, steps: [], interpreted: [], compiled: new Map(), written: false, validated: false, status: -1, statusKey: undefined }
}

// The value through a run: its pass for the part or status key (see passOf), made at its first use.
function throughRun (run: NamesRun, key: string, schema: unknown, value: unknown, plan: StepPlan): unknown {
  let pass = run.compiled.get(key)
  if (pass === undefined) run.compiled.set(key, pass = passOf(run, key, schema, plan))
  return pass(value)
}

// A run's pass over a value of `schema` (a part, or a status's response): compiled, else each step's walk.
function passOf (run: NamesRun, key: string, schema: unknown, plan: StepPlan): (value: unknown) => unknown {
  const compiled = compileNames(contentUnion(schema), run.steps, plan.shared, run.written, run.validated && key === 'body')
  return compiled ?? (value => {
    const box = { value }
    for (const step of run.interpreted) step(box, key)
    return box.value
  })
}

function upward (plan: StepPlan, ks: readonly number[], client: string, context: ConversionContext): (request: FastifyRequest) => void | Promise<void> {
  const listed = stepsOf(plan.list)
  const unsure = ks.flatMap(k => (plan.at(k).request as RequestStep).unsure.map(at => `the change of ${listed[k].version}, ${at}`))
  const check: Rechecked | null = unsure.length === 0 ? null : { client, newest: context.versions[0], unsure, schemas: context.newest, queryNames: context.queryNames }
  // The renames and drops of consecutive steps in one run each, cut where a step's migrations must see its names.
  const program: Array<NamesRun | RequestStep> = []
  let run = namesRun(ks[0] + 1)
  const names = (start: number): NamesRun => {
    if (program.at(-1) !== run) {
      run = namesRun(start)
      program.push(run)
    }
    return run
  }
  for (const k of ks) {
    const step = plan.at(k).request as RequestStep
    const ups = names(k + 1)
    ups.validated = program.length === 1
    ups.steps.push({ rules: listed[k].automatic, name: upName })
    ups.interpreted.push((box, part) => walk(step.ups, part, box, upName))
    if (step.migrations.length > 0) program.push(step)
    const drops = names(k)
    drops.steps.push({ rules: listed[k].removed, name: removedName })
    drops.interpreted.push((box, part) => walk(step.drops, part, box, removedName))
  }
  const rename = (run: NamesRun, request: FastifyRequest): void => {
    // The passes of the parts the run's version has schemas of, made at its first request.
    const schemas = plan.schemas[run.start]
    run.parts ??= REQUEST_PARTS.filter(part => schemas[part] !== undefined).map(part => [part, passOf(run, part, schemas[part], plan)] as const)
    for (let i = 0; i < run.parts.length; i++) {
      const [part, pass] = run.parts[i]
      const value = requestValue(request, part)
      // An upload (bytes, or a stream a parser passed on) is no data of the schema's: given as it is.
      if (part === 'body' && isOpaqueBody(value)) continue
      const converted = pass(value)
      if (converted !== value) storeRequestValue(request, part, converted)
    }
  }
  // Renames and dropped fields alone are synchronous: no promise to make.
  if (!program.some(entry => !('steps' in entry))) {
    return request => {
      for (const entry of program) rename(entry as NamesRun, request)
      if (check !== null) return recheck(request, check)
    }
  }
  return async request => {
    for (const entry of program) {
      if ('steps' in entry) rename(entry, request)
      else await migrateRequest(entry, request)
    }
    if (check !== null) await recheck(request, check)
  }
}

function downward (plan: StepPlan, ks: readonly number[], writtenNamedOnly: boolean): Down {
  const listed = stepsOf(plan.list)
  // The migrations of a step first, then its renames with those of the steps after it that have none.
  const program: Array<NamesRun | ResponseStep> = []
  let run: NamesRun | null = null
  for (const k of ks) {
    const step = plan.at(k).response as ResponseStep
    if (step.migrations.length > 0) {
      program.push(step)
      run = null
    }
    if (run === null) program.push(run = namesRun(k))
    run.steps.push({ rules: listed[k].automatic, name: downName })
    run.interpreted.push((box, key) => {
      const locate = step.auto.get(key)
      if (locate !== undefined) rebuild(locate(box, 'paths'), downName)
    })
  }
  const rename = (run: NamesRun, status: number, value: unknown): unknown => {
    const responses = plan.schemas[run.start].response
    // Bytes or a stream (a file beside the JSON a status declares by media type) are sent as they are.
    if (responses === undefined || isOpaqueBody(value)) return value
    if (status !== run.status) {
      run.statusKey = keyFor(responses, status)
      run.status = status
    }
    const key = run.statusKey
    return key === undefined ? value : throughRun(run, key, responses.get(key), value, plan)
  }
  if (!program.some(entry => !('steps' in entry))) {
    // Renames alone, in one run: what it gives has no property a migration added, and is only written.
    (program[0] as NamesRun).written = writtenNamedOnly
    return (reply, body) => {
      let value = body
      for (const entry of program) value = rename(entry as NamesRun, reply.statusCode, value)
      return value
    }
  }
  // A step's renames come after its migrations, which may change the status: its renames read the body's schema in
  // the step's newer version at the status migrateResponse says.
  return async (reply, body) => {
    const box = { value: body }
    let status = reply.statusCode
    for (const entry of program) {
      if ('steps' in entry) box.value = rename(entry, status, box.value)
      else status = await migrateResponse(entry, reply, box)
    }
    return box.value
  }
}

// Whether a step between the version at `from` and the newest removed a field of a schema the route's responses hold.
function removesFrom (plan: StepPlan, from: number): boolean {
  const listed = stepsOf(plan.list)
  for (let k = 0; k < from; k++) if (inResponses(plan.schemas[k], listed[k].removed, plan.shared)) return true
  return false
}

// What a status needs: nothing, the body as it is (a route's migrations), or its data (renames, schema migrations).
function needsOf (down: readonly ResponseStep[]): (status: number) => Need {
  return status => {
    let need: Need = 'none'
    for (const step of down) {
      if (forStatus(step.auto, status) !== undefined) return 'data'
      for (const { rule, route, byStatus, moves } of step.migrations) {
        if (!runsFor(rule, status) || (moves !== null && !moves(status))) continue
        if (route) need = 'body'
        else if (forStatus(byStatus, status) !== undefined) return 'data'
      }
    }
    return need
  }
}

function requestStep (step: VersionStep, routeKeys: readonly string[], older: VersionSchemas, newer: VersionSchemas, shared: SharedSchemas): RequestStep | null {
  const ups = partLocators(REQUEST_PARTS, older, step.automatic, shared)
  const drops = partLocators(REQUEST_PARTS, newer, step.removed, shared)
  const migrations: Array<Migration<MigrationRule<RequestToMigrate>>> = []
  for (const rule of step.requests) {
    if (rule.route !== null) {
      if (routeKeys.includes(rule.route)) migrations.push({ rule, locates: null })
      continue
    }
    const locates = partLocators(REQUEST_PARTS, newer, only(rule), shared)
    if (locates.length > 0) migrations.push({ rule, locates })
  }
  const changed = step.changed.filter(rule => partLocators(REQUEST_PARTS, newer, only(rule), shared).length > 0)
  const unsure = [...migrations.map(({ rule }) => rule.at), ...changed.map(rule => rule.at)]
  return ups.length + drops.length + migrations.length + changed.length === 0 ? null : { version: step.version, ups, migrations, drops, unsure }
}

function responseStep (step: VersionStep, routeKeys: readonly string[], schemas: VersionSchemas, shared: SharedSchemas): ResponseStep | null {
  const statuses = [...schemas.response ?? []]
  const auto = new Map<string, Locate<FieldRule>>()
  for (const [status, schema] of statuses) {
    const locate = locatorOf(schema, step.automatic, shared)
    if (locate !== null) auto.set(status, locate)
  }
  const migrations: Array<ResponseStep['migrations'][number]> = []
  for (const rule of step.responses) {
    if (rule.route !== null) {
      if (routeKeys.includes(rule.route)) migrations.push({ rule, route: true, byStatus: new Map(), moves: isStatusRule(rule) ? movedStatuses(schemas.response) : null })
      continue
    }
    const byStatus = new Map<string, Locate<ResponseRule>>()
    for (const [status, schema] of statuses) {
      const locate = locatorOf(schema, only(rule), shared)
      if (locate !== null) byStatus.set(status, locate)
    }
    if (byStatus.size > 0) migrations.push({ rule, route: false, byStatus, moves: null })
  }
  return auto.size + migrations.length === 0 ? null : { version: step.version, auto, migrations }
}

function movedStatuses (response: ReadonlyMap<string, unknown> | undefined): (status: number) => boolean {
  const declared = new Map([...response ?? []].filter(([status]) => movesWithStatus(status)))
  return status => status !== 204 && (declared.size === 0 || keyFor(declared, status) !== undefined)
}

function partLocators<R extends { schema: unknown, id: string | null }, P extends string> (parts: readonly P[], schemas: VersionSchemas, rules: readonly R[], shared: SharedSchemas): Array<readonly [P, Locate<R>]> {
  const found: Array<readonly [P, Locate<R>]> = []
  for (const part of parts) {
    const locate = locatorOf((schemas as Record<string, unknown>)[part], rules, shared)
    if (locate !== null) found.push([part, locate])
  }
  return found
}

// What locatorOf planned, by schema, rules and shared schemas: routes share their schemas, and rules come in lists
// kept for every route (see stepsOf and only).
const located = new WeakMap<object, WeakMap<readonly object[], WeakMap<SharedSchemas, Locate<never> | null>>>()

/**
 * Plans where in a schema's values the rules' schemas are (see locator); null for nowhere. Planned once for a
 * schema, a list of rules and the shared schemas they are read with.
 */
export function locatorOf<R extends { schema: unknown, id: string | null }> (given: unknown, rules: readonly R[], shared: SharedSchemas): Locate<R> | null {
  const schema = contentUnion(given)
  if (rules.length === 0 || !isObject(schema)) return null
  const byShared = innerWeakMap(innerWeakMap(located, schema), rules)
  let locate = byShared.get(shared)
  if (locate === undefined) {
    locate = locator(schema, node => rules.filter(rule => names(rule, node)), shared) as Locate<never> | null
    byShared.set(shared, locate)
  }
  return locate as Locate<R> | null
}

const unions = new WeakMap<object, object>()

/**
 * A route's body or response schema by media type (`{ content: { 'application/json': { schema } } }`) is found in
 * as the schema of any of its media types; any other schema as it is.
 */
export function contentUnion (schema: unknown): unknown {
  if (!isObject(schema) || !isObject(schema.content)) return schema
  let union = unions.get(schema)
  if (union === undefined) {
    union = { anyOf: Object.values(schema.content).map(media => (media as { schema: unknown }).schema) }
    unions.set(schema, union)
  }
  return union
}

// Fastify's request keeps the query string as `query`; the schema calls it `querystring`.
function requestValue (request: FastifyRequest, part: RequestPart): unknown {
  return requestPart(request, part === 'querystring' ? 'query' : part)
}

function storeRequestValue (request: FastifyRequest, part: RequestPart, value: unknown): void {
  if (part === 'querystring') request.query = value
  else if (part === 'body') request.body = value
  else if (part === 'params') request.params = value
  else if (value !== request.headers && isObject(value)) {
    // Node's own object, which the request reads its headers from: changed in place.
    const headers = request.headers as Record<string, unknown>
    for (const name of Object.keys(headers)) if (!Object.hasOwn(value, name)) delete headers[name]
    Object.assign(headers, value)
  }
}

// A step's walk of one part of a request, the client's own, made for this request: its objects are replaced in place.
function walk (located: RequestStep['ups'], part: string, box: { value: unknown }, name: (tasks: readonly FieldRule[], key: string) => string | null): void {
  const locate = located.find(([at]) => at === part)?.[1]
  if (locate !== undefined) rebuild(locate(box, 'none'), name)
}

async function migrateRequest (step: RequestStep, request: FastifyRequest): Promise<void> {
  for (const { rule, locates } of step.migrations) {
    const where = `the change of ${step.version}, ${rule.at}`
    if (locates === null) {
      const given: RequestToMigrate = { body: request.body, query: request.query as Record<string, unknown>, headers: request.headers }
      const before = given.body
      request.body = bodyAfter(await settled(rule.migrate, given, where), given, before, where, 'request')
      request.query = given.query
      continue
    }
    for (const [part, locate] of locates) {
      const box = { value: requestValue(request, part as RequestPart) }
      for (const site of locate(box, 'none').reverse()) {
        const given: RequestToMigrate = { body: site.value, query: request.query as Record<string, unknown>, headers: request.headers }
        const body = bodyAfter(await settled(rule.migrate, given, where), given, site.value, where, 'request')
        for (const [holder, key] of site.places) holder[key] = body
      }
      storeRequestValue(request, part as RequestPart, box.value)
    }
  }
}

/** What a response conversion reads and changes of a reply: Fastify's reply, or a stand-in (convertToApiVersion). */
export type ReplyState = Pick<FastifyReply, 'statusCode' | 'getHeaders' | 'code' | 'header' | 'removeHeader'>

/** Whether a response migration runs for a status: 2xx, or any with `errors`. */
function runsFor (rule: ResponseRule, status: number): boolean {
  return rule.errors || (status >= 200 && status <= 299)
}

/**
 * Runs a step's response migrations, and gives the status whose schema, in the step's newer version, the body then
 * has (for the step's renames): the status it had, unless a migration of the app's answered another, whose body it
 * gave (a 404 made a 410 with the 410's body). A status change an endpoint instruction declares moves the body as it
 * is: the newer version holds its schema at the status before.
 */
async function migrateResponse (step: ResponseStep, reply: ReplyState, box: { value: unknown }): Promise<number> {
  let status = reply.statusCode
  for (const { rule, route, byStatus, moves } of step.migrations) {
    const before = reply.statusCode
    if (!runsFor(rule, before) || (moves !== null && !moves(before))) continue
    const where = `the change of ${step.version}, ${rule.at}`
    if (route) {
      // The handler's value is its own: the migration gets a copy of the body (its own properties).
      const copy = copyOf(box.value)
      const given = responseToMigrate(reply, copy)
      const result = await settled(rule.migrate, given, where)
      finish(reply, given)
      box.value = bodyAfter(result, given, copy, where, 'response')
    } else {
      const locate = forStatus(byStatus, before)
      if (locate === undefined) continue
      for (const site of locate(box, 'all').reverse()) {
        const given = responseToMigrate(reply, site.value)
        const result = await settled(rule.migrate, given, where)
        finish(reply, given)
        const body = bodyAfter(result, given, site.value, where, 'response')
        for (const [holder, key] of site.places) holder[key] = body
      }
    }
    if (reply.statusCode !== before && !isStatusRule(rule)) status = reply.statusCode
  }
  return status
}

function responseToMigrate (reply: ReplyState, body: unknown): ResponseToMigrate {
  return { body, statusCode: reply.statusCode, headers: { ...reply.getHeaders() } }
}

// What a migration did to the status and headers, on the reply.
function finish (reply: ReplyState, given: ResponseToMigrate): void {
  if (given.statusCode !== reply.statusCode) reply.code(given.statusCode)
  const before = reply.getHeaders()
  for (const name of Object.keys(before)) if (!Object.hasOwn(given.headers, name)) reply.removeHeader(name)
  for (const [name, value] of Object.entries(given.headers)) if (value !== before[name] && value !== undefined) reply.header(name, value)
}

// A plain object or array is copied; a Buffer, a stream or an instance of the app's classes is given as it is.
function copyOf (value: unknown): unknown {
  if (Array.isArray(value)) return [...value]
  const prototype = isObject(value) ? Object.getPrototypeOf(value) : undefined
  return prototype === Object.prototype || prototype === null ? { ...value as object } : value
}

/**
 * What a migration gives: its value, awaited only where it is a promise. What it throws or rejects with that is no
 * Error (`undefined`, `null`, a plain object) is made one, naming the change: Fastify takes a hook's `done(undefined)`
 * for success (the migration was skipped), and stalls on some other values.
 */
async function settled<T> (migrate: (given: T) => unknown, given: T, where: string): Promise<unknown> {
  try {
    const value = migrate(given)
    return isThenable(value) ? await value : value
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown
    throw serverError('FST_API_VERSIONING_CONVERSION_FAILED', `fastify-api-versioning: ${where}: the migration threw or rejected with no Error`, thrown)
  }
}
