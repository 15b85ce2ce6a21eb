/**
 * The stable codes of the errors the package raises, as Fastify's own errors carry `FST_ERR_...`: match on
 * `error.code`, never on the message. The docs list them (docs/errors.md).
 */
export type ApiVersioningErrorCode =
  /** A plugin option (of apiVersioning or errorObjects) is wrong. */
  | 'FST_API_VERSIONING_INVALID_OPTION'
  /** apiVersioning is registered a second time, or beside another "apiVersion" constraint. */
  | 'FST_API_VERSIONING_REGISTERED_TWICE'
  /** A route's apiVersions, deprecatedApiVersions or apiVersionNeutral, or a withApiVersions set, is wrong. */
  | 'FST_API_VERSIONING_INVALID_DECLARATION'
  /** Routes on one method and path conflict: a version twice, versioned and unversioned mixed, too many routes. */
  | 'FST_API_VERSIONING_ROUTE_CONFLICT'
  /** A route the plugin cannot version as declared: it sets constraints.apiVersion, has a RegExp host, or a schema's plain-name $ref it cannot find or $ref with a malformed % escape. */
  | 'FST_API_VERSIONING_UNSUPPORTED_ROUTE'
  /** A route declares versions outside the plugin's scope. */
  | 'FST_API_VERSIONING_OUTSIDE_SCOPE'
  /** A strict shared schema that a versioned route refers to was added after the route. */
  | 'FST_API_VERSIONING_LATE_SCHEMA'
  /** An option of the openapi entry is wrong. */
  | 'FST_API_VERSIONING_OPENAPI_OPTION'
  /** The openapi entry is registered before apiVersioning, after routes, or twice. */
  | 'FST_API_VERSIONING_OPENAPI_ORDER'
  /** Logged at start-up: versioned or neutral routes are out of the openapi entry's reach (in another plugin). */
  | 'FST_API_VERSIONING_OPENAPI_SCOPE'
  /** apiVersionDocuments() is called before the app is ready. */
  | 'FST_API_VERSIONING_NOT_READY'
  /** A package the openapi entry needs is not installed, or is too old. */
  | 'FST_API_VERSIONING_MISSING_PEER'
  /** `ApiVersion.parse` was given text that is no API version. */
  | 'FST_API_VERSIONING_INVALID_VERSION'
  /** A request's 500: `reply.problem()` was given what it cannot send. */
  | 'FST_API_VERSIONING_INVALID_PROBLEM'
  /** A request's 500: a problem writer threw, rejected or did not send. */
  | 'FST_API_VERSIONING_WRITER_FAILED'
  /** A request's 500: the `now` option threw or gave no time. */
  | 'FST_API_VERSIONING_CLOCK_FAILED'
  /** A request's 500: `versionReader.custom` threw or gave what is no version text. */
  | 'FST_API_VERSIONING_CUSTOM_READER_FAILED'
  /** Logged: a function `apiVersionSelector` threw or returned what is no version (the request is Unsupported). */
  | 'FST_API_VERSIONING_SELECTOR_FAILED'
  /** Logged: a version's document refers to a component or a place it does not have (a type provider's left out). */
  | 'FST_API_VERSIONING_OPENAPI_DANGLING_REF'
  /** A request's 500 (or a throw of apiVersionDocuments()): the openapi entry's transformObject threw, or gave a promise or no document. */
  | 'FST_API_VERSIONING_OPENAPI_TRANSFORM_FAILED'
  /** A request's 500: a version change could not convert it (a migration's result, a request that then fits no schema, a body with no data to convert). */
  | 'FST_API_VERSIONING_CONVERSION_FAILED'
  /** Thrown by `change.isAppliedTo(request)`: the request's app does not list the change in its versionChanges option (or it is given no request). */
  | 'FST_API_VERSIONING_CHANGE_NOT_LISTED'

/** `error`, carrying `code`. */
export function coded<E extends Error> (error: E, code: ApiVersioningErrorCode): E & { code: ApiVersioningErrorCode } {
  return Object.assign(error, { code })
}
