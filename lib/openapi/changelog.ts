import { changeLines } from '../changes/changes-description.js'
import type { ApiVersionChanges } from '../changes/compare-versions.js'
import type { ApiVersionDocument } from '../changes/document.js'

/** One version in the changelog: what it says it changed, then what its document shows changed since the one before. */
export interface ChangelogEntry {
  readonly version: string
  readonly deprecated: boolean
  /** The version before it, which the changes are since; null for the first. */
  readonly since: string | null
  /**
   * The `description` of each change the `versionChanges` option lists for it, after those of a version between
   * `since` and it that its enforced sunset retired.
   */
  readonly descriptions: readonly string[]
  /** Markdown, as the documents' descriptions and the release gate write them: "`GET /orders` removed". */
  readonly breaking: readonly string[]
  readonly other: readonly string[]
}

/**
 * The changelog clients read: every version, newest first, from the served documents (ascending) and the changes
 * between them (`changes[i]` from `documents[i]` to `documents[i + 1]`); the first version's own descriptions come
 * from `descriptionsOf`.
 */
export function changelogEntries (documents: readonly ApiVersionDocument[], changes: readonly ApiVersionChanges[], descriptionsOf: (version: string) => readonly string[]): ChangelogEntry[] {
  return documents.map((document, i) => {
    const since = i === 0 ? null : changes[i - 1]
    const lines = since === null ? { breaking: [], other: [] } : changeLines(since)
    return Object.freeze({
      version: document.version,
      deprecated: document.deprecated,
      since: since?.from ?? null,
      descriptions: since?.descriptions ?? descriptionsOf(document.version),
      breaking: Object.freeze(lines.breaking),
      other: Object.freeze(lines.other)
    })
  }).reverse()
}

/** Where the page links to: each version's document (`{routePrefix}/{version}.json`), and the docs page, if any. */
export interface ChangelogLinks {
  readonly routePrefix: string
  readonly docs: string | null
}

/**
 * The changelog as a page of its own: no script, no asset from elsewhere, its style in the page; every text of the
 * app's (titles, descriptions, names in the lines) escaped.
 */
export function changelogPage (title: string, entries: readonly ChangelogEntry[], links: ChangelogLinks): string {
  const sections = entries.map(entry => {
    const heading = `<h2><a href="${escape(`${links.routePrefix}/${entry.version}.json`)}">${escape(entry.version)}</a>${entry.deprecated ? ' <span class="deprecated">deprecated</span>' : ''}</h2>`
    const body = [
      ...entry.descriptions.map(text => `<p>${escape(text)}</p>`),
      entry.since === null
        ? '<p class="since">The first version.</p>'
        : entry.breaking.length + entry.other.length === 0
          ? `<p class="since">Its document shows no change since ${escape(entry.since)}.</p>`
          : [
              `<p class="since">Changes since ${escape(entry.since)}:</p>`,
              ...list('Breaking changes', 'breaking', entry.breaking),
              ...list('Other changes', 'other', entry.other)
            ].join('\n')
    ]
    return `<section id="v${escape(entry.version)}">\n${heading}\n${body.join('\n')}\n</section>`
  })
  const docs = links.docs === null ? '' : `<p><a href="${escape(links.docs)}">The documents of every version</a></p>\n`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}: changelog</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escape(title)}: changelog</h1>
${docs}${sections.length === 0 ? '<p>No version of this API is served.</p>' : sections.join('\n')}
</main>
</body>
</html>
`
}

const STYLE = [
  'body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1b1b1b; background: #fafafa }',
  'main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 2rem }',
  'section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 0.5rem 1.5rem; margin: 1rem 0 }',
  'h2 a { color: inherit; text-decoration: none }',
  '.deprecated { font-size: 0.8rem; vertical-align: middle; padding: 0.1rem 0.5rem; border-radius: 4px; background: #eee; color: #555 }',
  '.since { color: #555 }',
  'h3 { font-size: 1rem; margin-bottom: 0.25rem }',
  'ul.breaking li { list-style: none; border-left: 4px solid #c62828; padding-left: 0.5rem; margin-left: -1.5rem }',
  'ul.breaking li::before { content: "Breaking: "; font-weight: 600; color: #c62828 }',
  'code { font-size: 0.9em; background: #f0f0f0; padding: 0 0.2rem; border-radius: 3px }'
].join('\n')

function list (title: string, kind: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [`<h3>${title}</h3>\n<ul class="${kind}">\n${lines.map(line => `<li>${codeSpans(line)}</li>`).join('\n')}\n</ul>`]
}

// A line's markdown code spans (see code()) as HTML code, the rest as text.
function codeSpans (line: string): string {
  return escape(line).replace(/(`+)( ?)(.+?)\2\1/g, (_all, _fence, _pad, inner: string) => `<code>${inner}</code>`)
}

function escape (text: string): string {
  return text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
}
