import { HEADER, MEDIA_TYPE, NONE, PATH, QUERY, type VersionOutcome } from './outcome.js'

/** Where the version a request is served as came from (`request.apiVersionSource`). */
export type ApiVersionSource = 'query' | 'header' | 'path' | 'media-type' | 'custom' | 'assumed'

/** The source of the version the request was served as (see sourceOfServed); null when it was served as none. */
export function sourceOf (outcome: VersionOutcome | undefined): ApiVersionSource | null {
  return outcome === undefined || outcome.served === null ? null : sourceOfServed(outcome)
}

/**
 * Where the version of a request that is served as one came from: the first reader, in the order query, header,
 * path, media type, custom, that gave it (its values all denote that version), `'assumed'` when it gave none.
 */
export function sourceOfServed (outcome: VersionOutcome): ApiVersionSource {
  if (outcome.kind === NONE) return 'assumed'
  const from = outcome.from
  return (from & QUERY) !== 0
    ? 'query'
    : (from & HEADER) !== 0 ? 'header' : (from & PATH) !== 0 ? 'path' : (from & MEDIA_TYPE) !== 0 ? 'media-type' : 'custom'
}
