import type { MediaTypeConfig } from '../request/media-type.js'
import type { ApiVersion } from '../api-version.js'
import type { DeclaredRenames } from './renames.js'

/** What the documents write differently for each version by design, and so is no change. */
export interface ChangesContext {
  /** The version parameters, as `query api-version` and `header api-version` (lower-case). */
  readonly versionParameters: ReadonlySet<string>
  /**
   * The version headers the plugin reports on responses (lower-case), which each document writes for its own
   * version: a version retired elsewhere changes what they say (or whether one is written), not the operation.
   */
  readonly versionHeaders: ReadonlySet<string>
  readonly mediaType: MediaTypeConfig | null
  /** The documented paths with the version in them, as `/api/v{apiVersion}/orders`. */
  readonly templates: readonly string[]
  readonly segmentName: string | null
  /** What the `versionChanges` option says each version renamed: one change, not a property removed and one added. */
  readonly renames: readonly DeclaredRenames[]
  /**
   * The operations the `versionChanges` option hides from a version on (by their key, see compareVersions): served,
   * so gone from a document without being removed.
   */
  readonly hidden: ReadonlyArray<{ readonly version: ApiVersion, readonly key: string }>
}
