import type { EndpointRule, EnumRule, FieldRule, MigrationRule, RequestToMigrate, ResponseRule, ResponseToMigrate } from './version-change.js'
import { endpointName } from './endpoint-names.js'
import type { VersionList } from './version-list.js'

/** The field rules of one version (all its changes), as the older schemas are derived from the newer ones. */
export interface FieldStep {
  /** The version that made the changes, as listed. */
  readonly version: string
  readonly rules: readonly FieldRule[]
  /** Its enum rules; none where left out. */
  readonly enums?: readonly EnumRule[]
}

/**
 * What the changes of one version say, grouped once for every route: the arrays are the same objects for every
 * route, so that what is planned from them (derived schemas, where values are found) is planned once and shared.
 */
export interface VersionStep extends FieldStep {
  /** Renamed and added fields: converted by themselves. */
  readonly automatic: readonly FieldRule[]
  readonly removed: readonly FieldRule[]
  readonly changed: readonly FieldRule[]
  readonly requests: ReadonlyArray<MigrationRule<RequestToMigrate>>
  readonly responses: readonly ResponseRule[]
  readonly enums: readonly EnumRule[]
  /** The success statuses older versions answered otherwise, by route: their responses are keyed so. */
  readonly statuses: readonly StatusChange[]
}

const steps = new WeakMap<VersionList, readonly VersionStep[]>()

/** The steps of a version list, one a version (the first, oldest version's has nothing). */
export function stepsOf (list: VersionList): readonly VersionStep[] {
  let known = steps.get(list)
  if (known === undefined) {
    known = list.map(({ text, changes }, k) => {
      const rules = changes.flatMap(change => change.fields)
      // Routes by the endpoint's name as its routes know it, whatever URL of its time an instruction gives.
      const named = <R extends { readonly route: string | null }>(rule: R): R => {
        const route = rule.route === null ? null : endpointName(list, k, rule.route)
        return route === rule.route ? rule : Object.freeze({ ...rule, route })
      }
      const statuses = changes.flatMap(change => change.endpoints).flatMap(statusChanges).map(named)
      return {
        version: text,
        rules,
        automatic: rules.filter(rule => rule.kind === 'renamed' || rule.kind === 'added'),
        removed: rules.filter(rule => rule.kind === 'removed'),
        changed: rules.filter(rule => rule.kind === 'changed'),
        requests: changes.flatMap(change => change.requests).map(named),
        // A success status older versions answered otherwise: a response migration of the route, after the version's own.
        responses: [...changes.flatMap(change => change.responses).map(named), ...statuses.map(statusRule)],
        statuses,
        enums: changes.flatMap(change => change.enums)
      }
    })
    steps.set(list, known)
  }
  return known
}

const single = new WeakMap<object, readonly object[]>()

/** A rule as a list of one, the same list each time (what is planned from a list is kept by it). */
export function only<R extends object> (rule: R): readonly R[] {
  let list = single.get(rule)
  if (list === undefined) single.set(rule, list = [rule])
  return list as readonly R[]
}

/** The status an endpoint's older versions answered, where a rule says (`changed: { status }`), by route (`'POST /orders'`). */
export interface StatusChange {
  readonly route: string
  readonly status: number
  readonly at: string
}

function statusChanges (rule: EndpointRule): StatusChange[] {
  const { status } = rule
  return status === null ? [] : rule.methods.map(method => ({ route: `${method} ${rule.url}`, status, at: rule.at }))
}

// The response migrations that status changes are (see statusRule).
const statusRules = new WeakSet<object>()

/** Whether a response migration is an endpoint instruction's status change, which moves the body as it is. */
export function isStatusRule (rule: object): boolean {
  return statusRules.has(rule)
}

// A status change as the response migration of its route that answers the older status.
function statusRule ({ route, status, at }: StatusChange): ResponseRule {
  const migrate = (response: ResponseToMigrate): void => { response.statusCode = status }
  const rule = Object.freeze({ route, schema: null, id: null, errors: false, migrate, at })
  statusRules.add(rule)
  return rule
}
