import type { ChangeRules } from './version-change.js'

/** The versions of a list, newest first, as their endpoint instructions are read here. */
type Changes = ReadonlyArray<{ readonly changes: readonly ChangeRules[] }>

/**
 * The endpoint (`'POST /orders'`, the URL its route declares) that an instruction of the change of version `k`
 * (index in the list, 0 the newest) names by `name`. An endpoint a later change moves (`changed: { url }`) may be
 * named, in a change, by any URL it had from the version before the change on, as well as by the URL its route
 * declares: the same endpoint, whose routes at every URL it has had know it by the latter, but in the change that
 * gives the URL it left to another endpoint, where it is that one's. A GET's move moves its HEAD route too, unless
 * the instruction lists HEAD itself.
 */
export function endpointName (list: Changes, k: number, name: string): string {
  return namesOf(list)[k].get(name) ?? name
}

// By version index: the older names an instruction of that version's change may give, and the declared name of each.
const known = new WeakMap<Changes, ReadonlyArray<ReadonlyMap<string, string>>>()

function namesOf (list: Changes): ReadonlyArray<ReadonlyMap<string, string>> {
  let names = known.get(list)
  if (names === undefined) {
    const found: Array<ReadonlyMap<string, string>> = []
    // Newest first: the names of a version and the ones after it, with the moves of its own change.
    let later: ReadonlyMap<string, string> = new Map()
    for (const { changes } of list) {
      const rules = changes.flatMap(change => change.endpoints)
      const moves = rules.filter(rule => rule.olderUrl !== null)
      if (moves.length === 0) {
        found.push(later)
        continue
      }
      const here = new Map(later)
      for (const { methods, url, olderUrl } of moves) for (const method of withHead(methods)) here.set(`${method} ${olderUrl}`, later.get(`${method} ${url}`) ?? `${method} ${url}`)
      // A URL an endpoint moved off that the same change gives another (added there, or moved there) names that one
      // in this change: its URL in this version.
      const own = new Map(here)
      for (const { methods, url } of rules.filter(rule => rule.kind === 'added' || rule.olderUrl !== null)) {
        for (const method of withHead(methods)) {
          const name = `${method} ${url}`
          const newer = later.get(name)
          if (newer === undefined) own.delete(name)
          else own.set(name, newer)
        }
      }
      found.push(own)
      later = here
    }
    known.set(list, names = found)
  }
  return names
}

// A GET's name moves its HEAD route's, unless the instruction lists HEAD itself.
function withHead (methods: readonly string[]): readonly string[] {
  return methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : methods
}
