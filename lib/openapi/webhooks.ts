import type { ApiVersion } from '../api-version.js'
import type { OpenApiDocument } from '../changes/document.js'
import type { ResolvedOptions } from '../options.js'
import { versionsOfWebhook } from '../version-changes/endpoints.js'
import { deriveSchema } from '../version-changes/schemas.js'
import type { SharedSchemas } from '../version-changes/shared-ref.js'
import { stepsOf } from '../version-changes/version-steps.js'
import { markSharedCopies } from '../version-changes/shared-copies.js'
import { SCHEMA_REF } from './component-ref.js'
import { DATA_KEYWORDS } from '../util/data-keywords.js'
import { SCHEMA_MAPS } from '../util/schema-maps.js'
import { isObject } from '../util/is-object.js'
import { pointerToken } from '../util/json-pointer.js'
import { WEBHOOKS_EXTENSION } from '../util/webhooks-extension.js'

/**
 * The webhooks of the plugin's `webhooks` option in a version's document: each one the version has (see
 * versionsOfWebhook; every one without the `versionChanges` option) as a `post` operation whose request body is its
 * payload as that version writes it (the field and enum instructions of the versions after it applied), under
 * `webhooks` in an OpenAPI 3.1 document; an OpenAPI 3.0 document, which has no `webhooks`, holds them as
 * `x-webhooks` (Redoc's extension), where the release gate and the changes between versions read them too, and says
 * so in its description. A version the `versionChanges` option does not list has none: its payloads are no version's.
 */
export function documentWebhooks (document: OpenApiDocument, version: ApiVersion, options: ResolvedOptions, shared: SharedSchemas): void {
  const { webhooks, versionList: list } = options
  if (webhooks.size === 0) return
  const key = document.openapi.startsWith('3.1') ? 'webhooks' : WEBHOOKS_EXTENSION
  if (key === WEBHOOKS_EXTENSION) {
    const note = `The service also sends webhooks (${[...webhooks.keys()].join(', ')}), which an OpenAPI ${document.openapi} document has no place for: they are under x-webhooks here, and under webhooks in its OpenAPI 3.1 documents.`
    document.info.description = document.info.description === undefined ? note : `${document.info.description}\n\n${note}`
  }
  const index = list === null ? 0 : list.findIndex(listed => listed.version.equals(version))
  if (index === -1) return
  const documented: Record<string, unknown> = {}
  const steps = list === null ? [] : stepsOf(list).slice(0, index)
  for (const webhook of webhooks.values()) {
    if (list !== null && !versionsOfWebhook(list, webhook.name)[index]) continue
    let schema: unknown = webhook.schema
    for (const step of steps) schema = deriveSchema(schema, step, shared)
    documented[webhook.name] = {
      post: {
        ...webhook.description === null ? {} : { description: webhook.description },
        requestBody: { required: true, content: { 'application/json': { schema: asDocumented(markSharedCopies(schema, shared), `#/${key}/${pointerToken(webhook.name)}/post/requestBody/content/application~1json/schema`) } } },
        responses: { '2XX': { description: 'The receiver took the event.' } }
      }
    }
  }
  if (Object.keys(documented).length > 0) document[key] = documented
}

// A schema as a document holds it at `base` (a pointer into the document): plain JSON (TypeBox's symbols left out),
// without `$id`, each `$ref` to a shared schema (`Customer#`, `Customer#/properties/id`) one to its component, as
// @fastify/swagger writes them, and each local one (`#/properties/id`) under `base`.
function asDocumented (schema: unknown, base: string): unknown {
  return documented(JSON.parse(JSON.stringify(schema)), base)
}

// Where `$id` and `$ref` are keywords: not in data (an example's `$id`), nor as the names of a map of schemas (a
// property called `$id`), whose values are schemas all the same.
function documented (node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map(item => documented(item, base))
  if (!isObject(node)) return node
  const entries: Array<[string, unknown]> = []
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id') continue
    if (key === '$ref' && typeof value === 'string') entries.push([key, documentedRef(value, base)])
    else if (DATA_KEYWORDS.has(key)) entries.push([key, value])
    else if (SCHEMA_MAPS.has(key) && isObject(value)) entries.push([key, Object.fromEntries(Object.entries(value).map(([name, child]) => [name, documented(child, base)]))])
    else entries.push([key, documented(value, base)])
  }
  // From entries: a key `__proto__` stays a property.
  return Object.fromEntries(entries)
}

function documentedRef (ref: string, base: string): string {
  if (ref.startsWith('#')) return base + ref.slice(1)
  const hash = ref.indexOf('#')
  return hash === -1 ? SCHEMA_REF + ref : SCHEMA_REF + ref.slice(0, hash) + ref.slice(hash + 1)
}
