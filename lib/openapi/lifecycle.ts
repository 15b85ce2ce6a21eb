import type { ApiVersion } from '../api-version.js'
import { withMediaTypeVersion, type MediaTypeConfig } from '../media-type.js'
import type { PolicyLink, VersionPolicy } from '../policies.js'
import type { OperationObject } from './parameters.js'

type Info = { description?: string, [keyword: string]: unknown }
type Content = Record<string, unknown>

/** True when a version's enforced sunset has passed: it is served no more, so it gets no document. */
export function isRetired (policy: VersionPolicy | undefined, now: number): boolean {
  return policy !== undefined && policy.enforce && now >= (policy.sunsetAt as number)
}

/** When each version leaves the version headers, as apiVersioning judges it: at its enforced sunset. */
export function retirement (policies: ReadonlyMap<string, VersionPolicy>): (version: ApiVersion) => number | null {
  return version => {
    const policy = policies.get(version.key)
    return policy?.enforce === true ? policy.sunsetAt : null
  }
}

/**
 * States a version's deprecation and sunset in its document's `info`: in words in `description`, and as the
 * `x-api-deprecation` / `x-api-sunset` extension objects (`date` as ISO 8601, `link` with its attributes).
 */
export function describePolicy (info: Info, policy: VersionPolicy | undefined): void {
  if (policy === undefined) return
  const notes: string[] = []
  const { deprecationPolicy: deprecation, sunsetPolicy: sunset } = policy
  if (deprecation !== null) {
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

function sentence (text: string, link: PolicyLink | null): string {
  return link === null ? `${text}.` : `${text}: see ${link.href}.`
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
