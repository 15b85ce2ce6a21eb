import { withMediaTypeVersion, type MediaTypeConfig } from '../request/media-type.js'
import type { ChangesContext } from './changes-context.js'
import { code } from './code.js'
import { renamesBetween, type Rename } from './renames.js'
import { resolveRef } from './resolve-ref.js'
import { compareSchemas, type Role, type SchemaSide } from './schema-changes.js'
import { compareSecurity } from './security-changes.js'
import type { OpenApiDocument } from './document.js'
import type { Note } from './note.js'
import { notJudged, unjudged } from './unjudged.js'
import { asArray } from '../util/as-array.js'

/** An operation of a document: its name, its path as written, its path item and itself. */
export interface Operation {
  readonly label: string
  readonly path: string
  readonly item: Record<string, unknown>
  readonly operation: Record<string, unknown>
}

/** A document and its version. */
export interface Side {
  readonly document: OpenApiDocument
  readonly version: string
}

// A `{` ends any match that has not found its `}`: a path of many `{` is read once, not again from each (a path
// parameter's name has no braces).
export const PARAMETER = /\{[^{}]*\}/g
/** The methods of a path item, in OpenAPI's order. */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const PLACES = ['path', 'query', 'header', 'cookie']

// What the rules of each part read; any other key that is not documentation is compared, not judged.
const OPERATION_KEYS = new Set(['parameters', 'requestBody', 'responses', 'security', 'deprecated'])
const PARAMETER_KEYS = new Set(['name', 'in', 'required', 'schema'])
const BODY_KEYS = new Set(['required', 'content'])
const MEDIA_KEYS = new Set(['schema'])
const RESPONSE_KEYS = new Set(['content', 'headers'])
const HEADER_KEYS = new Set(['required', 'schema'])

/**
 * What changed in an operation present in both versions: parameters, request body, security, responses by
 * status, then anything else of the operation (or its path item) that differs and no rule reads.
 */
export function compareOperation (a: Operation, b: Operation, from: Side, to: Side, context: ChangesContext): Note[] {
  const notes: Note[] = []
  compareParameters(a, b, from, to, context, notes)
  compareRequestBody(a, b, from, to, context, notes)
  notes.push(...compareSecurity({ document: from.document, operation: a.operation }, { document: to.document, operation: b.operation }))
  compareResponses(a, b, from, to, context, notes)
  // The operation's keys over its path item's: an operation's `servers` stands for its path item's.
  const keys = unjudged({ document: from.document, value: whole(a) }, { document: to.document, value: whole(b) }, OPERATION_KEYS)
  if (keys.length > 0) notes.push({ text: notJudged(keys), breaking: false })
  return notes
}

function whole ({ item, operation }: Operation): Record<string, unknown> {
  return { ...Object.fromEntries(Object.entries(item).filter(([key]) => !METHODS.includes(key))), ...operation }
}

interface Parameter {
  readonly key: string
  readonly name: string
  readonly place: string
  readonly required: boolean
  readonly value: Record<string, unknown>
}

/**
 * An operation's parameters with those of its path item, by place and name (a header's name in any case; a
 * path parameter by its position in the path, whatever its name). The version parameters only with `versioned`:
 * two versions' documents each give them their own value by design, but a version's saved document and its
 * served one must agree on them (a version parameter newly required refuses the clients that sent none).
 */
function parametersOf (operation: Operation, document: OpenApiDocument, context: ChangesContext, versioned: boolean): Map<string, Parameter> {
  const positions = [...operation.path.matchAll(PARAMETER)].map(([match]) => match.slice(1, -1))
  const found = new Map<string, Parameter>()
  for (const value of [...asArray(operation.item.parameters), ...asArray(operation.operation.parameters)]) {
    const parameter = resolveRef(document, value)
    const name = String(parameter.name)
    const place = String(parameter.in)
    const named = place === 'header' ? name.toLowerCase() : name
    if (!versioned && context.versionParameters.has(`${place} ${named}`)) continue
    const key = place === 'path' ? `0 ${String(positions.indexOf(name)).padStart(4, '0')}` : `${PLACES.indexOf(place)} ${named}`
    found.set(key, { key, name, place, required: parameter.required === true, value: parameter })
  }
  return found
}

function compareParameters (a: Operation, b: Operation, from: Side, to: Side, context: ChangesContext, notes: Note[]): void {
  const versioned = from.version === to.version
  const before = parametersOf(a, from.document, context, versioned)
  const after = parametersOf(b, to.document, context, versioned)
  const renamed = renamedParameters(before, after, renamesBetween(context.renames, from.version, to.version))
  const older = new Set([...renamed.values()].map(parameter => parameter.key))
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    if (older.has(key)) continue
    const x = renamed.get(key) ?? before.get(key)
    const y = after.get(key)
    if (y === undefined) {
      // Still sent by a client of the earlier version: the server now ignores or refuses it.
      notes.push({ text: `${(x as Parameter).place} parameter ${code((x as Parameter).name)} removed`, breaking: true })
      continue
    }
    const subject = `${y.place} parameter ${code(y.name)}`
    if (x === undefined) {
      notes.push(y.required ? { text: `required ${subject} added`, breaking: true } : { text: `${subject} added`, breaking: false })
      continue
    }
    // A header's name in another case is the same header.
    if (x.name !== y.name && x.place === 'path') notes.push({ text: `${x.place} parameter ${code(x.name)} renamed to ${code(y.name)}`, breaking: false })
    if (renamed.has(key)) notes.push({ text: `${subject} renamed from ${code(x.name)}`, breaking: true })
    if (!x.required && y.required) notes.push({ text: `${subject} newly required`, breaking: true })
    if (x.required && !y.required) notes.push({ text: `${subject} no longer required`, breaking: false })
    compareParts(subject, x.value, y.value, PARAMETER_KEYS, 'request', from, to, context, notes, true)
  }
}

/**
 * The parameters of `after` that are renamed ones of `before` (a query field renamed by versionChanges), by key:
 * one change, as breaking as the older one removed, for the client still sends it. A path parameter's name is
 * no part of the request.
 */
function renamedParameters (before: Map<string, Parameter>, after: Map<string, Parameter>, renames: readonly Rename[]): Map<string, Parameter> {
  const found = new Map<string, Parameter>()
  for (const [key, y] of after) {
    if (before.has(key) || y.place === 'path') continue
    const x = [...before.values()].find(x => x.place === y.place && !after.has(x.key) && ![...found.values()].includes(x) &&
      renames.some(([older, newer]) => older === x.name && newer === y.name))
    if (x !== undefined) found.set(key, x)
  }
  return found
}

function compareRequestBody (a: Operation, b: Operation, from: Side, to: Side, context: ChangesContext, notes: Note[]): void {
  const x = a.operation.requestBody === undefined ? null : resolveRef(from.document, a.operation.requestBody)
  const y = b.operation.requestBody === undefined ? null : resolveRef(to.document, b.operation.requestBody)
  if (x === null && y === null) return
  if (y === null) {
    notes.push({ text: 'request body removed', breaking: true })
    return
  }
  if (x === null) {
    notes.push(y.required === true ? { text: 'required request body added', breaking: true } : { text: 'request body added', breaking: false })
    return
  }
  if (x.required !== true && y.required === true) notes.push({ text: 'request body newly required', breaking: true })
  if (x.required === true && y.required !== true) notes.push({ text: 'request body no longer required', breaking: false })
  compareContent(record(x.content), record(y.content), 'request body', 'request', from, to, context, notes)
  unjudgedNote('request body', x, y, BODY_KEYS, from, to, notes)
}

function compareResponses (a: Operation, b: Operation, from: Side, to: Side, context: ChangesContext, notes: Note[]): void {
  const responsesA = record(a.operation.responses)
  const responsesB = record(b.operation.responses)
  // Fastify answers a status without a schema of its own with `default`'s, a 200 too: where no 2xx is documented,
  // `default` is what a client reads on success.
  const defaultSucceeds = !documentsSuccess(responsesA) || !documentsSuccess(responsesB)
  for (const status of [...new Set([...Object.keys(responsesA), ...Object.keys(responsesB)])].sort()) {
    const role: Role = isSuccess(status) || (status === 'default' && defaultSucceeds) ? 'success' : 'other'
    const subject = `response ${status}`
    if (!Object.hasOwn(responsesB, status)) {
      // A client handles each status its version documents, errors too: one answered no more (a 404 now a 410)
      // leaves its handling of that case unused, and the new answer unhandled.
      notes.push({ text: `${subject} removed`, breaking: true })
    } else if (!Object.hasOwn(responsesA, status)) {
      notes.push({ text: `${subject} added`, breaking: false })
      // A client of `from` reads this status as `default` was.
      const before = documentsSuccess(responsesA) ? undefined : responsesA.default
      if (isSuccess(status) && before !== undefined) compareResponse(subject, before, responsesB[status], role, from, to, context, notes)
    } else {
      compareResponse(subject, responsesA[status], responsesB[status], role, from, to, context, notes)
    }
  }
}

// A status or range of them (OpenAPI's `2XX`) that is a success.
function isSuccess (status: string): boolean {
  return status.startsWith('2')
}

function documentsSuccess (responses: Record<string, unknown>): boolean {
  return Object.keys(responses).some(isSuccess)
}

function compareResponse (subject: string, a: unknown, b: unknown, role: Role, from: Side, to: Side, context: ChangesContext, notes: Note[]): void {
  const x = resolveRef(from.document, a)
  const y = resolveRef(to.document, b)
  compareContent(record(x.content), record(y.content), subject, role, from, to, context, notes)
  compareHeaders(record(x.headers), record(y.headers), subject, role, from, to, context, notes)
  unjudgedNote(subject, x, y, RESPONSE_KEYS, from, to, notes)
}

/**
 * A response's headers, by name in any case: one a success response no longer documents, or no longer
 * requires, may be absent for a client that reads it. Their schemas are compared as the response's. The
 * plugin's own version headers are each version's own (see ChangesContext), never a change.
 */
function compareHeaders (
  a: Record<string, unknown>, b: Record<string, unknown>, subject: string, role: Role, from: Side, to: Side, context: ChangesContext, notes: Note[]
): void {
  const before = byName(a, from.document)
  const after = byName(b, to.document)
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    if (context.versionHeaders.has(key)) continue
    const x = before.get(key)
    const y = after.get(key)
    if (y === undefined) {
      notes.push({ text: `${subject}: header ${code((x as [string, Record<string, unknown>])[0])} removed`, breaking: role === 'success' })
    } else if (x === undefined) {
      notes.push({ text: `${subject}: header ${code(y[0])} added`, breaking: false })
    } else {
      const header = `${subject}: header ${code(y[0])}`
      if (x[1].required === true && y[1].required !== true) notes.push({ text: `${header} no longer required`, breaking: role === 'success' })
      if (x[1].required !== true && y[1].required === true) notes.push({ text: `${header} newly required`, breaking: false })
      compareParts(header, x[1], y[1], HEADER_KEYS, role, from, to, context, notes)
    }
  }
}

function byName (headers: Record<string, unknown>, document: OpenApiDocument): Map<string, [string, Record<string, unknown>]> {
  return new Map(Object.entries(headers).map(([name, header]) => [name.toLowerCase(), [name, resolveRef(document, header)]]))
}

/**
 * The bodies of a request or response, by media type: a media type removed breaks a client that sends it or
 * asks for it. The media type is named only where there are several.
 */
function compareContent (
  a: Record<string, unknown>, b: Record<string, unknown>, subject: string, role: Role, from: Side, to: Side, context: ChangesContext, notes: Note[]
): void {
  const before = byMediaType(a, from.version, context.mediaType)
  const after = byMediaType(b, to.version, context.mediaType)
  const types = [...new Set([...before.keys(), ...after.keys()])].sort()
  for (const type of types) {
    const x = before.get(type)
    const y = after.get(type)
    if (y === undefined) {
      notes.push({ text: `${subject}: media type ${code((x as [string, unknown])[0])} removed`, breaking: role !== 'other' })
    } else if (x === undefined) {
      notes.push({ text: `${subject}: media type ${code(y[0])} added`, breaking: false })
    } else {
      compareParts(types.length > 1 ? `${subject} (${code(y[0])})` : subject, x[1], y[1], MEDIA_KEYS, role, from, to, context, notes)
    }
  }
}

/**
 * Two parameters, headers or media types: their schemas (with the renames declared between the versions), then what
 * no rule reads. A parameter's value is text (`asText`).
 */
function compareParts (
  where: string, x: Record<string, unknown>, y: Record<string, unknown>, judged: ReadonlySet<string>, role: Role, from: Side, to: Side, context: ChangesContext, notes: Note[], asText = false
): void {
  const a: SchemaSide = { document: from.document, schema: x.schema }
  const b: SchemaSide = { document: to.document, schema: y.schema }
  const renames = renamesBetween(context.renames, from.version, to.version)
  for (const change of compareSchemas(a, b, role, renames, asText)) notes.push({ text: `${where}: ${change.text}`, breaking: change.breaking })
  unjudgedNote(where, x, y, judged, from, to, notes)
}

function unjudgedNote (
  where: string, x: Record<string, unknown>, y: Record<string, unknown>, judged: ReadonlySet<string>, from: Side, to: Side, notes: Note[]
): void {
  const keys = unjudged({ document: from.document, value: x }, { document: to.document, value: y }, judged)
  if (keys.length > 0) notes.push({ text: `${where}: ${notJudged(keys)}`, breaking: false })
}

/**
 * A body's media type objects by media type, the version taken out of the media types that name it (with the
 * media type reader, `application/json; v=2.0` is `application/json` of version 2.0): as written, and the object.
 */
function byMediaType (content: Record<string, unknown>, version: string, config: MediaTypeConfig | null): Map<string, [string, Record<string, unknown>]> {
  const found = new Map<string, [string, Record<string, unknown>]>()
  for (const [type, media] of Object.entries(content)) found.set(config === null ? type : unversioned(type, version, config), [type, record(media)])
  return found
}

// The media type the plugin gave the version (see versionMediaTypes): the one it was made from, else itself.
function unversioned (type: string, version: string, config: MediaTypeConfig): string {
  const source = config.template ?? config.parameters[0]
  const candidates: string[] = []
  if (config.parameters.length > 0) candidates.push(type.slice(0, type.length - `; ${config.parameters[0]}=${version}`.length))
  if (config.template !== null && config.baseType !== null) {
    const versioned = config.template.replace('{version}', version)
    candidates.push(config.baseType + type.slice(versioned.length))
  }
  return candidates.find(candidate => withMediaTypeVersion(candidate, version, config, source) === type) ?? type
}

/** What a document leaves out (a response without content) is empty. */
export function record (value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? value as Record<string, unknown> : {}
}
