import type { ResolvedOptions } from '../options.js'
import { withMediaTypeVersion, type MediaTypeConfig } from '../request/media-type.js'
import { SEPARATOR, type CollectedRoute } from './collect.js'
import { code } from './code.js'
import { resolveRef } from './resolve-ref.js'
import { compareSchemas, type Role } from './schema-changes.js'
import type { ApiVersionDocument, OpenApiDocument } from './split.js'

/** One change of an operation, and its own verdict. */
export interface OperationChange {
  /** The sentence, as in `changes`. */
  readonly change: string
  /** A client of the earlier version can break on this change. */
  readonly breaking: boolean
}

/** What changed in one operation, present in both versions. */
export interface OperationChanges {
  /** `'GET /orders/{id}'`, as the later version's document writes it. */
  readonly operation: string
  /** A client of the earlier version can break on one of the changes. */
  readonly breaking: boolean
  /** Sentences, breaking ones first: `'response 200: property `total` removed'`. */
  readonly changes: readonly string[]
  /** The same changes in the same order, each with its verdict. */
  readonly details: readonly OperationChange[]
}

/** What changed from one version's document to the next one's. */
export interface ApiVersionChanges {
  readonly from: string
  readonly to: string
  /** Operations only the later version has. */
  readonly added: readonly string[]
  /** Operations only the earlier version has: breaking. */
  readonly removed: readonly string[]
  /** Operations of both that are deprecated in the later version only. */
  readonly deprecated: readonly string[]
  readonly changed: readonly OperationChanges[]
}

/** A change as a sentence, and whether a client of the earlier version can break on it. */
export interface Note {
  readonly text: string
  readonly breaking: boolean
}

/** What changed between two consecutive documents, each change with its own weight. */
export interface Comparison {
  readonly from: string
  readonly to: string
  readonly added: string[]
  readonly removed: string[]
  readonly deprecated: string[]
  /** Breaking notes first. */
  readonly changed: Array<{ operation: string, notes: Note[] }>
}

/** What the documents write differently for each version by design, and so is no change. */
export interface ChangesContext {
  /** The version parameters, as `query api-version` and `header api-version` (lower-case). */
  readonly versionParameters: ReadonlySet<string>
  readonly mediaType: MediaTypeConfig | null
  /** The documented paths with the version in them, as `/api/v{apiVersion}/orders`. */
  readonly templates: readonly string[]
  readonly segmentName: string | null
}

interface Operation {
  readonly label: string
  readonly path: string
  readonly item: Record<string, unknown>
  readonly operation: Record<string, unknown>
}

interface Side {
  readonly document: OpenApiDocument
  readonly version: string
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const PLACES = ['path', 'query', 'header', 'cookie']
// A `{` ends any match that has not found its `}`: a path of many `{` is read once, not again from each (a path
// parameter's name has no braces).
const PARAMETER = /\{[^{}]*\}/g

/** From the combined document: what each version's document writes in its own way. */
export function changesContext (combined: OpenApiDocument, routes: readonly CollectedRoute[], options: ResolvedOptions): ChangesContext {
  const templates: string[] = []
  for (const key of Object.keys(combined.paths)) {
    const cut = key.lastIndexOf(SEPARATOR)
    if (cut !== -1 && routes[Number(key.slice(cut + 1))].declaration.inPath) templates.push(key.slice(0, cut))
  }
  const versionParameters = new Set<string>()
  if (options.queryNames.length > 0) versionParameters.add(`query ${options.queryNames[0].toLowerCase()}`)
  if (options.headerNames.length > 0) versionParameters.add(`header ${options.headerNames[0].toLowerCase()}`)
  return { versionParameters, mediaType: options.mediaType, templates, segmentName: options.segmentName }
}

/**
 * Compares each version's document with the next one's (the documents ascending, as served). Operations are
 * matched by method and path: the path as the route declares it where the version is written into it, and
 * with its parameters unnamed (`/orders/{id}` and `/orders/{orderId}` are one path, as for the router).
 */
export function compareVersions (documents: readonly ApiVersionDocument[], context: ChangesContext): Comparison[] {
  const comparisons: Comparison[] = []
  for (let i = 1; i < documents.length; i++) {
    const from = { document: documents[i - 1].document, version: documents[i - 1].version }
    const to = { document: documents[i].document, version: documents[i].version }
    const before = operationsOf(from, context)
    const after = operationsOf(to, context)
    const comparison: Comparison = { from: from.version, to: to.version, added: [], removed: [], deprecated: [], changed: [] }
    for (const key of [...before.keys()].filter(key => !after.has(key))) comparison.removed.push((before.get(key) as Operation).label)
    for (const [key, later] of after) {
      const earlier = before.get(key)
      if (earlier === undefined) comparison.added.push(later.label)
      if (later.operation.deprecated === true && earlier?.operation.deprecated !== true) comparison.deprecated.push(later.label)
      if (earlier === undefined) continue
      const notes = compareOperation(earlier, later, from, to, context)
      if (notes.length > 0) comparison.changed.push({ operation: later.label, notes: [...notes.filter(n => n.breaking), ...notes.filter(n => !n.breaking)] })
    }
    comparisons.push(comparison)
  }
  return comparisons
}

/** The comparisons as `apiVersionChanges()` gives them, frozen: every caller shares them. */
export function apiVersionChanges (comparisons: readonly Comparison[]): readonly ApiVersionChanges[] {
  return Object.freeze(comparisons.map(c => Object.freeze({
    from: c.from,
    to: c.to,
    added: Object.freeze([...c.added]),
    removed: Object.freeze([...c.removed]),
    deprecated: Object.freeze([...c.deprecated]),
    changed: Object.freeze(c.changed.map(({ operation, notes }) => Object.freeze({
      operation,
      breaking: notes.some(note => note.breaking),
      changes: Object.freeze(notes.map(note => note.text)),
      details: Object.freeze(notes.map(note => Object.freeze({ change: note.text, breaking: note.breaking })))
    })))
  })))
}

/**
 * Each operation of a document by its key, in the order of their paths, then methods: the path as the route
 * declares it where the version is written into it, its parameters unnamed, then the method's place in OpenAPI.
 */
function operationsOf (side: Side, context: ChangesContext): Map<string, Operation> {
  const found = new Map<string, Operation>()
  for (const [path, item] of Object.entries(side.document.paths)) {
    const template = context.templates.find(t => t.replaceAll(`{${context.segmentName}}`, side.version) === path) ?? path
    METHODS.forEach((method, i) => {
      if (item[method] === undefined) return
      found.set(`${template.replace(PARAMETER, '{}')} ${i}`, { label: `${method.toUpperCase()} ${path}`, path, item, operation: record(item[method]) })
    })
  }
  return new Map([...found.keys()].sort().map(key => [key, found.get(key) as Operation]))
}

function compareOperation (a: Operation, b: Operation, from: Side, to: Side, context: ChangesContext): Note[] {
  const notes: Note[] = []
  compareParameters(a, b, from, to, context, notes)
  compareRequestBody(a, b, from, to, context, notes)
  const responsesA = record(a.operation.responses)
  const responsesB = record(b.operation.responses)
  for (const status of [...new Set([...Object.keys(responsesA), ...Object.keys(responsesB)])].sort()) {
    const role: Role = status.startsWith('2') ? 'success' : 'other'
    const subject = `response ${status}`
    if (!Object.hasOwn(responsesB, status)) {
      notes.push({ text: `${subject} removed`, breaking: role === 'success' })
    } else if (!Object.hasOwn(responsesA, status)) {
      notes.push({ text: `${subject} added`, breaking: false })
    } else {
      const x = resolveRef(from.document, responsesA[status])
      const y = resolveRef(to.document, responsesB[status])
      compareContent(record(x.content), record(y.content), subject, role, from, to, context, notes)
    }
  }
  return notes
}

interface Parameter { readonly key: string, readonly name: string, readonly place: string, readonly required: boolean, readonly schema: unknown }

/**
 * An operation's parameters with those of its path item, by place and name (a header's name in any case; a
 * path parameter by its position in the path, whatever its name), but the version's own: each document has
 * its own value of them by design.
 */
function parametersOf (operation: Operation, document: OpenApiDocument, context: ChangesContext): Map<string, Parameter> {
  const positions = [...operation.path.matchAll(PARAMETER)].map(([match]) => match.slice(1, -1))
  const found = new Map<string, Parameter>()
  for (const value of [...asArray(operation.item.parameters), ...asArray(operation.operation.parameters)]) {
    const parameter = resolveRef(document, value)
    const name = String(parameter.name)
    const place = String(parameter.in)
    const named = place === 'header' ? name.toLowerCase() : name
    if (context.versionParameters.has(`${place} ${named}`)) continue
    const key = place === 'path' ? `0 ${String(positions.indexOf(name)).padStart(4, '0')}` : `${PLACES.indexOf(place)} ${named}`
    found.set(key, { key, name, place, required: parameter.required === true, schema: parameter.schema })
  }
  return found
}

function compareParameters (a: Operation, b: Operation, from: Side, to: Side, context: ChangesContext, notes: Note[]): void {
  const before = parametersOf(a, from.document, context)
  const after = parametersOf(b, to.document, context)
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const x = before.get(key)
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
    if (!x.required && y.required) notes.push({ text: `${subject} newly required`, breaking: true })
    if (x.required && !y.required) notes.push({ text: `${subject} no longer required`, breaking: false })
    for (const change of compareSchemas({ document: from.document, schema: x.schema }, { document: to.document, schema: y.schema }, 'request')) {
      notes.push({ text: `${subject}: ${change.text}`, breaking: change.breaking })
    }
  }
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
      const where = types.length > 1 ? `${subject} (${code(y[0])})` : subject
      for (const change of compareSchemas({ document: from.document, schema: x[1] }, { document: to.document, schema: y[1] }, role)) {
        notes.push({ text: `${where}: ${change.text}`, breaking: change.breaking })
      }
    }
  }
}

/**
 * A body's schemas by media type, the version taken out of the media types that name it (with the media type
 * reader, `application/json; v=2.0` is `application/json` of version 2.0): as written, and the schema.
 */
function byMediaType (content: Record<string, unknown>, version: string, config: MediaTypeConfig | null): Map<string, [string, unknown]> {
  const found = new Map<string, [string, unknown]>()
  for (const [type, media] of Object.entries(content)) found.set(config === null ? type : unversioned(type, version, config), [type, record(media).schema])
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

function asArray (value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

// What a document leaves out (a response without content) is empty.
function record (value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? value as Record<string, unknown> : {}
}
