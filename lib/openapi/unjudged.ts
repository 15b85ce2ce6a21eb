import { code } from './code.js'
import { resolveRef } from './resolve-ref.js'
import type { OpenApiDocument } from './split.js'
import { isObject } from '../util/is-object.js'

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
  return [...keys].filter(key => !judged.has(key) && !isDocumentation(key) && canonical(a.document, a.value[key]) !== canonical(b.document, b.value[key])).sort()
}

/** How a note of what no rule judges begins. */
export const NOT_JUDGED = 'changed (not judged)'

/** The note of what differs that no rule judges: the keys, at a place (`' of `s`'`, or ''). */
export function notJudged (keys: readonly string[], at = ''): string {
  return `${NOT_JUDGED}: ${keys.map(code).join(', ')}${at}`
}

/**
 * A value as text that is the same for the same value: keys sorted, `$ref`s written out (one that leads back
 * into what is being written says how far back, as it cannot be written out; one that leads nowhere stays).
 */
export function canonical (document: OpenApiDocument, value: unknown): string {
  const open: object[] = []
  function write (current: unknown): unknown {
    if (isObject(current) && typeof current.$ref === 'string') {
      const target = resolveRef(document, current)
      if (Object.keys(target).length > 0) current = target
    }
    if (typeof current !== 'object' || current === null) return current
    const depth = open.indexOf(current)
    if (depth !== -1) return { $cycle: open.length - depth }
    open.push(current)
    const written = Array.isArray(current)
      ? current.map(write)
      : Object.fromEntries(Object.keys(current).sort().map(key => [key, write((current as Record<string, unknown>)[key])]))
    open.pop()
    return written
  }
  return JSON.stringify(write(value)) ?? 'undefined'
}
