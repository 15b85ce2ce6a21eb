/** The router options that decide when two route paths are one path. */
export interface RouterPathOptions {
  readonly caseSensitive: boolean
  readonly ignoreTrailingSlash: boolean
  readonly ignoreDuplicateSlashes: boolean
}

interface InitialConfig {
  routerOptions?: Partial<RouterPathOptions> & { useSemicolonDelimiter?: boolean }
  caseSensitive?: boolean
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  useSemicolonDelimiter?: boolean
}

/** Reads the router options from `fastify.initialConfig`: `routerOptions` first, the deprecated top-level ones after. */
export function routerPathOptions (config: InitialConfig): RouterPathOptions {
  const router = config.routerOptions ?? {}
  return {
    caseSensitive: router.caseSensitive ?? config.caseSensitive ?? true,
    ignoreTrailingSlash: router.ignoreTrailingSlash ?? config.ignoreTrailingSlash ?? false,
    ignoreDuplicateSlashes: router.ignoreDuplicateSlashes ?? config.ignoreDuplicateSlashes ?? false
  }
}

/** Whether the router starts a URL's query string at a `;` too (`/orders;api-version=2.0`), as Fastify then reads it. */
export function semicolonDelimits (config: InitialConfig): boolean {
  return config.routerOptions?.useSemicolonDelimiter ?? config.useSemicolonDelimiter ?? false
}

/**
 * The key under which find-my-way stores a route path: parameter names dropped (`/orders/:id` and
 * `/orders/:orderId` are one path, and so are two regular expressions in one place), static text lower-cased unless the router
 * is case-sensitive, a trailing slash and repeated slashes dropped when the router ignores them. Two routes
 * share one hidden route, and one version table, exactly when the router puts them on one path.
 */
export function routePathKey (url: string, options: RouterPathOptions): string {
  let path = url
  if (options.ignoreDuplicateSlashes) path = path.replace(/\/{2,}/g, '/')
  if (options.ignoreTrailingSlash && path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  let key = ''
  let i = 0
  while (i < path.length) {
    const c = path[i]
    if (c === ':' && path[i + 1] === ':') { // an escaped, literal colon
      key += '::'
      i += 2
    } else if (c === ':') {
      key += ':'
      i++
      // The name runs to the first character that ends it; only an optional marker survives.
      while (i < path.length && !'(-./'.includes(path[i])) {
        if (path[i] === '?') key += '?'
        i++
      }
      // find-my-way keys a pattern without its regular expression: `:id(\\d+)` and `:n(^[a-z]+$)` are one path.
      if (path[i] === '(') {
        key += '()'
        i = closingParenthesis(path, i) + 1
      }
    } else {
      key += options.caseSensitive ? c : c.toLowerCase()
      i++
    }
  }
  return key
}

// As find-my-way reads a parameter's regular expression: nested parentheses count, escaped ones do not.
function closingParenthesis (path: string, open: number): number {
  let depth = 0
  for (let i = open; i < path.length; i++) {
    if (path[i] === '\\') i++
    else if (path[i] === '(') depth++
    else if (path[i] === ')' && --depth === 0) return i
  }
  return path.length - 1
}

// Routes on one path with other constraints that differ get hidden routes of their own.
export function constraintKey (constraints: Record<string, unknown>): string {
  const names = Object.keys(constraints)
  return names.length === 0 ? '' : JSON.stringify(names.sort().map(name => [name, constraints[name]]))
}

// True when `url` has the route parameter `name` (`:name`, ending the segment or followed by '-', '.', '(').
export function hasParam (url: string, name: string): boolean {
  const token = ':' + name
  for (let i = url.indexOf(token); i !== -1; i = url.indexOf(token, i + 1)) {
    const next = url.charCodeAt(i + token.length)
    if (Number.isNaN(next) || next === 47 || next === 45 || next === 46 || next === 40) return true
  }
  return false
}

/**
 * The static text before the version parameter `name` of a route path that carries it, where the version's text
 * can be read from a URL in place (see request/path-segment.ts): `name` is the path's first parameter, nothing
 * but the end of its segment follows it, and the text before it has nothing the router reads otherwise than
 * literally (a wildcard, an escape). Null otherwise: the router is asked.
 */
export function segmentPrefix (url: string, name: string): string | null {
  const colon = url.indexOf(':')
  const after = url.charCodeAt(colon + 1 + name.length)
  if (!url.startsWith(name, colon + 1) || !(Number.isNaN(after) || after === 47)) return null
  const prefix = url.slice(0, colon)
  return /[*%]/.test(prefix) ? null : prefix
}
