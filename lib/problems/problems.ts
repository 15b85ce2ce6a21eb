/**
 * The four API-version problems of the spec: fixed titles, type fragments, details and codes. Details never
 * echo request text.
 */

export type ApiVersionProblemKind = 'unspecified' | 'unsupported' | 'invalid' | 'ambiguous'

/** An RFC 9457 problem document: the standard members and any extension members. */
export interface ProblemDocument {
  type?: string
  title?: string
  status: number
  detail?: string
  instance?: string
  [extension: string]: unknown
}

/** A problem that this plugin reports: the spec's five members. */
export interface ApiVersionProblem extends ProblemDocument {
  type: string
  title: string
  status: number
  detail: string
  code: string
}

interface ProblemText {
  readonly title: string
  readonly detail: string
  readonly code: string
}

export const PROBLEM_TEXTS: Readonly<Record<ApiVersionProblemKind, ProblemText>> = Object.freeze({
  unspecified: {
    title: 'Unspecified API version',
    detail: 'An API version is required, but was not specified',
    code: 'ApiVersionUnspecified'
  },
  unsupported: {
    title: 'Unsupported API version',
    detail: 'The specified API version is not supported',
    code: 'UnsupportedApiVersion'
  },
  invalid: {
    title: 'Invalid API version',
    detail: 'An API version was specified, but it is invalid',
    code: 'InvalidApiVersion'
  },
  ambiguous: {
    title: 'Ambiguous API version',
    detail: 'An API version was specified multiple times with different values',
    code: 'AmbiguousApiVersion'
  }
})

export const DEFAULT_PROBLEM_TYPE_BASE = 'https://docs.api-versioning.org/problems'

/** Creates the problem of `kind`; the result is frozen, so one instance can serve every request. */
export function createProblem (kind: ApiVersionProblemKind, status: number, typeBase: string): ApiVersionProblem {
  const text = PROBLEM_TEXTS[kind]
  return Object.freeze({
    type: typeBase + '#' + kind,
    title: text.title,
    status,
    detail: text.detail,
    code: text.code
  })
}

/** The problems one plugin instance answers with, made once at start-up. */
export interface ProblemSet {
  readonly unspecified: ApiVersionProblem
  readonly unsupported: ApiVersionProblem
  /** Unsupported, for a version read from the URL path: always 404. */
  readonly unsupportedInPath: ApiVersionProblem
  /** Unsupported when the media type is the only reader: 415 for a request with a body type, else 406. */
  readonly unsupportedMediaType: ApiVersionProblem
  readonly notAcceptable: ApiVersionProblem
  readonly invalid: ApiVersionProblem
  readonly ambiguous: ApiVersionProblem
  /** The four `type` URIs, to tell version problems from others. */
  readonly types: ReadonlySet<string>
}

export function createProblemSet (typeBase: string, unsupportedStatus: number): ProblemSet {
  const set = {
    unspecified: createProblem('unspecified', 400, typeBase),
    unsupported: createProblem('unsupported', unsupportedStatus, typeBase),
    unsupportedInPath: createProblem('unsupported', 404, typeBase),
    unsupportedMediaType: createProblem('unsupported', 415, typeBase),
    notAcceptable: createProblem('unsupported', 406, typeBase),
    invalid: createProblem('invalid', 400, typeBase),
    ambiguous: createProblem('ambiguous', 400, typeBase)
  }
  return { ...set, types: new Set(Object.values(set).map(p => p.type)) }
}
