import { isObject } from '../util/is-object.js'
import { typesOf, typesText, within } from './json-types.js'
import type { SharedSchemas } from './shared-ref.js'
import type { EnumRule, FieldRule } from './version-change.js'

/** Why a field rule needs a migration, in each direction: null where its data converts by itself. */
export interface Needs {
  /** A request of the version before does not fit this version without one. */
  readonly request: string | null
  /** A response of this version does not fit the version before without one. */
  readonly response: string | null
}

// Noted as the rule is applied to a schema it names (what it needs depends on what the field is in its version).
const needs = new WeakMap<FieldRule, Needs>()

/**
 * Notes what a field rule needs, from the field as its version has it (`now`, the schema of the property, and
 * whether it is required; none for a `removed` field): a field older versions required and this one has not
 * (`removed`, or `changed` to optional) needs a response migration to give it; one older versions may leave out
 * (or lack: `added`, without a default) that this one requires, a request migration to give it; a value of another type, a migration in each direction
 * where one version's values are not the other's.
 */
export function noteNeeds (rule: FieldRule, now: unknown, required: boolean, shared: SharedSchemas): void {
  const field = JSON.stringify(rule.field)
  let request: string | null = null
  let response: string | null = null
  if (rule.kind === 'removed' && rule.required === true) response = `older versions require the field ${field}, which this one no longer has`
  // Where the field has a default, Fastify's validation of the request converted up gives it.
  if (rule.kind === 'added' && required && !(isObject(now) && now.default !== undefined)) request = `older versions do not send the field ${field}, which this one requires`
  if (rule.kind === 'changed') {
    if (rule.older !== null) {
      const older = typesOf(rule.older, shared)
      const newer = typesOf(now, shared)
      if (!within(older, newer)) request = `older versions send ${field} as ${typesText(older)}, where this one takes ${typesText(newer)}`
      if (!within(newer, older)) response = `older versions take ${field} as ${typesText(older)}, where this one gives ${typesText(newer)}`
    }
    if (rule.required === false && required) request ??= `older versions may leave the field ${field} out, which this one requires`
    if (rule.required === true && !required) response ??= `older versions require the field ${field}, which this one may leave out`
  }
  if (request !== null || response !== null) needs.set(rule, { request, response })
}

/** What a field rule needs (see noteNeeds), once a schema it names was derived, or an enum rule (see enumNeeds); null for nothing. */
export function ruleNeeds (rule: FieldRule | EnumRule): Needs | null {
  return 'members' in rule ? enumNeeds(rule) : needs.get(rule) ?? null
}

/**
 * What an enum rule needs of a route that holds its schema: a member this version added may reach its responses,
 * which older versions do not take; one it removed, older versions' requests, which this one does not take.
 */
export function enumNeeds (rule: EnumRule): Needs {
  const members = rule.members.map(member => JSON.stringify(member)).join(', ')
  const one = rule.members.length === 1 ? 'the member' : 'the members'
  return rule.kind === 'added'
    ? { request: null, response: `older versions lack ${one} ${members}, which this one may give` }
    : { request: `older versions may send ${one} ${members}, which this one does not take`, response: null }
}
