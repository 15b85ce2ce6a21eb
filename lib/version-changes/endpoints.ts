import { coded } from '../errors.js'
import type { VersionList } from './version-list.js'

/**
 * The versions of the list (by index, 0 the newest) in which the endpoint `method url` exists: all of them, but
 * where its endpoint instructions say otherwise. Read from the first version on: an endpoint `added` in a version
 * exists from it on, one `removed` only before it; it may come back. Throws for an instruction that says what is
 * so already (adding an endpoint that exists).
 */
export function versionsOfEndpoint (list: VersionList, method: string, url: string): boolean[] {
  const events: Array<{ index: number, kind: 'added' | 'removed', at: string }> = []
  list.forEach(({ changes }, index) => {
    for (const change of changes) {
      for (const rule of change.endpoints) {
        if ((rule.kind === 'added' || rule.kind === 'removed') && rule.url === url && rule.methods.includes(method)) events.push({ index, kind: rule.kind, at: rule.at })
      }
    }
  })
  const exists: boolean[] = new Array(list.length)
  // Before its first instruction, an endpoint is as that instruction did not make it.
  let state = events.length === 0 || events[events.length - 1].kind === 'removed'
  for (let index = list.length - 1; index >= 0; index--) {
    for (const event of events.filter(e => e.index === index)) {
      if ((event.kind === 'added') === state) {
        throw coded(new Error(`fastify-api-versioning: versionChanges: the change of ${list[index].text}, ${event.at}, says ${method} ${url} was ${event.kind}, but it ${state ? 'exists' : 'does not exist'} in the version before already`), 'FST_API_VERSIONING_INVALID_OPTION')
      }
      state = event.kind === 'added'
    }
    exists[index] = state
  }
  return exists
}
