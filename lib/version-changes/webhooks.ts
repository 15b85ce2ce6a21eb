import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import { messageOf } from '../util/server-error.js'

/** An event the service sends (an entry of the plugin's `webhooks` option): its payload as the newest version writes it. */
export interface WebhookOption {
  /** The payload's schema (TypeBox included); field and enum instructions on it give older versions theirs. */
  schema: object
  /** What the event says, for the documents. */
  description?: string
}

/** A webhook, checked. */
export interface Webhook {
  readonly name: string
  readonly schema: object
  readonly description: string | null
}

/** The webhooks by name, in the order given; none without the option. */
export type Webhooks = ReadonlyMap<string, Webhook>

function fail (message: string): never {
  throw coded(new TypeError(`fastify-api-versioning: webhooks${message}`), 'FST_API_VERSIONING_INVALID_OPTION')
}

/** Checks the `webhooks` plugin option. */
export function resolveWebhooks (value: unknown): Webhooks {
  const webhooks = new Map<string, Webhook>()
  if (value === undefined) return webhooks
  if (!isObject(value)) fail(` must be an object of { [name]: { schema, description? } } (got ${messageOf(value)})`)
  for (const [name, given] of Object.entries(value)) {
    const at = `[${JSON.stringify(name)}]`
    if (name === '') fail(' has a webhook without a name: name each event')
    if (!isObject(given)) fail(`${at} must be { schema, description? }`)
    for (const key of Object.keys(given)) if (key !== 'schema' && key !== 'description') fail(`${at} has an unknown option ${JSON.stringify(key)}; a webhook has schema and description`)
    if (!isObject(given.schema)) fail(`${at}.schema must be the payload's schema object (got ${messageOf(given.schema)})`)
    if (given.description !== undefined && typeof given.description !== 'string') fail(`${at}.description must be a text`)
    webhooks.set(name, Object.freeze({ name, schema: given.schema, description: given.description ?? null }))
  }
  return webhooks
}
