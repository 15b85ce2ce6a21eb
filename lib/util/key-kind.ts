import { DATA_KEYWORDS } from './data-keywords.js'
import { SCHEMA_MAPS } from './schema-maps.js'
import { WEBHOOKS_EXTENSION } from './webhooks-extension.js'

/**
 * What a key of an object holds, for a walk of schemas or documents: `data` (an example, a default, an enum: values,
 * whose `$ref`s and `definitions` are no schema's), `map` (a map by name: properties, `$defs`, a document's responses,
 * whose values are schemas or responses whatever their names), or `node`. `inMap` is whether the object is such a map:
 * there a key is a name (a property or a response called `default`), never a keyword.
 */
export function keyKind (key: string, inMap: boolean): 'data' | 'map' | 'node' {
  if (inMap) return 'node'
  if (DATA_KEYWORDS.has(key)) return 'data'
  return MAPS.has(key) ? 'map' : 'node'
}

/** What a key of `container` holds (see keyKind): an array's items are nodes. */
export function kindIn (container: object, key: string, inMap: boolean): 'data' | 'map' | 'node' {
  return Array.isArray(container) ? 'node' : keyKind(key, inMap)
}

// Besides the schemas' maps, a route's (its responses by status) and a document's: a status (`default`), a component,
// a webhook, a header or a link may be named as a keyword of data is. (A route schema's `headers` is a schema, read
// as a part, never by this key.)
const MAPS: ReadonlySet<string> = new Set([...SCHEMA_MAPS, 'response', 'responses', 'schemas', 'parameters', 'requestBodies', 'pathItems', 'callbacks', 'webhooks', WEBHOOKS_EXTENSION, 'headers', 'encoding', 'links'])
