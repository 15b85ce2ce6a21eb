import type { ApiVersion } from '../api-version.js'
import { withMediaTypeVersion, type MediaTypeConfig } from '../request/media-type.js'
import type { VersionPolicy } from '../lifecycle/policies.js'
import type { PolicyLink } from '../util/policy-values.js'
import type { OperationObject } from './parameters.js'

type Info = { description?: string, [keyword: string]: unknown }
type Content = Record<string, unknown>

/**
 * When a version's deprecation takes effect, as the server sees it: at once without a date, never when it is
 * dated after the sunset (no header or link is sent for it), else at its date; null without one.
 */
function deprecatedFrom (policy: VersionPolicy | undefined): number | null {
  const declared = policy?.deprecationPolicy ?? null
  if (declared === null) return null
  if (declared.date === null) return -Infinity
  return (policy as VersionPolicy).deprecation === null ? null : declared.date.getTime()
}

/** True when a version's deprecation policy is in effect at `now`. */
export function isDeprecated (policy: VersionPolicy | undefined, now: number): boolean {
  const from = deprecatedFrom(policy)
  return from !== null && now >= from
}

/** The instants, ascending, at which some version's documents change: deprecations and enforced sunsets. */
export function lifecycleInstants (policies: ReadonlyMap<string, VersionPolicy>): number[] {
  const instants = new Set<number>()
  for (const policy of policies.values()) {
    const from = deprecatedFrom(policy)
    if (from !== null && from !== -Infinity) instants.add(from)
    if (policy.enforce) instants.add(policy.sunsetAt as number)
  }
  return [...instants].sort((a, b) => a - b)
}

/** The period `time` falls in: how many of the instants have come. */
export function periodAt (instants: readonly number[], time: number): number {
  let period = 0
  while (period < instants.length && instants[period] <= time) period++
  return period
}

/**
 * States a version's deprecation and sunset in its document's `info`: in words in `description`, and as the
 * `x-api-deprecation` / `x-api-sunset` extension objects (`date` as ISO 8601, `link` with its attributes).
 */
export function describePolicy (info: Info, policy: VersionPolicy | undefined): void {
  if (policy === undefined) return
  const notes: string[] = []
  const { deprecationPolicy: deprecation, sunsetPolicy: sunset } = policy
  // A deprecation dated after the sunset never takes effect: the server says nothing of it, nor do documents.
  if (deprecation !== null && deprecatedFrom(policy) !== null) {
    info['x-api-deprecation'] = extension(deprecation.date, deprecation.link)
    notes.push(sentence(deprecation.date === null ? 'This API version is deprecated' : `This API version is deprecated from ${day(deprecation.date)}`, deprecation.link))
  }
  if (sunset !== null) {
    info['x-api-sunset'] = { ...extension(sunset.date, sunset.link), enforce: sunset.enforce }
    const when = sunset.date === null ? 'This API version will be retired' : `This API version is retired on ${day(sunset.date)}`
    notes.push(sentence(sunset.enforce ? `${when}; from then on its requests are refused` : when, sunset.link))
  }
  const text = notes.join(' ')
  info.description = info.description === undefined ? text : `${info.description}\n\n${text}`
}

function extension (date: Date | null, link: PolicyLink | null): Record<string, unknown> {
  const value: Record<string, unknown> = {}
  if (date !== null) value.date = date.toISOString()
  if (link !== null) {
    const { rel: _rel, ...attributes } = link
    value.link = Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== null))
  }
  return value
}

// The link as markdown the docs page renders clickable, named by its title where it has one.
function sentence (text: string, link: PolicyLink | null): string {
  if (link === null) return `${text}.`
  const name = (link.title ?? link.href).replace(/[\\[\]*_`<>]/g, '\\$&')
  // A valid URL's href has no space or angle bracket; parentheses would end the destination.
  const target = link.href.replaceAll('(', '%28').replaceAll(')', '%29')
  return `${text}: see [${name}](${target}).`
}

function day (date: Date): string {
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso
}

/**
 * With the media type reader, the request and success response media types of an operation name the version
 * (`application/json; v=2.0`, or the vendor type of the template), as ASP.NET's API explorer lists them.
 */
export function versionMediaTypes (operation: OperationObject, version: ApiVersion, config: MediaTypeConfig): void {
  const text = String(version)
  const source = config.template ?? config.parameters[0]
  const rename = (content: Content | undefined): void => {
    if (content === undefined) return
    for (const type of Object.keys(content)) {
      const versioned = withMediaTypeVersion(type, text, config, source)
      if (versioned === type) continue
      content[versioned] = content[type]
      delete content[type]
    }
  }
  rename((operation.requestBody as { content?: Content } | undefined)?.content)
  // Every versioned operation has responses by now: its version errors at least.
  for (const [status, response] of Object.entries(operation.responses as Record<string, unknown>)) {
    if (status.startsWith('2')) rename((response as { content?: Content }).content)
  }
}
