import type { ApiVersionChanges } from './compare-versions.js'
import { code } from './code.js'
import type { ApiVersionDocument } from './document.js'

/**
 * Each version's document, but the first, with what changed since the version before it at the end of its
 * `info.description` (markdown, which docs pages render): breaking changes first. `changes[i]` is from
 * `documents[i]` to `documents[i + 1]`, as `apiVersionChanges()` gives them.
 */
export function describeChanges (documents: readonly ApiVersionDocument[], changes: readonly ApiVersionChanges[]): ApiVersionDocument[] {
  return documents.map((entry, i) => {
    if (i === 0) return entry
    const { description } = entry.document.info
    const text = markdown(changes[i - 1])
    const info = { ...entry.document.info, description: description === undefined ? text : `${description}\n\n${text}` }
    return Object.freeze({ ...entry, document: { ...entry.document, info } })
  })
}

/**
 * The changes as markdown list items, without the dash, breaking and other apart: "`GET /orders` removed",
 * "`GET /orders`: response 200: property `total` removed". The release gate prints the same.
 */
export function changeLines (changes: ApiVersionChanges): { breaking: string[], other: string[] } {
  const breaking = changes.removed.map(operation => `${code(operation)} removed`)
  const other = [
    ...changes.added.map(operation => `${code(operation)} added`),
    ...changes.deprecated.map(operation => `${code(operation)} deprecated`)
  ]
  for (const { operation, details } of changes.changed) {
    for (const { change, breaking: breaks } of details) (breaks ? breaking : other).push(`${code(operation)}: ${change}`)
  }
  return { breaking, other }
}

// What the version says it changed (the versionChanges option's descriptions) first, then what the documents show.
function markdown (changes: ApiVersionChanges): string {
  const { breaking, other } = changeLines(changes)
  // A description is text the app wrote for clients: a `<` in it starts no HTML tag, which a docs page would drop
  // with what follows it (Swagger UI sanitizes the markdown it renders).
  const heading = [`### Changes since ${changes.from}`, ...changes.descriptions.map(asText)]
  if (breaking.length + other.length === 0) return [...heading, 'No operation changed.'].join('\n\n')
  return [...heading, ...list('Breaking changes', breaking), ...list('Other changes', other)].join('\n\n')
}

// A '<' outside code spans as an entity (inside them markdown shows text as it is).
function asText (description: string): string {
  return description.split(/(`+[^`]*?`+)/).map((part, i) => i % 2 === 1 ? part : part.replaceAll('<', '&lt;')).join('')
}

function list (title: string, items: string[]): string[] {
  return items.length === 0 ? [] : [`**${title}**`, items.map(item => `- ${item}`).join('\n')]
}
