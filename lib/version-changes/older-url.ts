import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify'
import { coded } from '../errors.js'
import { messageOf } from '../util/server-error.js'
import type { DeclaredRoute } from '../routing/hidden-route.js'
import { prepend } from '../routing/hook-lists.js'
import { endpointUrlOf, kEndpointUrl, kMovedOffAt, movedOffAt } from '../routing/endpoint-url.js'
import { kOlderUrlParams, type ParamRenames } from '../routing/older-url-params.js'
import { endpointRulesOf } from './endpoints.js'
import type { VersionList } from './version-list.js'

// A path parameter of a URL as declared (`:id`, `:id(\\d+)`), its name captured.
const PARAMETER = /:([A-Za-z0-9_]+)/g

function fail (route: string, version: string, at: string, message: string): never {
  throw coded(new Error(`fastify-api-versioning: route ${route}: the change of ${version}, ${at}, says older versions served it at ${message}`), 'FST_API_VERSIONING_INVALID_DECLARATION')
}

/**
 * Declares a route of an older URL (see olderUrlRoutes) on `instance`: what refuses it (a route already there for its
 * versions) names the instruction that made it, with the error's own code.
 */
export function declareOlderUrl (instance: FastifyInstance, { options, says }: OlderUrlRoute): void {
  try {
    instance.route(options)
  } catch (error) {
    const message = messageOf(error).replace(/^fastify-api-versioning: /, '')
    throw Object.assign(new Error(`fastify-api-versioning: ${says}, where it cannot be declared: ${message}`, { cause: error }), { code: (error as { code?: unknown }).code })
  }
}

/** A route of an older URL, and what says so (`route GET /orders: the change of 2.0, endpoints[0], says ...`). */
export interface OlderUrlRoute {
  readonly options: RouteOptions
  readonly says: string
}

/**
 * The routes that serve a `versionChanges` route's endpoint at the URLs older versions had (`changed: { url }` of
 * an endpoint instruction naming it, one per method of `methods` (upper case) and change): the route's own options
 * at the older URL, its path parameters under their older names (by name where the older URL has the route's
 * names, else by position), which an `onRequest` hook, first of the route's, renames to the route's (its documents
 * show the older names, see kOlderUrlParams). Each is a
 * `versionChanges` route of its own, whose versions are those before the change (see versionsOfEndpoint), and which
 * may be older still at another URL. Throws where the route is declared for a URL whose parameters do not fit, or
 * that is not under the route's prefix.
 */
export function olderUrlRoutes (route: DeclaredRoute, methods: readonly string[], list: VersionList): OlderUrlRoute[] {
  const routes: OlderUrlRoute[] = []
  // A route of an older URL follows the moves older than the one that made it: a later move onto the URL it left is
  // another endpoint's (and following its own move back would go round for ever).
  const since = movedOffAt(route)
  for (const { index, rule } of endpointRulesOf(list)) {
    const older = rule.olderUrl
    if (older === null || rule.url !== route.url || index <= since) continue
    const { text } = list[index]
    for (const method of methods.filter(method => rule.methods.includes(method))) {
      const label = `${method} ${route.url}`
      if (!older.startsWith(route.prefix)) fail(label, text, rule.at, `${older}, which is not under the prefix ${route.prefix} of its route; declare that route where its URL is`)
      const names = parametersOf(route.url)
      const olderNames = parametersOf(older)
      if (olderNames.length !== names.length || older.endsWith('*') !== route.url.endsWith('*')) fail(label, text, rule.at, `${older}, whose parameters (${listed(olderNames, older)}) are not its own (${listed(names, route.url)}); give the older URL as many`)
      // By name where the older URL has every name, else by position: older name → the route's.
      const byName = olderNames.every(name => names.includes(name))
      const renames = olderNames.map((name, i) => [name, byName ? name : names[i]] as const)
      const path = older.slice(route.prefix.length)
      const options = { ...route, method, url: path, path, onRequest: prepend(newestNames(renames), route.onRequest), [kOlderUrlParams]: renames, [kEndpointUrl]: endpointUrlOf(route), [kMovedOffAt]: index } as unknown as RouteOptions
      routes.push({ options, says: `route ${label}: the change of ${text}, ${rule.at}, says older versions served it at ${older}` })
    }
  }
  return routes
}

function listed (names: readonly string[], url: string): string {
  return [...names, ...url.endsWith('*') ? ['*'] : []].join(', ') || 'none'
}

function parametersOf (url: string): string[] {
  return [...url.matchAll(PARAMETER)].map(match => match[1])
}

// Every hook after it (the app's and the route scope's preValidation and preHandler hooks, Fastify's validation of
// the route's own schema) and the handler get the route's names, whatever URL the request came by; a wildcard's
// (`*`) as it is. Hooks of the app and its scope that run before the route's onRequest hooks see the older names.
function newestNames (renames: ParamRenames): onRequestHookHandler {
  const olderNames = new Set(renames.map(([older]) => older))
  return function apiVersionOlderUrl (request, reply, done) {
    const params = request.params as Record<string, unknown>
    const named: Record<string, unknown> = {}
    for (const key of Object.keys(params)) if (!olderNames.has(key)) named[key] = params[key]
    for (const [older, newer] of renames) named[newer] = params[older]
    request.params = named
    done()
  }
}
