import type { IncomingMessage } from 'node:http'
import type { ApiVersion } from '../api-version.js'
import type { CustomReader } from './custom-reader.js'
import type { MediaTypeConfig } from './media-type.js'
import { NONE, type VersionOutcome } from './outcome.js'
import type { PathSegment } from './path-segment.js'
import { readRequest, type ReaderConfig } from './readers.js'

/**
 * Where a request's outcome is kept: read once, by the router's constraint store or a route's first hook. A
 * registry symbol, as every key the package leaves on shared objects, so that its two builds agree.
 */
export const kOutcome = Symbol.for('fastify-api-versioning.outcome')
export type RawRequest = IncomingMessage & { [kOutcome]?: VersionOutcome }

/** Finds the raw path version of a request, or undefined (see routing/constraint.ts). */
export type FindSegment = (method: string, url: string, host: string | undefined) => string | undefined

/** The options of where a version may be given, and what a request without one gets (see options.ts). */
export interface ReaderOptions {
  readonly assumeDefaultVersionWhenUnspecified: boolean
  readonly defaultVersion: ApiVersion
  /** Lower-case. */
  readonly queryNames: readonly string[]
  /** Lower-case. */
  readonly headerNames: readonly string[]
  readonly segmentName: string | null
  readonly mediaType: MediaTypeConfig | null
  readonly customReader: CustomReader | null
}

/** True when the media type is the only reader: an unsupported version is then a media type (406, 415). */
export function isMediaTypeOnly (options: Pick<ReaderOptions, 'mediaType' | 'queryNames' | 'headerNames' | 'segmentName'>): boolean {
  return options.mediaType !== null && options.queryNames.length === 0 && options.headerNames.length === 0 && options.segmentName === null
}

/** Reads a request's version, when a versioned or version-neutral route asks, and keeps the outcome on it. */
export interface RequestReader {
  /** Reads the request (its path too, on a route whose path carries the version): the router's stores call it. */
  read (raw: RawRequest, segment: PathSegment | null): VersionOutcome
  /** The outcome the router read, or one read now (on a neutral route, which has no constraint). */
  outcomeOf (raw: RawRequest, segment: PathSegment | null): VersionOutcome
}

export function createRequestReader (options: ReaderOptions, findSegment: FindSegment, semicolonQuery = false): RequestReader {
  const assumed = options.assumeDefaultVersionWhenUnspecified ? options.defaultVersion : null
  const readers: ReaderConfig = {
    queryNames: options.queryNames,
    shortestQueryName: Math.min(...options.queryNames.map(name => name.length)),
    headerNames: options.headerNames,
    mediaType: options.mediaType,
    segmentName: options.segmentName,
    custom: options.customReader,
    lastQuery: { text: '', name: '', value: '' },
    findSegment,
    semicolonQuery
  }

  function read (raw: RawRequest, segment: PathSegment | null): VersionOutcome {
    const outcome = readRequest(raw, readers, segment)
    if (outcome.kind === NONE) outcome.version = assumed
    raw[kOutcome] = outcome
    return outcome
  }
  return {
    read,
    outcomeOf: (raw, segment) => raw[kOutcome] ?? read(raw, segment)
  }
}
