import { isObject } from '../util/is-object.js'
import { names } from './schema-identity.js'
import { resolveRefs, type SharedSchemas } from './shared-ref.js'
import type { FieldRule } from './version-change.js'

type Schema = Record<string, unknown>

/** A rule that changes a member of a union whose other member has a field of a name the rule converts. */
export interface UnionClash {
  readonly rule: FieldRule
  readonly keyword: 'anyOf' | 'oneOf'
  readonly name: string
}

// Keywords whose values are schemas of the value or its parts, and those whose values are lists or maps of them.
const ONE = ['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties']
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']
const MAP = ['properties', 'patternProperties']

/**
 * The first rule of `rules` that renames, adds or removes a field of a member of an `anyOf` or `oneOf` in `schema`
 * where another member has a field of a name the rule converts; null when none does. A conversion follows every
 * member of a union, telling none of a value apart (that would take validating it), so such a rule would change the
 * other member's values too: a dog's `sound` renamed as a cat's, or dropped as a name its version lacks.
 */
export function unionClash (schema: unknown, rules: readonly FieldRule[], shared: SharedSchemas): UnionClash | null {
  const converting = rules.filter(rule => rule.kind !== 'changed')
  if (converting.length === 0 || !isObject(schema)) return null
  const seen = new Set<Schema>()
  const stack: Array<[unknown, Schema]> = [[schema, schema]]
  while (stack.length > 0) {
    const [given, base] = stack.pop() as [unknown, Schema]
    const found = resolveRefs(given, base, shared)
    if (found === null || seen.has(found[0])) continue
    const [node, root] = found
    seen.add(node)
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const clash = Array.isArray(node[keyword]) ? clashIn(node[keyword] as unknown[], root, keyword, converting, shared) : null
      if (clash !== null) return clash
    }
    for (const key of ONE) if (isObject(node[key])) stack.push([node[key], root])
    for (const key of LIST) if (Array.isArray(node[key])) for (const member of node[key] as unknown[]) stack.push([member, root])
    for (const key of MAP) if (isObject(node[key])) for (const member of Object.values(node[key] as Schema)) stack.push([member, root])
  }
  return null
}

/** What is wrong, said of `where` (`its body`, `this schema`): the version whose step (of `steps`) holds the rule, and the rest. */
export function clashMessage (clash: UnionClash, steps: ReadonlyArray<{ readonly version: string, readonly rules: readonly FieldRule[] }>, where: string, migrations: string): string {
  // The rule is one of the steps': unionClash was given theirs.
  const { version } = steps.find(step => step.rules.includes(clash.rule)) as { version: string }
  return `the change of ${version}, ${clash.rule.at}, changes a member of ${clash.keyword} in ${where} whose other member has a field "${clash.name}" too; a conversion follows every member of a union, telling no value's member apart, so it would change the other member's values as well: convert the union with ${migrations} instead, or declare the change for the other member too`
}

function clashIn (given: readonly unknown[], root: Schema, keyword: UnionClash['keyword'], rules: readonly FieldRule[], shared: SharedSchemas): UnionClash | null {
  const members = given.map(member => resolveRefs(member, root, shared)?.[0] ?? null)
  for (const member of members) {
    if (member === null) continue
    for (const rule of rules) {
      if (!names(rule, member)) continue
      for (const other of members) {
        // A member the same instruction (or one of the same effect) is about converts as this one does.
        if (other === null || other === member || !isObject(other.properties) || rules.some(alike => sameEffect(alike, rule) && names(alike, other))) continue
        const name = [rule.field, rule.renamedFrom].find(name => name !== null && Object.hasOwn(other.properties as Schema, name))
        if (typeof name === 'string') return { rule, keyword, name }
      }
    }
  }
  return null
}

function sameEffect (a: FieldRule, b: FieldRule): boolean {
  return a.kind === b.kind && a.field === b.field && a.renamedFrom === b.renamedFrom
}
