import type { Comparison } from './changes.js'
import { code } from './code.js'
import type { ApiVersionDocument } from './split.js'

/**
 * Each version's document, but the first, with what changed since the version before it at the end of its
 * `info.description` (markdown, which docs pages render): breaking changes first. `comparisons[i]` is from
 * `documents[i]` to `documents[i + 1]`, as `compareVersions` makes them.
 */
export function describeChanges (documents: readonly ApiVersionDocument[], comparisons: readonly Comparison[]): ApiVersionDocument[] {
  return documents.map((entry, i) => {
    if (i === 0) return entry
    const { description } = entry.document.info
    const text = markdown(comparisons[i - 1])
    const info = { ...entry.document.info, description: description === undefined ? text : `${description}\n\n${text}` }
    return Object.freeze({ ...entry, document: { ...entry.document, info } })
  })
}

function markdown (comparison: Comparison): string {
  const breaking = comparison.removed.map(operation => `${code(operation)} removed`)
  const other = [
    ...comparison.added.map(operation => `${code(operation)} added`),
    ...comparison.deprecated.map(operation => `${code(operation)} deprecated`)
  ]
  for (const { operation, notes } of comparison.changed) {
    for (const note of notes) (note.breaking ? breaking : other).push(`${code(operation)}: ${note.text}`)
  }
  const heading = `### Changes since ${comparison.from}`
  if (breaking.length + other.length === 0) return `${heading}\n\nNo operation changed.`
  return [heading, ...list('Breaking changes', breaking), ...list('Other changes', other)].join('\n\n')
}

function list (title: string, items: string[]): string[] {
  return items.length === 0 ? [] : [`**${title}**`, items.map(item => `- ${item}`).join('\n')]
}
