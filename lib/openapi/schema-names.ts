import type { ApiVersion } from '../api-version.js'
import type { OpenApiDocument } from '../changes/document.js'
import { coded } from '../errors.js'
import type { VersionList } from '../version-changes/version-list.js'

const SCHEMA_REF = '#/components/schemas/'
// The keywords whose values are data.
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const'])

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
 * its `$id`). A name another component of the document has is a start-up error, naming the instruction.
 */
export function renameSchemas (document: OpenApiDocument, names: ReadonlyMap<string, SchemaName>, version: string): void {
  if (names.size === 0) return
  const schemas = document.components?.schemas as Record<string, unknown> | undefined
  if (schemas !== undefined) {
    const renamed: Record<string, unknown> = {}
    // Each name, with the component that has it.
    const owners = new Map<string, string>()
    for (const [key, schema] of Object.entries(schemas)) {
      const name = names.get(key)?.name ?? key
      const owner = owners.get(name)
      if (owner !== undefined) {
        const { at } = names.get(key) ?? names.get(owner) as SchemaName
        throw coded(new Error(`fastify-api-versioning: versionChanges: ${at}, names a schema '${name}' in the document of ${version}, where another schema has that name; give it another`), 'FST_API_VERSIONING_INVALID_OPTION')
      }
      owners.set(name, key)
      renamed[name] = schema
    }
    ;(document.components as { schemas: Record<string, unknown> }).schemas = renamed
  }
  const stack: object[] = [document]
  while (stack.length > 0) {
    const object = stack.pop() as Record<string, unknown>
    if (typeof object.$ref === 'string' && object.$ref.startsWith(SCHEMA_REF)) object.$ref = renamedRef(object.$ref, names)
    if (typeof object.title === 'string' && names.has(object.title) && (object.type !== undefined || object.properties !== undefined)) object.title = (names.get(object.title) as SchemaName).name
    // Examples and values are data: a `title` there is no schema's.
    for (const [key, value] of Object.entries(object)) if (typeof value === 'object' && value !== null && !DATA.has(key)) stack.push(value)
  }
}

function renamedRef (ref: string, names: ReadonlyMap<string, SchemaName>): string {
  const rest = ref.slice(SCHEMA_REF.length)
  const end = rest.indexOf('/')
  const key = end === -1 ? rest : rest.slice(0, end)
  const name = names.get(key)?.name
  return name === undefined ? ref : SCHEMA_REF + name + (end === -1 ? '' : rest.slice(end))
}
