import { code } from './code.js'
import { sameValue } from './same-value.js'
import type { OpenApiDocument } from './document.js'

/** An object of a document (an operation, a parameter, a schema), read against that document's components. */
export interface Part {
  readonly document: OpenApiDocument
  readonly value: Record<string, unknown>
}

// Words for people and tools, which change nothing a client sends or reads: never a change. An operationId or
// tags name the methods of a generated client, but a client already built keeps working.
const DOCUMENTATION = new Set(['summary', 'description', 'title', 'example', 'examples', '$comment', 'externalDocs', 'deprecated', 'operationId', 'tags', 'links'])

/** Whether a key only documents (see DOCUMENTATION; an `x-` extension is for tools). */
export function isDocumentation (key: string): boolean {
  return DOCUMENTATION.has(key) || key.startsWith('x-')
}

/**
 * The keys of two objects whose values differ where no rule reads them: all but `judged` and documentation,
 * sorted. Values are compared with their `$ref`s followed, so a component's change is seen where it is used.
 */
export function unjudged (a: Part, b: Part, judged: ReadonlySet<string>): string[] {
  const keys = new Set([...Object.keys(a.value), ...Object.keys(b.value)])
  return [...keys].filter(key => !judged.has(key) && !isDocumentation(key) &&
    !sameValue({ document: a.document, value: a.value[key] }, { document: b.document, value: b.value[key] })).sort()
}

/** How a note of what no rule judges begins. */
export const NOT_JUDGED = 'changed (not judged)'

/** The note of what differs that no rule judges: the keys, at a place (`' of `s`'`, or ''). */
export function notJudged (keys: readonly string[], at = ''): string {
  return `${NOT_JUDGED}: ${keys.map(code).join(', ')}${at}`
}
