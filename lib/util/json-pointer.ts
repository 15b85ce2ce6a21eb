/**
 * What a JSON pointer in a URI fragment (RFC 6901, percent-encoded: `/properties/lines/items`, `/allOf/0`) names
 * in `document`, through objects and arrays; undefined where it leads nowhere. The empty pointer names the whole;
 * a fragment that is no pointer (a plain name, `#address`) or has a malformed `%` escape names nothing here.
 */
export function pointer (document: unknown, fragment: string): unknown {
  if ((fragment !== '' && !fragment.startsWith('/')) || !decodes(fragment)) return undefined
  let value = document
  for (const token of fragment.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~')
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
  }
  return value
}

/**
 * A name as a token of a JSON pointer in a URI fragment (RFC 6901): `~` and `/` escaped, and `%`, which a reader
 * decodes (see pointer), percent-encoded.
 */
export function pointerToken (name: string): string {
  return escapedToken(name).replaceAll('%', '%25')
}

/** A name as a token of a JSON pointer as RFC 6901 escapes it (`~` and `/`), not percent-encoded: a pointer decoded. */
export function escapedToken (name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** Whether a fragment's `%` escapes are well-formed UTF-8 (`#/%ZZ` and `#/%C3` are not). */
export function decodes (fragment: string): boolean {
  try {
    decodeURIComponent(fragment)
    return true
  } catch {
    return false
  }
}
