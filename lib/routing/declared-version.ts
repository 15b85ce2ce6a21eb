import { ApiVersion } from '../api-version.js'

// Every route of a version list declares the same few versions: the route table and the router's stores hold one
// ApiVersion a text (versions are immutable), not one a route and node, which at 100 versions and 1,000 paths
// was 450,000 objects. Only the app's declarations reach it, so it holds as many as the app declares.
const declared = new Map<string, ApiVersion>()

/** The version a declaration's text denotes, shared by every declaration of that text; null when it is none. */
export function declaredVersion (text: string): ApiVersion | null {
  let version = declared.get(text) ?? null
  if (version === null) {
    version = ApiVersion.tryParse(text)
    if (version !== null) declared.set(text, version)
  }
  return version
}

// Its text, once a version: every route's constraint value and header forms hold the same strings.
const texts = new WeakMap<ApiVersion, string>()

/** `String(version)`, one string a version for all the routes that declare it. */
export function declaredText (version: ApiVersion): string {
  let text = texts.get(version)
  if (text === undefined) texts.set(version, text = String(version))
  return text
}
