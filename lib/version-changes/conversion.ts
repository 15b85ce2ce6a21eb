import type { FastifyReply, FastifyRequest, preHandlerHookHandler, preSerializationHookHandler } from 'fastify'
import { isObject } from '../util/is-object.js'
import { isThenable } from '../util/is-thenable.js'
import { locator, type Locate, type Site } from './locate.js'
import { names } from './schema-identity.js'
import type { SharedSchemas } from './shared-ref.js'
import type { FieldRule, MigrationRule, RequestToMigrate, ResponseRule, ResponseToMigrate } from './version-change.js'
import type { VersionList } from './version-list.js'

/** A route's schema as one version of the list sees it (see deriveSchema), by the parts that hold data. */
export interface VersionSchemas {
  readonly body?: unknown
  readonly querystring?: unknown
  readonly headers?: unknown
  /** By status key, as the route declares them (`200`, `2xx`, `default`). */
  readonly response?: Readonly<Record<string, unknown>>
}

/** The parts of a request a conversion reads and writes. */
const REQUEST_PARTS = ['body', 'querystring', 'headers'] as const
type RequestPart = typeof REQUEST_PARTS[number]

/** One migration of a step: of the route (`locates` null), or of each object of its schema in the parts. */
export interface Migration<R> {
  readonly rule: R
  readonly locates: ReadonlyArray<readonly [string, Locate<R>]> | null
}

export interface RequestStep {
  /** Fields this version added: not of the version before, so a request of it that has them has them dropped. */
  readonly strays: ReadonlyArray<readonly [RequestPart, Locate<FieldRule>]>
  readonly renames: ReadonlyArray<readonly [RequestPart, Locate<FieldRule>]>
  readonly migrations: ReadonlyArray<Migration<MigrationRule<RequestToMigrate>>>
  readonly drops: ReadonlyArray<readonly [RequestPart, Locate<FieldRule>]>
}

export interface ResponseStep {
  /** By status key. */
  readonly auto: ReadonlyMap<string, Locate<FieldRule>>
  /** Each with its locators by status key. */
  readonly migrations: ReadonlyArray<{ readonly rule: ResponseRule, readonly route: boolean, readonly byStatus: ReadonlyMap<string, Locate<ResponseRule>> }>
}

/** What the changes of one version (step k) do to a route's data: null where they do not touch it. */
export interface Step {
  readonly request: RequestStep | null
  readonly response: ResponseStep | null
}

/** What converts the requests and responses of one route between one version of the list and the newest. */
export interface Conversion {
  /** The preHandler hook that converts a request up to the newest version; null when nothing changes it. */
  readonly request: preHandlerHookHandler | null
  /** The preSerialization hook that converts a response down to the version; null when nothing changes it. */
  readonly response: preSerializationHookHandler | null
  /** The response conversion as a function: the value, or a promise of it where a migration runs; null for none. */
  readonly down: ((reply: ReplyState, payload: unknown) => unknown) | null
}

/**
 * Plans, at start-up, what each step does to the data of the route `routeKeys` (`'POST /orders'`, one per name it
 * answers to): `schemas[k]` is its schema in the version at index k, and step k (the changes of version k) converts
 * a request of version k + 1 into version k, and a response of version k into version k + 1. For each k below
 * `schemas.length - 1`.
 */
export function planSteps (list: VersionList, routeKeys: readonly string[], schemas: readonly VersionSchemas[], shared: SharedSchemas): Step[] {
  const steps: Step[] = []
  for (let k = 0; k < schemas.length - 1; k++) {
    steps.push({ request: requestStep(list, k, routeKeys, schemas, shared), response: responseStep(list, k, routeKeys, schemas[k], shared) })
  }
  return steps
}

/**
 * The conversions of the version at index `from`: a request goes up through steps `from - 1` to 0 (the fields the
 * step added are dropped, as the client's version has none; renames, so that the migrations see the names of the
 * version they belong to; then the migrations; then the fields the newer version no longer has are dropped), a response down through steps 0 to `from - 1` (the migrations, seeing
 * the names of the version they belong to; then the fields older versions lack are dropped and the renamed ones
 * named back). Only the steps that touch the route run.
 */
export function conversionFrom (steps: readonly Step[], from: number): Conversion {
  const up: RequestStep[] = []
  const down: ResponseStep[] = []
  for (let k = from - 1; k >= 0; k--) if (steps[k].request !== null) up.push(steps[k].request as RequestStep)
  for (let k = 0; k < from; k++) if (steps[k].response !== null) down.push(steps[k].response as ResponseStep)
  // Renames and dropped fields alone are synchronous: the hooks are then callback hooks, with no promise to make.
  const migratesUp = up.some(step => step.migrations.length > 0)
  const migratesDown = down.some(step => step.migrations.length > 0)
  function renamesUp (request: FastifyRequest): void {
    for (const step of up) {
      dropFields(step.strays, request)
      renameRequest(step, request)
      dropFields(step.drops, request)
    }
  }
  async function convertUp (request: FastifyRequest): Promise<void> {
    for (const step of up) {
      dropFields(step.strays, request)
      renameRequest(step, request)
      await migrateRequest(step, request)
      dropFields(step.drops, request)
    }
  }
  function renamesDown (reply: ReplyState, payload: unknown): unknown {
    const box = { value: payload }
    for (const step of down) renameResponse(step, reply, box)
    return box.value
  }
  async function convertDown (reply: ReplyState, payload: unknown): Promise<unknown> {
    const box = { value: payload }
    for (const step of down) {
      await migrateResponse(step, reply, box)
      renameResponse(step, reply, box)
    }
    return box.value
  }
  const request: preHandlerHookHandler = migratesUp
    ? async function apiVersionRequestChanges (request) { await convertUp(request) }
    : function apiVersionRequestChanges (request, reply, done) { renamesUp(request); done() }
  const response: preSerializationHookHandler<unknown> = migratesDown
    ? async function apiVersionResponseChanges (request, reply, payload) { return await convertDown(reply, payload) }
    : function apiVersionResponseChanges (request, reply, payload, done) { done(null, renamesDown(reply, payload)) }
  return {
    request: up.length === 0 ? null : request,
    response: down.length === 0 ? null : response,
    down: down.length === 0 ? null : migratesDown ? convertDown : renamesDown
  }
}

function requestStep (list: VersionList, k: number, routeKeys: readonly string[], schemas: readonly VersionSchemas[], shared: SharedSchemas): RequestStep | null {
  const changes = list[k].changes
  const fields = changes.flatMap(change => change.fields)
  const renamed = fields.filter(rule => rule.kind === 'renamed')
  const removed = fields.filter(rule => rule.kind === 'removed')
  const added = fields.filter(rule => rule.kind === 'added')
  const older = schemas[k + 1]
  const newer = schemas[k]
  const strays = partLocators(REQUEST_PARTS, older, added, shared)
  const renames = partLocators(REQUEST_PARTS, older, renamed, shared)
  const drops = partLocators(REQUEST_PARTS, newer, removed, shared)
  const migrations: Array<Migration<MigrationRule<RequestToMigrate>>> = []
  for (const rule of changes.flatMap(change => change.requests)) {
    if (rule.route !== null) {
      if (routeKeys.includes(rule.route)) migrations.push({ rule, locates: null })
      continue
    }
    const locates = partLocators(REQUEST_PARTS, newer, [rule], shared)
    if (locates.length > 0) migrations.push({ rule, locates })
  }
  return strays.length + renames.length + drops.length + migrations.length === 0 ? null : { strays, renames, migrations, drops }
}

function responseStep (list: VersionList, k: number, routeKeys: readonly string[], schemas: VersionSchemas, shared: SharedSchemas): ResponseStep | null {
  const changes = list[k].changes
  const automatic = changes.flatMap(change => change.fields).filter(rule => rule.kind === 'added' || rule.kind === 'renamed')
  const statuses = Object.entries(schemas.response ?? {})
  const auto = new Map<string, Locate<FieldRule>>()
  for (const [status, schema] of statuses) {
    const locate = locatorOf(schema, automatic, shared)
    if (locate !== null) auto.set(status, locate)
  }
  const migrations: Array<ResponseStep['migrations'][number]> = []
  for (const rule of changes.flatMap(change => change.responses)) {
    if (rule.route !== null) {
      if (routeKeys.includes(rule.route)) migrations.push({ rule, route: true, byStatus: new Map() })
      continue
    }
    const byStatus = new Map<string, Locate<ResponseRule>>()
    for (const [status, schema] of statuses) {
      const locate = locatorOf(schema, [rule], shared)
      if (locate !== null) byStatus.set(status, locate)
    }
    if (byStatus.size > 0) migrations.push({ rule, route: false, byStatus })
  }
  return auto.size + migrations.length === 0 ? null : { auto, migrations }
}

function partLocators<R extends { schema: unknown, id: string | null }, P extends string> (parts: readonly P[], schemas: VersionSchemas, rules: readonly R[], shared: SharedSchemas): Array<readonly [P, Locate<R>]> {
  const found: Array<readonly [P, Locate<R>]> = []
  for (const part of parts) {
    const locate = locatorOf((schemas as Record<string, unknown>)[part], rules, shared)
    if (locate !== null) found.push([part, locate])
  }
  return found
}

function locatorOf<R extends { schema: unknown, id: string | null }> (schema: unknown, rules: readonly R[], shared: SharedSchemas): Locate<R> | null {
  if (rules.length === 0 || !isObject(schema)) return null
  return locator(schema, node => rules.filter(rule => names(rule, node)), shared)
}

// Fastify's request keeps the query string as `query`; the schema calls it `querystring`.
function requestValue (request: FastifyRequest, part: RequestPart): { value: unknown } {
  return { value: part === 'querystring' ? request.query : part === 'body' ? request.body : request.headers }
}

function storeRequestValue (request: FastifyRequest, part: RequestPart, value: unknown): void {
  if (part === 'querystring') request.query = value
  else if (part === 'body') request.body = value
}

// A request is the client's own, made for this request: changed in place (its headers are Node's own object).
function renameRequest (step: RequestStep, request: FastifyRequest): void {
  for (const [part, locate] of step.renames) {
    for (const site of locate(requestValue(request, part), 'none')) {
      for (const rule of site.tasks) {
        if (!Object.hasOwn(site.value, rule.renamedFrom as string)) continue
        site.value[rule.field] = site.value[rule.renamedFrom as string]
        delete site.value[rule.renamedFrom as string]
      }
    }
  }
}

async function migrateRequest (step: RequestStep, request: FastifyRequest): Promise<void> {
  for (const { rule, locates } of step.migrations) {
    if (locates === null) {
      const given: RequestToMigrate = { body: request.body, query: request.query as Record<string, unknown>, headers: request.headers }
      await settled(rule.migrate(given))
      request.body = given.body
      request.query = given.query
      continue
    }
    for (const [part, locate] of locates) {
      const box = requestValue(request, part as RequestPart)
      for (const site of locate(box, 'none').reverse()) {
        const given: RequestToMigrate = { body: site.value, query: request.query as Record<string, unknown>, headers: request.headers }
        await settled(rule.migrate(given))
        for (const [holder, key] of site.places) holder[key] = given.body
      }
      storeRequestValue(request, part as RequestPart, box.value)
    }
  }
}

function dropFields (fields: RequestStep['drops'], request: FastifyRequest): void {
  for (const [part, locate] of fields) {
    for (const site of locate(requestValue(request, part), 'none')) {
      for (const rule of site.tasks) delete site.value[rule.field]
    }
  }
}

/** What a response conversion reads and changes of a reply: Fastify's reply, or a stand-in (convertToApiVersion). */
export type ReplyState = Pick<FastifyReply, 'statusCode' | 'getHeaders' | 'code' | 'header' | 'removeHeader'>

async function migrateResponse (step: ResponseStep, reply: ReplyState, box: { value: unknown }): Promise<void> {
  for (const { rule, route, byStatus } of step.migrations) {
    if (!rule.errors && (reply.statusCode < 200 || reply.statusCode > 299)) continue
    if (route) {
      // The handler's value is its own: the migration gets a copy of the body (its own properties).
      const given = responseToMigrate(reply, copyOf(box.value))
      await settled(rule.migrate(given))
      finish(reply, given)
      box.value = given.body
      continue
    }
    const locate = forStatus(byStatus, reply.statusCode)
    if (locate === undefined) continue
    for (const site of locate(box, 'all').reverse()) {
      const given = responseToMigrate(reply, site.value)
      await settled(rule.migrate(given))
      finish(reply, given)
      for (const [holder, key] of site.places) holder[key] = given.body
    }
  }
}

// The handler's value is its own: the objects that hold what changes are copied, the changed ones made anew.
function renameResponse (step: ResponseStep, reply: ReplyState, box: { value: unknown }): void {
  const locate = forStatus(step.auto, reply.statusCode)
  if (locate === undefined) return
  rebuild(locate(box, 'paths'), (rule, name) => name !== rule.field ? name : rule.kind === 'added' ? null : rule.renamedFrom as string)
}

/**
 * Makes each site's object anew with its properties renamed or dropped (`name` gives a property's new name, or
 * null to drop it), and puts it in its places: inner sites first, so that an outer one is made with them in it.
 * A new object, not `delete` on the old one: V8 keeps an object whose properties are deleted as a dictionary,
 * slow to serialize.
 */
function rebuild (sites: ReadonlyArray<Site<FieldRule>>, name: (rule: FieldRule, name: string) => string | null): void {
  for (let i = sites.length - 1; i >= 0; i--) {
    const { value, tasks, places } = sites[i]
    const made: Record<string, unknown> = {}
    for (const key of Object.keys(value)) {
      let renamed: string | null = key
      for (let j = 0; j < tasks.length && renamed !== null; j++) if (renamed === key) renamed = name(tasks[j], key)
      if (renamed !== null) made[renamed] = value[key]
    }
    for (const [holder, key] of places) holder[key] = made
  }
}

// As Fastify picks a response schema: the status, then its class (`2xx`), then `default`.
function forStatus<T> (byStatus: ReadonlyMap<string, T>, status: number): T | undefined {
  const text = String(status)
  return byStatus.get(text) ?? byStatus.get(`${text[0]}xx`) ?? byStatus.get(`${text[0]}XX`) ?? byStatus.get('default')
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

function copyOf (value: unknown): unknown {
  return Array.isArray(value) ? [...value] : isObject(value) ? { ...value } : value
}

// A migration may be async: its value is awaited only when it is a promise.
async function settled (value: unknown): Promise<void> {
  if (isThenable(value)) await value
}
