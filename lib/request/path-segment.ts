/**
 * Where the path of a route carries the version: the static text of the route's path before the version's route
 * parameter (`/api/v` for `/api/v:apiVersion/items`), or null where the version's text cannot be read from the
 * URL in place (another parameter or a regular expression before it, a regular expression or more text after it
 * in its segment); there the router is asked for it.
 */
export interface PathSegment {
  readonly prefix: string | null
}

/**
 * The version's text in `url` where the router took a route whose path is `prefix` + `:name` + (nothing or a
 * segment boundary): the text from the end of `prefix` to the end of its segment, as find-my-way cuts a route
 * parameter. Undefined where the URL may mean other than it reads: when it does not repeat `prefix` literally
 * (case, repeated slashes, escapes, an absolute URL), or the version's text has an escape (`%`, which the router
 * decodes), a `;` (which may end the path, by a router option) or is empty. The router is asked there.
 */
export function segmentIn (url: string, prefix: string): string | undefined {
  if (!url.startsWith(prefix)) return undefined
  const start = prefix.length
  let end = start
  for (; end < url.length; end++) {
    const c = url.charCodeAt(end)
    if (c === 47 || c === 63 || c === 35) break // '/', '?' and '#' end it
    if (c === 37 || c === 59) return undefined // '%', ';'
  }
  return end === start ? undefined : url.slice(start, end)
}
