import { coded } from '../errors.js'
import { endpointName } from './endpoint-names.js'
import type { ChangeRules, EndpointRule } from './version-change.js'

// What a `changed` instruction may say of an endpoint's older versions, each of which one version says once.
const CHANGED = ['url', 'status', 'summary', 'description', 'tags', 'operationId'] as const

/**
 * Refuses the endpoint instructions of one version that contradict each other or say one thing twice (the last
 * would win, silently): an endpoint removed from a version on, which is then in no document, cannot be deprecated
 * or hidden from it on; and a version gives an endpoint one older URL, status or text of each kind. And an
 * instruction that says where an endpoint is (added, removed, moved) names a URL it had in its version, not one a
 * later version moved it to.
 */
export function checkEndpointClashes (list: ReadonlyArray<{ readonly text: string, readonly changes: readonly ChangeRules[] }>): void {
  // The URLs later versions moved endpoints to (`GET /orders`), with the version that did: not yet theirs here.
  const arrived = new Map<string, string>()
  list.forEach(({ text, changes }, k) => {
    const seen = new Map<string, Map<string, EndpointRule>>()
    const rules = changes.flatMap(change => change.endpoints)
    for (const rule of rules) {
      for (const method of rule.methods) {
        // Where an endpoint is, in its version: the URL it had then, which a later move makes another.
        const later = rule.kind === 'added' || rule.kind === 'removed' || rule.olderUrl !== null ? arrived.get(`${method} ${rule.url}`) : undefined
        if (later !== undefined) fail(text, rule, `says where ${method} ${rule.url} is in ${text}, but it is there only from ${later} on, which moves it there: an instruction that adds, removes or moves an endpoint names the URL it had in its version`)
        // By its name: an endpoint named as declared and by an older URL of its is one (see endpoint-names.ts).
        const endpoint = endpointName(list, k, `${method} ${rule.url}`)
        let said = seen.get(endpoint)
        if (said === undefined) seen.set(endpoint, said = new Map())
        for (const what of saysOf(rule)) {
          const earlier = said.get(what)
          if (earlier !== undefined) fail(text, rule, `says ${describe(what, endpoint)} again (${earlier.at} says it): a version says it once; give one instruction`)
          said.set(what, rule)
        }
        const removed = said.get('removed')
        const shown = said.get('deprecated') ?? said.get('hidden')
        if (removed !== undefined && shown !== undefined) {
          fail(text, rule === removed ? shown : rule, `says ${endpoint} is ${shown.kind} from ${text} on, but ${removed.at} removes it from ${text} on, where no document has it: give one of them`)
        }
      }
    }
    for (const { methods, url, olderUrl } of rules) {
      if (olderUrl !== null) for (const method of methods) arrived.set(`${method} ${url}`, text)
    }
  })
}

// What an instruction says of its endpoint: its kind, or for `changed`, each thing it says older versions had.
function saysOf (rule: EndpointRule): string[] {
  if (rule.kind !== 'changed') return [rule.kind]
  const given: Record<string, unknown> = { ...rule.docs, url: rule.olderUrl ?? undefined, status: rule.status ?? undefined }
  return CHANGED.filter(key => given[key] !== undefined)
}

function describe (what: string, endpoint: string): string {
  return (CHANGED as readonly string[]).includes(what) ? `the older ${what === 'url' ? 'URL' : what} of ${endpoint}` : `${endpoint} is ${what}`
}

function fail (version: string, rule: EndpointRule, message: string): never {
  throw coded(new TypeError(`fastify-api-versioning: versionChanges: the change of ${version}, ${rule.at}, ${message}`), 'FST_API_VERSIONING_INVALID_OPTION')
}
