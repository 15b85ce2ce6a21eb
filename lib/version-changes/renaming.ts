import type { Site } from './locate.js'
import type { FieldRule } from './version-change.js'

/**
 * Makes each site's object anew with its properties named as `name` says (a property's new name, or null to drop
 * it), and puts it in its places: inner sites first, so that an outer one is made with them in it; a renamed
 * property wins over one of its new name beside it, whatever their order. Sites that are
 * no plain object (an array, a text where the data does not fit its schema) are left as they are. A new object,
 * not `delete` on the old one: V8 keeps an object whose properties are deleted as a dictionary, slow to serialize.
 */
export function rebuild (sites: ReadonlyArray<Site<FieldRule>>, name: (tasks: readonly FieldRule[], key: string) => string | null): void {
  for (let i = sites.length - 1; i >= 0; i--) {
    const { value, tasks, places } = sites[i]
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue
    const made: Record<string, unknown> = {}
    // A renamed field wins over a property of its name the value has beside it, whatever their order.
    const renames: Array<[string, string]> = []
    for (const key of Object.keys(value)) {
      const renamed = name(tasks, key)
      if (renamed === key) put(made, key, (value as Record<string, unknown>)[key])
      else if (renamed !== null) renames.push([renamed, key])
    }
    for (const [renamed, key] of renames) put(made, renamed, (value as Record<string, unknown>)[key])
    for (const [holder, key] of places) holder[key] = made
  }
}

/**
 * A request's names, a step up (from the client's version to the next): a field the step renamed takes its newer
 * name; the newer name itself, and a field the step added, are fields the client's version does not have, so a
 * client that sends one has it dropped (the older name wins where both are sent, whatever their order).
 */
export function upName (tasks: readonly FieldRule[], key: string): string | null {
  let kept: string | null = key
  for (const rule of tasks) {
    if (rule.kind === 'renamed' && rule.renamedFrom === key) return rule.field
    if ((rule.kind === 'renamed' || rule.kind === 'added') && rule.field === key) kept = null
  }
  return kept
}

/** A request's names after a step's migrations: the fields the newer version no longer has are dropped. */
export function removedName (tasks: readonly FieldRule[], key: string): string | null {
  for (const rule of tasks) if (rule.field === key) return null
  return key
}

/** A response's names, a step down: a field the step added is dropped, a renamed one takes its older name. */
export function downName (tasks: readonly FieldRule[], key: string): string | null {
  for (const rule of tasks) {
    if (rule.field === key) return rule.kind === 'added' ? null : rule.renamedFrom as string
  }
  return key
}

/** Sets a property as data: an own `__proto__` key (JSON.parse makes them) never becomes the object's prototype. */
export function put (object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  else object[key] = value
}
