import { createRequire } from 'node:module'
import type { FastifyInstance } from 'fastify'
import { ApiVersion } from '../api-version.js'
import { coded } from '../errors.js'
import { peerRequire } from '../util/peer-require.js'
import { messageOf } from '../util/server-error.js'
import { isObject } from '../util/is-object.js'
import { conversionFrom, stepPlan, type Down, type ReplyState } from './conversion.js'
import type { VersionSchemas } from './version-parts.js'
import { deriveSchema } from './schemas.js'
import { clashMessage, unionClash } from './union-clash.js'
import type { SharedSchemas } from './shared-ref.js'
import type { VersionList } from './version-list.js'
import { stepsOf } from './version-steps.js'
import { versionsOfWebhook } from './endpoints.js'
import type { Webhook, Webhooks } from './webhooks.js'

/**
 * What `app.convertToApiVersion` takes: the value's schema (a schema object, TypeBox included, or the `$id` of a
 * shared schema), or the name of a webhook of the plugin's `webhooks` option (its payload's schema, in a version
 * that has it).
 */
export type ConvertToApiVersionOptions =
  | { schema: object | string, webhook?: never, value: unknown, version: string | ApiVersion }
  | { webhook: string, schema?: never, value: unknown, version: string | ApiVersion }

function fail (message: string): never {
  throw coded(new TypeError(`fastify-api-versioning: convertToApiVersion: ${message}`), 'FST_API_VERSIONING_INVALID_OPTION')
}

type Serialize = (value: unknown) => string
type Compiler = (route: { schema: unknown, method: string, url: string, httpStatus: string }) => Serialize

/** How one version shows values of one schema: its conversion, and its serializer (made at the first use). */
interface Shown {
  readonly down: Down | null
  readonly schema: unknown
  serialize: Serialize | null
}

/**
 * `app.convertToApiVersion` of one plugin instance: a copy of `value` (the newest version's shape) as `version`
 * shows it, exactly as a route would serve it with that schema: through what responses of that schema go through
 * (renames, fields the version lacks dropped, response migrations that name the schema or one it holds), then
 * written with the version's schema as the app's serializer writes a response (properties it does not declare
 * left out) and read back. For webhooks and events pinned to a client's version. The value is not changed. A
 * promise, as migrations may be async; what is wrong with the options (a version not in the list, a schema that is
 * none) rejects it, as what a migration throws, or a value the schema cannot write, does. What each schema and
 * version needs is planned once, at its first use.
 */
export function valueConverter (list: VersionList | null, shared: SharedSchemas, app: FastifyInstance, webhooks: Webhooks): (options: ConvertToApiVersionOptions) => Promise<unknown> {
  const plans = new WeakMap<object, Shown[]>()
  let compiler: Compiler | null = null

  function shownIn (schema: object, index: number, listed: VersionList): Shown {
    let shown = plans.get(schema)
    if (shown === undefined) {
      const listedSteps = stepsOf(listed)
      const clash = unionClash(schema, listedSteps.flatMap(step => step.rules), shared)
      if (clash !== null) fail(clashMessage(clash, listedSteps, 'this schema', 'a response migration by its schema'))
      const schemas: VersionSchemas[] = []
      let at: unknown = schema
      for (let k = 0; k < listed.length; k++) {
        schemas.push({ response: new Map([['default', at]]) })
        if (k < listed.length - 1) at = deriveSchema(at, listedSteps[k], shared)
      }
      const steps = stepPlan(listed, [], schemas, shared)
      const context = { versions: listed.map(entry => entry.text), newest: schemas[0], queryNames: [], responses: {} }
      shown = schemas.map((version, k) => ({ down: conversionFrom(steps, k, context).down, schema: version.response?.get('default'), serialize: null }))
      plans.set(schema, shown)
    }
    return shown[index]
  }

  // The app's serializer compiler where it set one, else Fastify's own (fast-json-stringify, with its shared schemas).
  // A shared schema itself (or an older version's copy of it) is given without its `$id`: fast-json-stringify's
  // compiler, given a schema of a shared schema's `$id`, finds that shared schema no more for any later schema.
  function serializerOf (shown: Shown): Serialize {
    if (shown.serialize === null) {
      compiler ??= (app as unknown as { serializerCompiler?: Compiler }).serializerCompiler ?? fastifysOwn(app)
      shown.serialize = compiler({ schema: withoutId(shown.schema), method: 'POST', url: '/convertToApiVersion', httpStatus: '200' })
    }
    return shown.serialize
  }

  return async function convert (options) {
    if (list === null) fail('needs the versionChanges option of the plugin')
    if (!isObject(options)) fail(`needs { schema or webhook, value, version } (got ${messageOf(options)})`)
    const { value, version } = options
    if ((options.schema === undefined) === (options.webhook === undefined)) fail('needs a schema or a webhook, one of them')
    const webhook = options.webhook === undefined ? null : webhookOf(options.webhook, webhooks)
    const given = webhook?.schema ?? options.schema
    const schema = typeof given === 'string' ? shared(given) : given
    if (!isObject(schema)) fail(`schema must be a schema object or the $id of a shared schema (got ${typeof given === 'string' ? `${JSON.stringify(given)}, which no shared schema has` : messageOf(given)})`)
    const wanted = version instanceof ApiVersion ? version : typeof version === 'string' ? ApiVersion.tryParse(version) : null
    const index = wanted === null ? -1 : list.findIndex(listed => listed.version.equals(wanted))
    if (index === -1) fail(`version ${messageOf(version)} is not in versionChanges (${list.map(listed => listed.text).join(', ')})`)
    if (webhook !== null && !versionsOfWebhook(list, webhook.name)[index]) fail(`the webhook ${JSON.stringify(webhook.name)} is not in version ${list[index].text}, whose receivers get no such event`)
    const shown = shownIn(schema, index, list)
    // The conversion changes copies only, and what is written is read back: a value of the caller's own.
    const converted = shown.down === null ? value : await shown.down(standIn(), value)
    return JSON.parse(serializerOf(shown)(converted))
  }
}

function webhookOf (name: unknown, webhooks: Webhooks): Webhook {
  const webhook = typeof name === 'string' ? webhooks.get(name) : undefined
  if (webhook === undefined) fail(`webhook ${messageOf(name)} is not one of the webhooks option (${[...webhooks.keys()].join(', ') || 'none is declared'})`)
  return webhook
}

function withoutId (schema: unknown): unknown {
  if (!isObject(schema) || schema.$id === undefined) return schema
  const { $id: _id, ...rest } = schema
  return rest
}

// Fastify's default serializer compiler, as Fastify builds it from its own dependency and the app's shared schemas.
function fastifysOwn (app: FastifyInstance): Compiler {
  const fromFastify = createRequire(peerRequire.resolve('fastify'))
  const SerializerSelector = fromFastify('@fastify/fast-json-stringify-compiler') as () => (schemas: unknown, options?: unknown) => Compiler
  return SerializerSelector()(app.getSchemas())
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
