import type { Step } from './conversion.js'
import type { Needs } from './migration-needs.js'

/** Where a route's schema of one version holds a rule's schema: its request parts, and its response statuses. */
export interface Holding {
  readonly parts: readonly string[]
  readonly statuses: readonly string[]
}

/**
 * The migrations a step of a route lacks for what a field or enum rule needs (see noteNeeds, enumNeeds), where the route holds its
 * schemas: a route migration of the step, or one by a schema that is or holds the rule's, in that part or status
 * (an error status needs one with `errors: true`). Each missing one as a sentence, naming the rule and the fix.
 */
export function missingMigrations (need: Needs, holding: Holding, step: Step, covers: (schema: unknown) => boolean): string[] {
  const missing: string[] = []
  if (need.request !== null) {
    for (const part of holding.parts) {
      // No request step: the step has no migration for the route's requests (an enum rule converts nothing itself).
      const covered = step.request !== null && step.request.migrations.some(({ rule: migration, locates }) => locates === null || (locates.some(([at]) => at === part) && covers(migration.schema)))
      if (!covered) missing.push(`${need.request}, so a request of the version before needs a request migration (by this route, or by the schema in its ${part}) to convert it`)
    }
  }
  if (need.response !== null) {
    for (const status of holding.statuses) {
      const error = /^[45]/.test(status)
      const covered = step.response?.migrations.some(({ rule: migration, route, byStatus }) => (!error || migration.errors) && (route || (byStatus.has(status) && covers(migration.schema)))) ?? false
      if (!covered) missing.push(`${need.response}, so its response ${status} needs a response migration (by this route, or by the schema${error ? ', with errors: true' : ''}) to convert it for the version before`)
    }
  }
  return missing
}
