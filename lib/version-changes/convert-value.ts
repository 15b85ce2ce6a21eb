import { ApiVersion } from '../api-version.js'
import { coded } from '../errors.js'
import { messageOf } from '../problems/server-error.js'
import { isObject } from '../util/is-object.js'
import { conversionFrom, planSteps, type ReplyState, type VersionSchemas } from './conversion.js'
import { deriveSchema } from './schemas.js'
import type { SharedSchemas } from './shared-ref.js'
import type { VersionList } from './version-list.js'

/** What `app.convertToApiVersion` takes. */
export interface ConvertToApiVersionOptions {
  /** The value's schema: a schema object (TypeBox included), or the `$id` of a shared schema. */
  schema: object | string
  /** A value of the newest version's shape. */
  value: unknown
  /** A version of the `versionChanges` list. */
  version: string | ApiVersion
}

function fail (message: string): never {
  throw coded(new TypeError(`fastify-api-versioning: convertToApiVersion: ${message}`), 'FST_API_VERSIONING_INVALID_OPTION')
}

/**
 * A copy of `value` (the newest version's shape) as `version` shows it, through what responses of that schema go
 * through (renames, fields the version lacks dropped, response migrations that name the schema or one it holds):
 * for webhooks and events pinned to a client's version. The value is not changed. A promise, as migrations may be
 * async; what is wrong with the options (a version not in the list, a schema that is none) rejects it, as what a
 * migration throws does.
 */
export async function convertToApiVersion (list: VersionList | null, shared: SharedSchemas, options: ConvertToApiVersionOptions): Promise<unknown> {
  if (list === null) fail('needs the versionChanges option of the plugin')
  if (!isObject(options)) fail(`needs { schema, value, version } (got ${messageOf(options)})`)
  const { schema: given, value, version } = options
  const schema = typeof given === 'string' ? shared(given) : given
  if (!isObject(schema)) fail(`schema must be a schema object or the $id of a shared schema (got ${typeof given === 'string' ? `${JSON.stringify(given)}, which no shared schema has` : messageOf(given)})`)
  const wanted = version instanceof ApiVersion ? version : typeof version === 'string' ? ApiVersion.tryParse(version) : null
  const index = wanted === null ? -1 : list.findIndex(listed => listed.version.equals(wanted))
  if (index === -1) fail(`version ${messageOf(version)} is not in versionChanges (${list.map(listed => listed.text).join(', ')})`)
  const schemas: VersionSchemas[] = []
  let at: unknown = schema
  for (let k = 0; k <= index; k++) {
    schemas.push({ response: { default: at } })
    if (k < index) at = deriveSchema(at, { version: list[k].text, rules: list[k].changes.flatMap(change => change.fields) }, shared)
  }
  const convert = conversionFrom(planSteps(list, [], schemas, shared), index, { versions: list.map(listed => listed.text), newest: schemas[0], queryNames: [], responses: {} }).down
  // A copy whatever happens, so that the caller may change it.
  const copy = structuredClone(value)
  return convert === null ? copy : await convert(standIn(), copy)
}

// What the response migrations read of a reply: a 200 without headers.
function standIn (): ReplyState {
  const headers: Record<string, unknown> = {}
  const reply = {
    statusCode: 200,
    getHeaders: () => ({ ...headers }),
    code (status: number) { reply.statusCode = status; return reply },
    header (name: string, value: unknown) { headers[name] = value; return reply },
    removeHeader (name: string) { delete headers[name]; return reply }
  }
  return reply as unknown as ReplyState
}
