import type { IncomingMessage } from 'node:http'
import type { ResolvedOptions } from '../options.js'
import { NONE, type VersionOutcome } from './outcome.js'
import { readRequest, type ReaderConfig } from './readers.js'

/**
 * Where a request's outcome is kept: read once, by the router's constraint store or a route's first hook. A
 * registry symbol, as every key the package leaves on shared objects, so that its two builds agree.
 */
export const kOutcome = Symbol.for('fastify-api-versioning.outcome')
export type RawRequest = IncomingMessage & { [kOutcome]?: VersionOutcome }

/** Finds the raw path version of a request, or undefined (see routing/constraint.ts). */
export type FindSegment = (method: string, url: string, host: string | undefined) => string | undefined

/** Reads a request's version, when a versioned or version-neutral route asks, and keeps the outcome on it. */
export interface RequestReader {
  /** Reads the request (its path too, on a route whose path carries the version): the router's stores call it. */
  read (raw: RawRequest, inPath: boolean): VersionOutcome
  /** The outcome the router read, or one read now (on a neutral route, which has no constraint). */
  outcomeOf (raw: RawRequest, inPath: boolean): VersionOutcome
}

export function createRequestReader (options: ResolvedOptions, findSegment: FindSegment): RequestReader {
  const assumed = options.assumeDefaultVersionWhenUnspecified ? options.defaultVersion : null
  const readers: ReaderConfig = {
    queryNames: options.queryNames,
    shortestQueryName: Math.min(...options.queryNames.map(name => name.length)),
    headerNames: options.headerNames,
    mediaType: options.mediaType,
    segmentName: options.segmentName,
    findSegment: null
  }
  // Only the routes whose path carries the version read it there: that costs a second router lookup.
  const pathReaders: ReaderConfig = { ...readers, findSegment }

  function read (raw: RawRequest, inPath: boolean): VersionOutcome {
    const outcome = readRequest(raw, inPath ? pathReaders : readers)
    if (outcome.kind === NONE) outcome.version = assumed
    raw[kOutcome] = outcome
    return outcome
  }
  return {
    read,
    outcomeOf: (raw, inPath) => raw[kOutcome] ?? read(raw, inPath)
  }
}
