import { coded } from '../errors.js'
import type { ChangeRules } from './version-change.js'
import type { VersionList } from './version-list.js'

/** What an instruction says of a thing a version may have or not (an endpoint, a webhook), where it says it. */
type Existence = { readonly kind: string, readonly at: string }

/**
 * The versions of the list (by index, 0 the newest) in which the endpoint `method url` exists: all of them, but
 * where its endpoint instructions say otherwise. Read from the first version on: an endpoint `added` in a version
 * exists from it on, one `removed` only before it; it may come back. Throws for an instruction that says what is
 * so already (adding an endpoint that exists). An endpoint that older versions served at another URL (`changed: {
 * url }`) exists at its URL from that change on, and at the older URL only before it.
 */
export function versionsOfEndpoint (list: VersionList, method: string, url: string): boolean[] {
  // An endpoint older versions served at another URL is there from the change on, and the older URL before it.
  return versionsOf(list, `${method} ${url}`, change => change.endpoints.flatMap(rule => {
    if (!rule.methods.includes(method)) return []
    if (rule.url === url) return rule.olderUrl === null ? [rule] : [{ kind: 'added', at: rule.at }]
    return rule.olderUrl === url ? [{ kind: 'removed', at: rule.at }] : []
  }))
}

/**
 * The versions of the list in which the webhook `name` exists, as versionsOfEndpoint reads an endpoint's: found once
 * a list and name, as every payload convertToApiVersion converts asks.
 */
export function versionsOfWebhook (list: VersionList, name: string): readonly boolean[] {
  let byName = webhookVersions.get(list)
  if (byName === undefined) webhookVersions.set(list, byName = new Map())
  let exists = byName.get(name)
  if (exists === undefined) byName.set(name, exists = versionsOf(list, `the webhook ${JSON.stringify(name)}`, change => change.webhooks.filter(rule => rule.name === name)))
  return exists
}

const webhookVersions = new WeakMap<VersionList, Map<string, readonly boolean[]>>()

function versionsOf (list: VersionList, label: string, rulesOf: (change: ChangeRules) => readonly Existence[]): boolean[] {
  const events: Array<{ index: number, kind: 'added' | 'removed', at: string }> = []
  list.forEach(({ changes }, index) => {
    for (const change of changes) {
      for (const rule of rulesOf(change)) if (rule.kind === 'added' || rule.kind === 'removed') events.push({ index, kind: rule.kind, at: rule.at })
    }
  })
  const exists: boolean[] = new Array(list.length)
  // Before its first instruction, a thing is as that instruction did not make it.
  let state = events.length === 0 || events[events.length - 1].kind === 'removed'
  for (let index = list.length - 1; index >= 0; index--) {
    for (const event of events.filter(e => e.index === index)) {
      if ((event.kind === 'added') === state) {
        throw coded(new Error(`fastify-api-versioning: versionChanges: the change of ${list[index].text}, ${event.at}, says ${label} was ${event.kind}, but it ${state ? 'exists' : 'does not exist'} in the version before already`), 'FST_API_VERSIONING_INVALID_OPTION')
      }
      state = event.kind === 'added'
    }
    exists[index] = state
  }
  return exists
}
