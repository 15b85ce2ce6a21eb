import type { ApiVersion } from '../api-version.js'
import { coded } from '../errors.js'
import { messageOf } from '../util/server-error.js'
import { isCodeSchema } from '../util/code-schema.js'
import { isObject } from '../util/is-object.js'
import { readDeprecation, type Deprecation, type DeprecationPolicyOption } from '../util/policy-values.js'
import { isAppliedTo } from './applied.js'
import { isComponentName } from '../util/component-name.js'

/**
 * A schema as an instruction names it: the schema object itself, wherever a route's schemas hold it (TypeBox
 * schemas included), or the `$id` of a shared schema (`app.addSchema`).
 */
export type SchemaTarget = object | string

/** The names of a schema's properties, where its type says them (a TypeBox `Type.Object`); else any text. */
export type FieldOf<S> = S extends { properties: infer P } ? (string extends keyof P ? string : Extract<keyof P, string>) : string

/**
 * What older versions had of an endpoint, where it was otherwise: what their documents show, the success status
 * they answered (`status`: every success response of this version is that status in older versions, converted by
 * itself and shown in their documents), and the URL they served it at (`url`).
 */
export interface EndpointDocs {
  summary?: string
  description?: string
  tags?: readonly string[]
  operationId?: string
  status?: number
  /** The URL older versions served the endpoint at, prefix included (`'/bills/:id'`): its parameters by name, or by position. */
  url?: string
}

/**
 * An endpoint that this version added (it exists from this version on) or removed (it exists only before it);
 * whose documentation older versions had otherwise (`changed`); that is deprecated from this version on (`true`, or
 * with the date and link its responses send, as a version's deprecation policy: `{ date?, link? }`); or that is
 * served but left out of the documents from this version on (`hidden`).
 */
export type EndpointInstruction =
  | { method: string | readonly string[], url: string, added: true, removed?: never, changed?: never, deprecated?: never, hidden?: never }
  | { method: string | readonly string[], url: string, removed: true, added?: never, changed?: never, deprecated?: never, hidden?: never }
  | { method: string | readonly string[], url: string, changed: EndpointDocs, added?: never, removed?: never, deprecated?: never, hidden?: never }
  | { method: string | readonly string[], url: string, deprecated: true | DeprecationPolicyOption, added?: never, removed?: never, changed?: never, hidden?: never }
  | { method: string | readonly string[], url: string, hidden: true, added?: never, removed?: never, changed?: never, deprecated?: never }

/**
 * What this version changed in one field of a schema, `field` named as this version names it: older versions
 * called it `renamedFrom`, did not have it (`added`), had it though this version has not (`removed`: its schema,
 * and whether it was required), or had it with another schema or requiredness (`changed`).
 */
export type FieldInstruction<S extends SchemaTarget = SchemaTarget> =
  | { schema: S, field: FieldOf<S>, renamedFrom: string, added?: never, removed?: never, changed?: never }
  | { schema: S, field: FieldOf<S>, added: true, renamedFrom?: never, removed?: never, changed?: never }
  | { schema: S, field: string, removed: { schema: object | boolean, required?: boolean }, renamedFrom?: never, added?: never, changed?: never }
  | { schema: S, field: FieldOf<S>, changed: { schema?: object | boolean, required?: boolean }, renamedFrom?: never, added?: never, removed?: never }

/** A member of an enum schema: a JSON value an `enum` lists, or the `const` of a TypeBox literal. */
export type EnumMember = string | number | boolean | null

/** The members an enum schema's type says (a TypeBox union of literals, `Type.Enum`, `enum` of a `const` list); else any. */
export type MemberOf<S> = S extends { anyOf: ReadonlyArray<{ const: infer C }> } ? C & EnumMember : S extends { enum: ReadonlyArray<infer E> } ? E & EnumMember : EnumMember

/**
 * What this version changed in the members of an enum schema (a JSON Schema `enum`, a TypeBox union of literals or
 * `Type.Enum`): it added these (older versions' schemas lack them), or it removed these (older versions had them too).
 */
export type EnumInstruction<S extends SchemaTarget = SchemaTarget> =
  | { schema: S, added: ReadonlyArray<MemberOf<S>>, removed?: never }
  | { schema: S, removed: readonly EnumMember[], added?: never }

/** A webhook (an event the service sends, declared by the plugin's `webhooks` option) new in this version, or gone from it. */
export type WebhookInstruction =
  | { name: string, added: true, removed?: never }
  | { name: string, removed: true, added?: never }

/** A request of the version before this one, as a request migration converts it into this version (mutable). */
export interface RequestToMigrate {
  /** The body, or for a `schema` instruction each object of that schema in the body or query string. */
  body: unknown
  query: Record<string, unknown>
  readonly headers: Record<string, string | string[] | undefined>
}

/** A response of this version, as a response migration converts it into the version before (mutable). */
export interface ResponseToMigrate {
  /** The body, or for a `schema` instruction each object of that schema in it (array items one by one). */
  body: unknown
  statusCode: number
  readonly headers: Record<string, string | number | string[] | undefined>
}

/**
 * Converts a request of the version before into this version, after Fastify validated it against the client's
 * version, before the handler: for one route (`'POST /orders'`, the URL as declared, prefix included) or for
 * every object of a schema. May be async.
 */
export type RequestInstruction =
  | { route: string, schema?: never, migrate: (request: RequestToMigrate) => unknown }
  | { schema: SchemaTarget, route?: never, migrate: (request: RequestToMigrate) => unknown }

/**
 * Converts a response of this version into the version before, before serialization: of one route, or each object
 * of a schema in a body. Only 2xx responses, unless `errors`. May be async; what it throws is a 500 through the
 * app's error handler.
 */
export type ResponseInstruction =
  | { route: string, schema?: never, errors?: boolean, migrate: (response: ResponseToMigrate) => unknown }
  | { schema: SchemaTarget, route?: never, errors?: boolean, migrate: (response: ResponseToMigrate) => unknown }

/**
 * This version named a shared schema (`app.addSchema`, by its `$id` or the object) as it is named now, and older
 * versions named it `renamedFrom`: the name their documents give its component (a generated client's type name).
 */
export interface SchemaNameInstruction {
  schema: SchemaTarget
  renamedFrom: string
}

export interface VersionChangeOptions<F extends readonly FieldInstruction[] = readonly FieldInstruction[], E extends readonly EnumInstruction[] = readonly EnumInstruction[]> {
  /** What changed, as a sentence for clients: documents and changes.json show it. */
  description: string
  endpoints?: readonly EndpointInstruction[]
  enums?: E
  fields?: F
  requests?: readonly RequestInstruction[]
  responses?: readonly ResponseInstruction[]
  schemas?: readonly SchemaNameInstruction[]
  webhooks?: readonly WebhookInstruction[]
}

/**
 * Each field instruction as its schema's type allows it: the field it renames, says added or changed is one of the
 * schema's properties, where its type says them (a TypeBox `Type.Object`); a `removed` one names an older field.
 * A field some later version renamed is not a property of the newest type: pass such a schema as `Order as object`.
 */
export type CheckedFields<F extends readonly unknown[]> = { readonly [K in keyof F]: CheckedField<F[K]> }
type CheckedField<I> = I extends { removed: object }
  ? unknown
  : I extends { schema: { properties: infer P }, field: infer N }
    ? string extends keyof P ? unknown : N extends keyof P ? unknown : { [message in `${N & string} is not a property of its schema`]: never }
    : unknown

/** Each enum instruction as its schema's type allows it: an `added` member is one of the schema's, where its type says them. */
export type CheckedEnums<E extends readonly unknown[]> = { readonly [K in keyof E]: CheckedEnum<E[K]> }
type CheckedEnum<I> = I extends { schema: infer S, added: ReadonlyArray<infer M> }
  ? EnumMember extends MemberOf<S> ? unknown : M extends MemberOf<S> ? unknown : { [message in `${M & (string | number | boolean)} is not a member of its schema`]: never }
  : unknown

/** One change a version made, made by `versionChange()` (its instructions are checked and kept inside). */
export interface VersionChange {
  /** What changed, for clients. */
  readonly description: string
  /**
   * Whether the version that serves `request` (`request.apiVersion`) is this change's version or later, in the
   * `versionChanges` option of the request's app: for a change of behaviour that no instruction can say. True for
   * a request served as no version (the code is written for the newest). Throws
   * (`FST_API_VERSIONING_CHANGE_NOT_LISTED`) where the request's app does not list the change.
   */
  isAppliedTo (request: { readonly apiVersion: ApiVersion | null, readonly server: object }): boolean
}

/** A change's instructions, checked. */
export interface ChangeRules {
  readonly description: string
  readonly endpoints: readonly EndpointRule[]
  readonly enums: readonly EnumRule[]
  readonly fields: readonly FieldRule[]
  readonly requests: readonly MigrationRule<RequestToMigrate>[]
  readonly responses: readonly ResponseRule[]
  readonly schemas: readonly SchemaNameRule[]
  readonly webhooks: readonly WebhookRule[]
}

/** A webhook instruction, checked. */
export interface WebhookRule {
  readonly name: string
  readonly kind: 'added' | 'removed'
  /** `webhooks[i]`, as errors name it. */
  readonly at: string
}

/** A schema name instruction, checked: the shared schema's `$id`, and its name in older versions. */
export interface SchemaNameRule {
  readonly id: string
  readonly renamedFrom: string
  /** `schemas[i]`, as errors name it. */
  readonly at: string
}

/** An endpoint instruction, checked: methods upper-case. */
export interface EndpointRule {
  readonly methods: readonly string[]
  readonly url: string
  readonly kind: 'added' | 'removed' | 'changed' | 'deprecated' | 'hidden'
  /** What older versions' documents show, for `changed` (its texts and tags); null for the other kinds. */
  readonly docs: Readonly<Omit<EndpointDocs, 'status' | 'url'>> | null
  /** The success status older versions answered, for `changed` with one; null otherwise. */
  readonly status: number | null
  /** The URL older versions served the endpoint at, for `changed` with one; null otherwise. */
  readonly olderUrl: string | null
  /** When it was deprecated and where clients read about it, for `deprecated` with them; null otherwise. */
  readonly deprecation: Deprecation | null
  /** `endpoints[i]`, as errors name it. */
  readonly at: string
}

/** An enum instruction, checked. */
export interface EnumRule {
  readonly schema: SchemaTarget
  /** The `$id` it matches: the text given, or the object's `$id`; null for an object without one. */
  readonly id: string | null
  readonly kind: 'added' | 'removed'
  readonly members: readonly EnumMember[]
  readonly at: string
}

/** A field instruction, checked. */
export interface FieldRule {
  readonly schema: SchemaTarget
  /** The `$id` it matches: the text given, or the object's `$id`; null for an object without one. */
  readonly id: string | null
  readonly field: string
  readonly kind: 'renamed' | 'added' | 'removed' | 'changed'
  /** The older name (`renamed`). */
  readonly renamedFrom: string | null
  /** The older property's schema (`removed`, or `changed` where given). */
  readonly older: object | boolean | null
  /** Whether the older property was required (`removed`, or `changed` where given); null: as now. */
  readonly required: boolean | null
  readonly at: string
}

/** A request or response instruction, checked. */
export interface MigrationRule<T> {
  /** `'POST /orders'`, method upper-case, or null for a schema instruction. */
  readonly route: string | null
  readonly schema: SchemaTarget | null
  readonly id: string | null
  readonly migrate: (value: T) => unknown
  readonly at: string
}

export interface ResponseRule extends MigrationRule<ResponseToMigrate> {
  readonly errors: boolean
}

// Where a change keeps its rules: a registry symbol, so that either build of the package (ESM, CommonJS) reads the
// other's changes.
const RULES = Symbol.for('fastify-api-versioning.versionChange')
const KEYS = new Set(['description', 'endpoints', 'enums', 'fields', 'requests', 'responses', 'schemas', 'webhooks'])
const FIELD_KINDS = ['renamedFrom', 'added', 'removed', 'changed'] as const
const ROUTE = /^([A-Za-z]+) (\/\S*)$/

function fail (message: string): never {
  throw coded(new TypeError(`fastify-api-versioning: versionChange: ${message}`), 'FST_API_VERSIONING_INVALID_OPTION')
}

/**
 * One change of an API version, to list in the `versionChanges` plugin option under the version that made it:
 * what it changed (`description`, for clients), and how to serve the versions before it from the code of the
 * newest (see docs/version-changes.md). Checked here: a bad instruction throws, naming it.
 */
export function versionChange<const F extends readonly FieldInstruction[] = readonly [], const E extends readonly EnumInstruction[] = readonly []> (options: VersionChangeOptions<F & CheckedFields<F>, E & CheckedEnums<E>>): VersionChange {
  if (!isObject(options)) fail(`needs { description, endpoints?, enums?, fields?, requests?, responses?, schemas?, webhooks? } (got ${messageOf(options)})`)
  for (const key of Object.keys(options)) if (!KEYS.has(key)) fail(`unknown option ${JSON.stringify(key)}; a change has description, endpoints, enums, fields, requests, responses, schemas and webhooks`)
  const { description } = options
  if (typeof description !== 'string' || description.trim() === '') fail('description must be a sentence for clients, saying what changed')
  const rules: ChangeRules = Object.freeze({
    description,
    endpoints: Object.freeze(list(options.endpoints, 'endpoints').map(endpoint)),
    enums: Object.freeze(list(options.enums, 'enums').map(enumRule)),
    fields: Object.freeze(list(options.fields, 'fields').map(fieldRule)),
    requests: Object.freeze(list(options.requests, 'requests').map((given, i) => migration<RequestToMigrate>(given, `requests[${i}]`, ['route', 'schema', 'migrate']))),
    responses: Object.freeze(list(options.responses, 'responses').map((given, i) => responseRule(given, `responses[${i}]`))),
    schemas: Object.freeze(list(options.schemas, 'schemas').map(schemaName)),
    webhooks: Object.freeze(list(options.webhooks, 'webhooks').map(webhookRule))
  })
  // A change with no instruction says what changed in behaviour alone (the handler asks isAppliedTo). The method is
  // not enumerable: what a change shows, spread or logged, is its description.
  return Object.freeze(Object.defineProperties({ description }, {
    [RULES]: { value: rules },
    isAppliedTo: { value: function isAppliedToChange (request: unknown): boolean { return isAppliedTo(rules, description, request) } }
  }) as VersionChange)
}

/** The rules of a change `versionChange()` made (by either build of the package), or null for anything else. */
export function rulesOf (value: unknown): ChangeRules | null {
  return isObject(value) ? (value as { [RULES]?: ChangeRules })[RULES] ?? null : null
}

function list (value: unknown, name: string): unknown[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) fail(`${name} must be an array (got ${messageOf(value)})`)
  // Array.from makes the holes of a sparse array undefined, which the checks then refuse.
  return Array.from(value as unknown[])
}

const ADDED_OR_REMOVED = ['added', 'removed'] as const

// The one kind an instruction says of those it may (`said`, as the error lists them).
function oneKind<K extends string> (given: Record<string, unknown>, kinds: readonly K[], at: string, said: string): K {
  const found = kinds.filter(kind => given[kind] !== undefined)
  if (found.length !== 1) fail(`${at} must say one of ${said} (got ${found.length === 0 ? 'none' : found.join(', ')})`)
  return found[0]
}

// A misspelt key (`renamedfrom`) would leave the instruction meaning something else: named, with the keys there are.
function knownKeys (given: Record<string, unknown>, keys: readonly string[], at: string): void {
  for (const key of Object.keys(given)) if (!keys.includes(key)) fail(`${at} has the unknown key ${JSON.stringify(key)}; its keys are ${keys.join(', ')}`)
}

const ENDPOINT_KINDS = ['added', 'removed', 'changed', 'deprecated', 'hidden'] as const
const DOC_TEXTS = ['summary', 'description', 'operationId'] as const

function endpoint (given: unknown, i: number): EndpointRule {
  const at = `endpoints[${i}]`
  if (!isObject(given)) fail(`${at} must be { method, url } with added: true, removed: true, changed: { ... }, deprecated: true or hidden: true`)
  knownKeys(given, ['method', 'url', ...ENDPOINT_KINDS], at)
  const methods = typeof given.method === 'string' ? [given.method] : Array.isArray(given.method) ? Array.from(given.method as unknown[]) : []
  if (methods.length === 0 || !methods.every(method => typeof method === 'string' && /^[A-Za-z]+$/.test(method))) fail(`${at}.method must be an HTTP method or an array of them`)
  if (typeof given.url !== 'string' || !given.url.startsWith('/')) fail(`${at}.url must be the route's URL as declared, prefix included, such as '/orders/:id'`)
  const kind = oneKind(given, ENDPOINT_KINDS, at, 'added: true, removed: true, changed: { ... }, deprecated: true and hidden: true')
  const dated = kind === 'deprecated' && isObject(given.deprecated)
  if (kind === 'deprecated' && given.deprecated !== true && !dated) fail(`${at}.deprecated must be true or { date?, link? }: when it was deprecated and where clients read about it, as a version's deprecation policy`)
  if (kind !== 'changed' && kind !== 'deprecated' && given[kind] !== true) fail(`${at}.${kind} must be true`)
  const changed = kind === 'changed' ? endpointDocs(given.changed, `${at}.changed`) : null
  // What older versions served apart from what their documents say.
  const { status, url: olderUrl, ...docs } = changed ?? {}
  return Object.freeze({
    methods: Object.freeze((methods as string[]).map(method => method.toUpperCase())),
    url: given.url,
    kind,
    docs: changed === null ? null : Object.freeze(docs),
    status: status ?? null,
    olderUrl: olderUrl ?? null,
    deprecation: dated ? readDeprecation(given.deprecated, `versionChange: ${at}.deprecated`) : null,
    at
  })
}

function endpointDocs (given: unknown, at: string): Readonly<EndpointDocs> {
  if (!isObject(given)) fail(`${at} must be { summary?, description?, tags?, operationId?, status?, url? }: what older versions had otherwise`)
  knownKeys(given, [...DOC_TEXTS, 'tags', 'status', 'url'], at)
  if (Object.keys(given).length === 0) fail(`${at} must say what older versions had otherwise: summary, description, tags, operationId, status or url`)
  if (given.url !== undefined && (typeof given.url !== 'string' || !given.url.startsWith('/'))) fail(`${at}.url must be the URL older versions served the endpoint at, prefix included, such as '/bills/:id' (got ${messageOf(given.url)})`)
  if (given.status !== undefined && !(Number.isInteger(given.status) && (given.status as number) >= 200 && (given.status as number) <= 299)) fail(`${at}.status must be a success status, an integer from 200 to 299 (got ${messageOf(given.status)})`)
  for (const key of DOC_TEXTS) if (given[key] !== undefined && (typeof given[key] !== 'string' || given[key] === '')) fail(`${at}.${key} must be a text (got ${messageOf(given[key])})`)
  if (given.tags !== undefined && (!Array.isArray(given.tags) || !given.tags.every(tag => typeof tag === 'string' && tag !== ''))) fail(`${at}.tags must be an array of texts`)
  return Object.freeze({ ...given, ...Array.isArray(given.tags) ? { tags: Object.freeze([...given.tags as string[]]) } : {} }) as Readonly<EndpointDocs>
}

function target (schema: unknown, at: string): { schema: SchemaTarget, id: string | null } {
  if (typeof schema === 'string' && schema !== '') return { schema, id: schema }
  if (isCodeSchema(schema)) fail(`${at}.schema is a schema of a validation library (zod, valibot: a Standard Schema), not a JSON Schema: version changes derive older versions' schemas from JSON Schemas; write the route's schemas, and name them here, in TypeBox or plain JSON Schema`)
  if (!isObject(schema)) fail(`${at}.schema must be a schema object or the $id of a shared schema (got ${messageOf(schema)})`)
  return { schema, id: typeof schema.$id === 'string' ? schema.$id : null }
}

function fieldRule (given: unknown, i: number): FieldRule {
  const at = `fields[${i}]`
  if (!isObject(given)) fail(`${at} must be { schema, field, renamedFrom | added | removed | changed }`)
  knownKeys(given, ['schema', 'field', ...FIELD_KINDS], at)
  const { schema, id } = target(given.schema, at)
  if (typeof given.field !== 'string' || given.field === '') fail(`${at}.field must be the field's name, as this version names it`)
  const kind = oneKind(given, FIELD_KINDS, at, 'renamedFrom, added, removed and changed')
  const base = { schema, id, field: given.field, at }
  switch (kind) {
    case 'renamedFrom':
      if (typeof given.renamedFrom !== 'string' || given.renamedFrom === '') fail(`${at}.renamedFrom must be the name older versions give the field`)
      if (given.renamedFrom === given.field) fail(`${at}.renamedFrom is the field's own name, ${JSON.stringify(given.field)}: nothing was renamed`)
      return Object.freeze({ ...base, kind: 'renamed', renamedFrom: given.renamedFrom, older: null, required: null })
    case 'added':
      if (given.added !== true) fail(`${at}.added must be true`)
      return Object.freeze({ ...base, kind: 'added', renamedFrom: null, older: null, required: null })
    case 'removed': {
      const removed = given.removed
      if (!isObject(removed) || !isSchema(removed.schema)) fail(`${at}.removed must be { schema, required? }: the schema older versions gave the field`)
      return Object.freeze({ ...base, kind: 'removed', renamedFrom: null, older: removed.schema as object | boolean, required: optionalBoolean(removed.required, `${at}.removed.required`) ?? false })
    }
    default: {
      const changed = given.changed
      if (!isObject(changed) || (changed.schema === undefined && changed.required === undefined)) fail(`${at}.changed must be { schema?, required? } with one of them at least`)
      if (changed.schema !== undefined && !isSchema(changed.schema)) fail(`${at}.changed.schema must be a schema`)
      return Object.freeze({ ...base, kind: 'changed', renamedFrom: null, older: (changed.schema ?? null) as object | boolean | null, required: optionalBoolean(changed.required, `${at}.changed.required`) })
    }
  }
}

function enumRule (given: unknown, i: number): EnumRule {
  const at = `enums[${i}]`
  if (!isObject(given)) fail(`${at} must be { schema, added: [...] } or { schema, removed: [...] }`)
  knownKeys(given, ['schema', 'added', 'removed'], at)
  const { schema, id } = target(given.schema, at)
  const kind = oneKind(given, ADDED_OR_REMOVED, at, 'added and removed')
  const members = given[kind]
  if (!Array.isArray(members) || members.length === 0) fail(`${at}.${kind} must be a non-empty array of members`)
  // What JSON can say: a schema's members are JSON values.
  Array.from(members as unknown[]).forEach((member, m) => {
    if (!(member === null || typeof member === 'string' || typeof member === 'boolean' || Number.isFinite(member))) fail(`${at}.${kind}[${m}] must be a text, a number, a boolean or null (got ${typeof member === 'object' ? 'an object' : messageOf(member)})`)
    if (members.indexOf(member) !== m) fail(`${at}.${kind} names ${JSON.stringify(member)} twice`)
  })
  return Object.freeze({ schema, id, kind, members: Object.freeze(Array.from(members as EnumMember[])), at })
}

function webhookRule (given: unknown, i: number): WebhookRule {
  const at = `webhooks[${i}]`
  if (!isObject(given)) fail(`${at} must be { name, added: true } or { name, removed: true }`)
  knownKeys(given, ['name', 'added', 'removed'], at)
  if (typeof given.name !== 'string' || given.name === '') fail(`${at}.name must be the webhook's name, as the plugin's webhooks option declares it`)
  const kind = oneKind(given, ADDED_OR_REMOVED, at, 'added: true and removed: true')
  if (given[kind] !== true) fail(`${at}.${kind} must be true`)
  return Object.freeze({ name: given.name, kind, at })
}

function schemaName (given: unknown, i: number): SchemaNameRule {
  const at = `schemas[${i}]`
  if (!isObject(given)) fail(`${at} must be { schema, renamedFrom }`)
  knownKeys(given, ['schema', 'renamedFrom'], at)
  const { id } = target(given.schema, at)
  if (id === null) fail(`${at}.schema has no $id: a document names a shared schema (app.addSchema) by its $id, so name it by that, or give the object its $id`)
  if (typeof given.renamedFrom !== 'string' || !isComponentName(given.renamedFrom)) fail(`${at}.renamedFrom must be the name older versions' documents give the schema: letters, digits, '.', '_' and '-' (got ${messageOf(given.renamedFrom)})`)
  if (given.renamedFrom === id) fail(`${at}.renamedFrom is the schema's own name, ${JSON.stringify(id)}: nothing was renamed`)
  return Object.freeze({ id, renamedFrom: given.renamedFrom, at })
}

function migration<T> (given: unknown, at: string, keys: readonly string[]): MigrationRule<T> {
  if (!isObject(given)) fail(`${at} must be { route or schema, migrate }`)
  knownKeys(given, keys, at)
  if ((given.route === undefined) === (given.schema === undefined)) fail(`${at} must name a route ('POST /orders') or a schema, one of them`)
  if (typeof given.migrate !== 'function') fail(`${at}.migrate must be a function (got ${messageOf(given.migrate)})`)
  const migrate = given.migrate as (value: T) => unknown
  if (given.route !== undefined) {
    const match = typeof given.route === 'string' ? ROUTE.exec(given.route) : null
    if (match === null) fail(`${at}.route must be a method and the route's URL as declared, such as 'POST /orders' (got ${messageOf(given.route)})`)
    return Object.freeze({ route: `${match[1].toUpperCase()} ${match[2]}`, schema: null, id: null, migrate, at })
  }
  return Object.freeze({ route: null, ...target(given.schema, at), migrate, at })
}

function responseRule (given: unknown, at: string): ResponseRule {
  const rule = migration<ResponseToMigrate>(given, at, ['route', 'schema', 'errors', 'migrate'])
  const errors = optionalBoolean((given as { errors?: unknown }).errors, `${at}.errors`) ?? false
  return Object.freeze({ ...rule, errors })
}

function optionalBoolean (value: unknown, name: string): boolean | null {
  if (value === undefined) return null
  if (typeof value !== 'boolean') fail(`${name} must be a boolean`)
  return value
}

function isSchema (value: unknown): boolean {
  return isObject(value) || typeof value === 'boolean'
}
