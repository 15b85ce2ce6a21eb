import { coded } from '../errors.js'
import type { ChangeRules, EndpointRule } from './version-change.js'
import type { VersionList } from './version-list.js'

/** What an instruction says of a thing a version may have or not (an endpoint, a webhook), where it says it. */
interface Existence {
  readonly index: number
  readonly kind: string
  readonly at: string
}

/**
 * The versions of the list (by index, 0 the newest) in which the endpoint `method url` exists: all of them, but
 * where its endpoint instructions say otherwise. Read from the first version on: an endpoint `added` in a version
 * exists from it on, one `removed` only before it; it may come back. Throws for an instruction that says what is
 * so already (adding an endpoint that exists). An endpoint that older versions served at another URL (`changed: {
 * url }`) exists at its URL from that change on, and at the older URL only before it (`since`: the index of that
 * change, for the route of the older URL; -1 for the route declared at `url`). A URL an endpoint moved off may be
 * another endpoint's in the versions after: what is said of it there, and before, in versions where yet another
 * endpoint had it, is not this endpoint's.
 */
export function versionsOfEndpoint (list: VersionList, method: string, url: string, since = -1): boolean[] {
  const rules = endpointRulesOf(list).filter(({ rule }) => rule.methods.includes(method))
  // Its instructions at the URL are those of the versions after `since` up to the one where an older endpoint left it
  // (the newest such move: the rules are newest first).
  const left = rules.find(({ index, rule }) => rule.olderUrl === url && index > since)
  const until = left === undefined ? list.length : left.index
  const events: Existence[] = []
  for (const { index, rule } of rules) {
    if (index === since && rule.olderUrl === url) events.push({ index, kind: 'removed', at: rule.at })
    else if (index > since && index <= until && rule.url === url) events.push(rule.olderUrl === null ? { index, kind: rule.kind, at: rule.at } : { index, kind: 'added', at: rule.at })
  }
  const exists = existence(list, `${method} ${url}`, events)
  // Where the older endpoint was, this one is not: the route serving that one there would clash with its own.
  if (left !== undefined && exists[until + 1] === true) {
    throw coded(new Error(`fastify-api-versioning: versionChanges: the change of ${list[until].text}, ${left.rule.at}, moved ${method} ${left.rule.url} off ${url}, where older versions served it; ${method} ${url} is another endpoint, which cannot be in those versions too: say in which version it was added (endpoints: [{ method: '${method}', url: '${url}', added: true }]), or declare it at another URL`), 'FST_API_VERSIONING_INVALID_OPTION')
  }
  return exists
}

/** An endpoint instruction of the list, with the index of the version whose change gives it. */
export interface ListedEndpointRule {
  readonly index: number
  readonly rule: EndpointRule
}

/**
 * The endpoint instructions of the list, newest version first: found once a list, as a thousand routes each ask
 * what the instructions say of them, where reading every change of a hundred versions a route would cost more.
 */
export function endpointRulesOf (list: VersionList): readonly ListedEndpointRule[] {
  let rules = endpointRules.get(list)
  if (rules === undefined) endpointRules.set(list, rules = list.flatMap(({ changes }, index) => changes.flatMap(change => change.endpoints.map(rule => ({ index, rule })))))
  return rules
}

const endpointRules = new WeakMap<VersionList, readonly ListedEndpointRule[]>()

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

function versionsOf (list: VersionList, label: string, rulesOf: (change: ChangeRules) => ReadonlyArray<Pick<Existence, 'kind' | 'at'>>): boolean[] {
  return existence(list, label, list.flatMap(({ changes }, index) => changes.flatMap(change => rulesOf(change).map(({ kind, at }) => ({ index, kind, at })))))
}

// Whether a thing exists in each version of the list, from its instructions (`given`, newest version first).
function existence (list: VersionList, label: string, given: readonly Existence[]): boolean[] {
  const events = given.filter(event => event.kind === 'added' || event.kind === 'removed')
  const exists: boolean[] = new Array(list.length)
  if (events.length === 0) return exists.fill(true)
  // Before its first instruction, a thing is as that instruction did not make it.
  let state = events[events.length - 1].kind === 'removed'
  // The events of one version, in the order its change gives them, from the oldest version on.
  let end = events.length
  for (let index = list.length - 1; index >= 0; index--) {
    let start = end
    while (start > 0 && events[start - 1].index === index) start--
    for (let e = start; e < end; e++) {
      const event = events[e]
      if ((event.kind === 'added') === state) {
        throw coded(new Error(`fastify-api-versioning: versionChanges: the change of ${list[index].text}, ${event.at}, says ${label} was ${event.kind}, but it ${state ? 'exists' : 'does not exist'} in the version before already`), 'FST_API_VERSIONING_INVALID_OPTION')
      }
      state = event.kind === 'added'
    }
    end = start
    exists[index] = state
  }
  return exists
}
