import { ApiVersion } from '../api-version.js'
import { isRetired, type VersionPolicy } from '../lifecycle/policies.js'
import type { ChangesContext } from './changes-context.js'
import { apiVersionChanges, compareVersions, type ApiVersionChanges } from './compare-versions.js'
import { anchored } from './anchored-refs.js'
import type { ApiVersionDocument, OpenApiDocument } from './document.js'

/**
 * What the release gate reads from an app, once it is ready. It compares with the comparison of
 * `apiVersionChanges()`: a saved document of a version and the current one are a pair, as two versions are.
 */
export interface ReleaseGate {
  /** The documents as served now, ascending: `apiVersionDocuments()`. */
  documents (): readonly ApiVersionDocument[]
  /**
   * What changed from a version's saved document to its current one, as `apiVersionChanges()` says it; throws
   * where it cannot tell (a schema too deep to compare).
   */
  compare (saved: ApiVersionDocument, current: ApiVersionDocument): ApiVersionChanges
  /** The date (ISO 8601) of the enforced sunset that retired a version by now, or null when none did. */
  retiredOn (version: string): string | null
}

/** What the entry gives the gate: its documents and changes context as served now, its policies and clock. */
interface ReleaseGateSource {
  readonly served: () => { readonly documents: readonly ApiVersionDocument[], readonly context: ChangesContext }
  readonly policies: ReadonlyMap<string, VersionPolicy>
  readonly now: () => number
}

/** The gate of the entry's documents as served now. */
export function releaseGate (source: ReleaseGateSource): ReleaseGate {
  return {
    documents: () => source.served().documents,
    compare (saved, current) {
      whole(saved.document, `the saved document of ${saved.version}`, 'save the version again (snapshot) once the app\'s document of it is whole')
      whole(current.document, `the app's document of ${current.version}`, 'add the components it names (with fastify-type-provider-zod, give its jsonSchemaTransformObject as the transformObject option)')
      return apiVersionChanges(compareVersions([saved, current], source.served().context, true))[0]
    },
    retiredOn (version) {
      const policy = source.policies.get(ApiVersion.parse(version).key)
      return isRetired(policy, source.now()) ? new Date((policy as VersionPolicy).sunsetAt as number).toISOString() : null
    }
  }
}

// A document whose refs name nothing proves nothing there: what they stood for is read as any value.
function whole (document: OpenApiDocument, which: string, fix: string): void {
  const { dangling } = anchored(document)
  if (dangling.length > 0) throw new Error(`${which} refers to ${dangling.slice(0, 3).join(', ')}${dangling.length > 3 ? ` and ${dangling.length - 3} more` : ''}, which it does not have, so what changed there cannot be told: ${fix}`)
}
