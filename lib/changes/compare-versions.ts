import { ApiVersion } from '../api-version.js'
import { isObject } from '../util/is-object.js'
import { anchored } from './anchored-refs.js'
import type { ChangesContext } from './changes-context.js'
import { code } from './code.js'
import type { ApiVersionDocument } from './document.js'
import type { Note } from './note.js'
import { compareOperation, METHODS, PARAMETER, record, type Operation, type Side } from './operation-changes.js'
import { MAX_DEPTH, TooDeep } from './too-deep.js'
import { WEBHOOKS_EXTENSION } from '../util/webhooks-extension.js'

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
  /**
   * What `to` changed, in words for clients: the `description` of each change the `versionChanges` option lists
   * for it, in order; none for a version it does not list. Where a version between `from` and `to` was retired by
   * its enforced sunset, its descriptions come first: a client of `from` meets its changes in `to` too.
   */
  readonly descriptions: readonly string[]
  /** Operations only the later version has. */
  readonly added: readonly string[]
  /** Operations only the earlier version has: breaking. */
  readonly removed: readonly string[]
  /** Operations only the earlier version documents, which the later one still serves (`hidden` by a version change). */
  readonly hidden: readonly string[]
  /** Operations of both that are deprecated in the later version only. */
  readonly deprecated: readonly string[]
  readonly changed: readonly OperationChanges[]
}

/** What changed between two consecutive documents, each change with its own weight. */
export interface Comparison {
  readonly from: string
  readonly to: string
  readonly added: string[]
  readonly removed: string[]
  readonly hidden: string[]
  readonly deprecated: string[]
  /** Breaking notes first. */
  readonly changed: Array<{ operation: string, notes: Note[] }>
}

/**
 * Compares each version's document with the next one's (the documents ascending, as served). Operations are
 * matched by method and path: the path as the route declares it where the version is written into it, and
 * with its parameters unnamed (`/orders/{id}` and `/orders/{orderId}` are one path, as for the router). An
 * operation with a schema too deep to compare (see TooDeep) is said to be (not judged); `strict`: it throws, for
 * the release gate, which passes only what it can prove.
 */
export function compareVersions (given: readonly ApiVersionDocument[], context: ChangesContext, strict = false): Comparison[] {
  const documents = given.map(entry => ({ ...entry, document: anchored(entry.document).document }))
  const comparisons: Comparison[] = []
  for (let i = 1; i < documents.length; i++) {
    const from = { document: documents[i - 1].document, version: documents[i - 1].version }
    const to = { document: documents[i].document, version: documents[i].version }
    const before = operationsOf(from, context)
    const after = operationsOf(to, context)
    const comparison: Comparison = { from: from.version, to: to.version, added: [], removed: [], hidden: [], deprecated: [], changed: [] }
    const later = ApiVersion.tryParse(to.version)
    const hidden = new Set(context.hidden.filter(({ version }) => later !== null && version.compareTo(later) <= 0).map(({ key }) => key))
    for (const key of [...before.keys()].filter(key => !after.has(key))) (hidden.has(key) ? comparison.hidden : comparison.removed).push((before.get(key) as Operation).label)
    for (const [key, later] of after) {
      const earlier = before.get(key)
      if (earlier === undefined) comparison.added.push(later.label)
      if (later.operation.deprecated === true && earlier?.operation.deprecated !== true) comparison.deprecated.push(later.label)
      if (earlier === undefined) continue
      const notes = deepest(later.label, strict, () => compareOperation(earlier, later, from, to, context)).map(note => later.path === WEBHOOK ? { ...note, text: note.text.replace(/^response 200:/, 'payload:') } : note)
      if (notes.length > 0) comparison.changed.push({ operation: later.label, notes: [...notes.filter(n => n.breaking), ...notes.filter(n => !n.breaking)] })
    }
    comparisons.push(comparison)
  }
  return comparisons
}

// An operation's notes; where a schema is too deep to compare, a note that says so, or (strict) a TooDeep naming it.
function deepest (label: string, strict: boolean, compare: () => Note[]): Note[] {
  try {
    return compare()
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error
    if (strict) throw new TooDeep(code(label))
    return [{ text: `not compared: a schema nests deeper than ${MAX_DEPTH} levels, its $refs followed`, breaking: false }]
  }
}

/**
 * The comparisons as `apiVersionChanges()` gives them, frozen: every caller shares them. `descriptions` gives what
 * changed from one version to another in words (the `versionChanges` option's descriptions of the versions after
 * `from` up to `to`).
 */
export function apiVersionChanges (comparisons: readonly Comparison[], descriptions: (from: string, to: string) => readonly string[] = () => []): readonly ApiVersionChanges[] {
  return Object.freeze(comparisons.map(c => Object.freeze({
    from: c.from,
    to: c.to,
    descriptions: Object.freeze([...descriptions(c.from, c.to)]),
    added: Object.freeze([...c.added]),
    removed: Object.freeze([...c.removed]),
    hidden: Object.freeze([...c.hidden]),
    deprecated: Object.freeze([...c.deprecated]),
    changed: Object.freeze(c.changed.map(({ operation, notes }) => Object.freeze({
      operation,
      breaking: notes.some(note => note.breaking),
      changes: Object.freeze(notes.map(note => note.text)),
      details: Object.freeze(notes.map(note => Object.freeze({ change: note.text, breaking: note.breaking })))
    })))
  })))
}

// What a webhook's label starts with, and its operation's path.
const WEBHOOK = 'webhook'

/** An operation's key: its path as the route declares it where the version is written into it, parameters unnamed, and the method's place in OpenAPI. */
export function operationKey (template: string, method: string): string {
  return `${template.replace(PARAMETER, '{}')} ${METHODS.indexOf(method)}`
}

/** Each operation of a document by its key (see operationKey), in the order of their paths, then methods. */
function operationsOf (side: Side, context: ChangesContext): Map<string, Operation> {
  const found = new Map<string, Operation>()
  for (const [path, item] of Object.entries(side.document.paths)) {
    const template = context.templates.find(t => t.replaceAll(`{${context.segmentName}}`, side.version) === path) ?? path
    for (const method of METHODS) {
      if (item[method] === undefined) continue
      found.set(operationKey(template, method), { label: `${method.toUpperCase()} ${path}`, path, item, operation: record(item[method]) })
    }
  }
  const keys = [...found.keys()].sort()
  // A receiver takes a webhook's payload as a client takes a response: compared as one, after the paths.
  const webhooks = side.document.webhooks ?? side.document[WEBHOOKS_EXTENSION]
  for (const [name, item] of Object.entries(isObject(webhooks) ? webhooks : {})) {
    const post = isObject(item) && isObject(item.post) ? item.post : null
    if (post === null) continue
    const payload = { responses: { 200: { description: '', content: isObject(post.requestBody) ? post.requestBody.content : undefined } } }
    const key = `${WEBHOOK} ${name}`
    keys.push(key)
    found.set(key, { label: key, path: WEBHOOK, item: { post: payload }, operation: payload })
  }
  return new Map(keys.map(key => [key, found.get(key) as Operation]))
}
