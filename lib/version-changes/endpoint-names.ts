import type { ChangeRules } from './version-change.js'

/** The versions of a list, newest first, as their endpoint instructions are read here. */
type Changes = ReadonlyArray<{ readonly changes: readonly ChangeRules[] }>

/**
 * The endpoint (`'POST /orders'`, the URL its route declares) that an instruction of the change of version `k`
 * (index in the list, 0 the newest) names by `name`. An endpoint a later change moves (`changed: { url }`) may be
 * named, in a change, by any URL it had from the version before the change on, as well as by the URL its route
 * declares: the same endpoint, whose routes at every URL it has had know it by the latter. A GET's move moves its
 * HEAD route too, unless the instruction lists HEAD itself.
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
      const moves = changes.flatMap(change => change.endpoints).filter(rule => rule.olderUrl !== null)
      if (moves.length > 0) {
        const here = new Map(later)
        for (const { methods, url, olderUrl } of moves) {
          for (const method of methods.includes('GET') && !methods.includes('HEAD') ? [...methods, 'HEAD'] : methods) here.set(`${method} ${olderUrl}`, later.get(`${method} ${url}`) ?? `${method} ${url}`)
        }
        later = here
      }
      found.push(later)
    }
    known.set(list, names = found)
  }
  return names
}
