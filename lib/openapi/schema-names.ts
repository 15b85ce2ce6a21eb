import type { ApiVersion } from '../api-version.js'
import type { OpenApiDocument } from '../changes/document.js'
import { coded } from '../errors.js'
import type { VersionList } from '../version-changes/version-list.js'
import { withMappedRefs } from '../util/discriminator-mapping.js'
import { kindIn } from '../util/key-kind.js'
import { componentOf, SCHEMA_REF } from './component-ref.js'

/** A shared schema's name in one version's document, and the instruction that gives it, as errors name it. */
interface SchemaName { readonly name: string, readonly at: string }

/**
 * The names the `versionChanges` option gives shared schemas in a version's document, by `$id`: the name of the
 * closest change after the version that renamed it (`schemas: [{ schema, renamedFrom }]`); none for a schema
 * no change after it renamed.
 */
export function schemaNamesAt (list: VersionList | null, version: ApiVersion): Map<string, SchemaName> {
  const names = new Map<string, SchemaName>()
  // Newest first: an older change's name wins for the versions before it.
  for (const { version: changed, text, changes } of list ?? []) {
    if (changed.compareTo(version) <= 0) break
    for (const change of changes) for (const rule of change.schemas) names.set(rule.id, { name: rule.renamedFrom, at: `the change of ${text}, ${rule.at}` })
  }
  return names
}

/**
 * A version's document with its shared schemas named as that version named them: each component renamed, each
 * reference to it (`#/components/schemas/Order`, and pointers into it), and the title of a copy of it (an older
 * version's shape of a schema a change changed, which the document holds in place of the reference, titled by
 * its `$id`). No two have one name: see checkSchemaNames.
 */
export function renameSchemas (document: OpenApiDocument, names: ReadonlyMap<string, SchemaName>): void {
  if (names.size === 0) return
  // The document's components, as versionDocument made them.
  const components = document.components as { schemas: Record<string, unknown> }
  const renamed: Record<string, unknown> = {}
  for (const [key, schema] of Object.entries(components.schemas)) renamed[names.get(key)?.name ?? key] = schema
  components.schemas = renamed
  // Each object of the document, and what it is: in data (an example, a default), where a `title` is no schema's, and
  // references in it are renamed all the same; a map by name; or a node.
  const stack: Array<[Record<string, unknown>, 'data' | 'map' | 'node']> = [[document as unknown as Record<string, unknown>, 'node']]
  while (stack.length > 0) {
    const [object, kind] = stack.pop() as [Record<string, unknown>, 'data' | 'map' | 'node']
    if (typeof object.$ref === 'string') object.$ref = renamedRef(object.$ref, names)
    if (kind === 'node' && typeof object.title === 'string' && names.has(object.title) && (object.type !== undefined || object.properties !== undefined)) object.title = (names.get(object.title) as SchemaName).name
    // A discriminator maps values to schemas by reference.
    if (kind === 'node' && object.discriminator !== undefined) object.discriminator = withMappedRefs(object.discriminator, ref => renamedRef(ref, names))
    for (const [key, value] of Object.entries(object)) {
      if (typeof value === 'object' && value !== null) stack.push([value as Record<string, unknown>, kind === 'data' ? 'data' : kindIn(object, key, kind === 'map')])
    }
  }
}

// A reference to a component (or into it) under the component's name in the version; any other as it is.
function renamedRef (ref: string, names: ReadonlyMap<string, SchemaName>): string {
  const key = componentOf(ref)
  const name = key === null ? undefined : names.get(key)?.name
  return name === undefined ? ref : SCHEMA_REF + name + ref.slice(SCHEMA_REF.length + (key as string).length)
}

/**
 * At start-up, once the documents' schemas are known (`components`: the names the combined document and the
 * plugin's error schemas have): each schema an instruction names is one of them, and no version's document would
 * give two schemas one name. Throws, naming the instruction and the fix.
 */
export function checkSchemaNames (list: VersionList | null, components: ReadonlySet<string>): void {
  for (const { text, changes } of list ?? []) {
    for (const rule of changes.flatMap(change => change.schemas)) {
      if (!components.has(rule.id)) {
        throw coded(new Error(`fastify-api-versioning: versionChanges: the change of ${text}, ${rule.at}, names the schema '${rule.id}', which no document has (their schemas: ${[...components].join(', ')}); name a schema added with app.addSchema where the openapi entry is registered, by its $id`), 'FST_API_VERSIONING_INVALID_OPTION')
      }
    }
  }
  // Each listed version's document names schemas as the changes after it say (a version between two listed ones as
  // the older of them).
  for (const { version, text } of list ?? []) {
    const names = schemaNamesAt(list, version)
    const taken = new Map<string, string>()
    for (const [id, { name, at }] of names) {
      const other = taken.get(name) ?? (components.has(name) && !names.has(name) ? name : undefined)
      if (other !== undefined) {
        throw coded(new Error(`fastify-api-versioning: versionChanges: ${at}, names the schema '${id}' '${name}' in the document of ${text}, where the schema '${other}' has that name; give it a name of its own`), 'FST_API_VERSIONING_INVALID_OPTION')
      }
      taken.set(name, id)
    }
  }
}
