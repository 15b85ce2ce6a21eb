import type { onSendHookHandler } from 'fastify'
import { ApiVersion } from '../api-version.js'
import { appendLink, formatDeprecation, formatLink } from '../util/policy-values.js'
import { endpointName } from './endpoint-names.js'
import type { VersionList } from './version-list.js'

/** The headers a deprecated endpoint's response sends: `Deprecation` and its `Link`, each null where not given. */
interface Sent {
  readonly deprecation: string | null
  readonly link: string | null
}

/**
 * The `onSend` hook of a route (`methods` upper case, `url` as declared) whose endpoint the `versionChanges` option
 * deprecates with a date or a link (`deprecated: { date?, link? }`): a response to the change's version or a later
 * one sends them as a version's deprecation policy does (the `Deprecation` header unless the route set one, the link
 * added to `Link`), of the closest such change at or before the version; null where no method of the route has one.
 * A HEAD route answers as its GET route, unless an instruction names HEAD.
 */
export function endpointDeprecation (list: VersionList, methods: readonly string[], url: string): onSendHookHandler | null {
  const index = indexOf(list)
  if (index.size === 0) return null
  // By method, then by the key of each version that sends them.
  const byMethod = new Map<string, ReadonlyMap<string, Sent>>()
  for (const method of methods) {
    const byVersion = index.get(`${method} ${url}`) ?? (method === 'HEAD' ? index.get(`GET ${url}`) : undefined)
    if (byVersion !== undefined) byMethod.set(method, byVersion)
  }
  if (byMethod.size === 0) return null
  return function apiVersionEndpointDeprecation (request, reply, payload, done) {
    const version: unknown = request.apiVersion
    const sent = version instanceof ApiVersion ? byMethod.get(request.method)?.get(version.key) : undefined
    if (sent !== undefined) {
      if (sent.deprecation !== null && !reply.hasHeader('deprecation')) reply.header('deprecation', sent.deprecation)
      if (sent.link !== null) reply.header('link', appendLink(reply.getHeader('link'), sent.link))
    }
    done(null, payload)
  }
}

// What each endpoint (`DELETE /orders/:id`, by its name, see endpoint-names.ts) sends in each version (by key) from
// its deprecation on, of the closest change at or before the version that says: found once a list, as a thousand
// routes ask.
const indexes = new WeakMap<VersionList, ReadonlyMap<string, ReadonlyMap<string, Sent>>>()

function indexOf (list: VersionList): ReadonlyMap<string, ReadonlyMap<string, Sent>> {
  let index = indexes.get(list)
  if (index !== undefined) return index
  const found = new Map<string, Map<string, Sent>>()
  const last = new Map<string, Sent>()
  // Oldest first: each endpoint's latest deprecation so far holds for the version and the ones after it.
  for (let k = list.length - 1; k >= 0; k--) {
    for (const rule of list[k].changes.flatMap(change => change.endpoints)) {
      if (rule.deprecation === null) continue
      const { date, link } = rule.deprecation
      for (const method of rule.methods) last.set(endpointName(list, k, `${method} ${rule.url}`), { deprecation: date === null ? null : formatDeprecation(date.getTime()), link: link === null ? null : formatLink(link) })
    }
    for (const [key, sent] of last) {
      let byVersion = found.get(key)
      if (byVersion === undefined) found.set(key, byVersion = new Map())
      byVersion.set(list[k].version.key, sent)
    }
  }
  indexes.set(list, index = found)
  return index
}
