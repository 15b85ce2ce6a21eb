import { AMBIGUOUS, INVALID, NONE, PATH, type VersionOutcome } from '../request/outcome.js'
import { isMediaTypeOnly, type RawRequest, type ReaderOptions } from '../request/request-reader.js'
import type { ApiVersionProblem, ProblemSet } from './problems.js'

/** Which problem answers a request whose outcome is no version a route serves. */
export type ProblemChoice = (outcome: VersionOutcome, raw: RawRequest) => ApiVersionProblem

export function createProblemChoice (problems: ProblemSet, options: Pick<ReaderOptions, 'assumeDefaultVersionWhenUnspecified' | 'mediaType' | 'queryNames' | 'headerNames' | 'segmentName'>): ProblemChoice {
  const assumed = options.assumeDefaultVersionWhenUnspecified
  // As ASP.NET: when only media types carry versions, an unsupported one is a media type the route cannot take.
  const mediaTypeOnly = isMediaTypeOnly(options)
  function unsupportedFor (outcome: VersionOutcome, raw: RawRequest): ApiVersionProblem {
    if ((outcome.from & PATH) !== 0) return problems.unsupportedInPath
    if (mediaTypeOnly) return raw.headers['content-type'] === undefined ? problems.notAcceptable : problems.unsupportedMediaType
    return problems.unsupported
  }
  return function problemFor (outcome, raw) {
    switch (outcome.kind) {
      case AMBIGUOUS: return problems.ambiguous
      case INVALID: return problems.invalid
      case NONE: return assumed ? unsupportedFor(outcome, raw) : problems.unspecified
      default: return unsupportedFor(outcome, raw)
    }
  }
}
