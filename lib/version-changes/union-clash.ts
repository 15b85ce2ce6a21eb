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

// The way from a union's member to a schema inside it that a conversion follows in every member alike: property
// names, and `[]` for an array's items.
type Path = readonly string[]

function clashIn (given: readonly unknown[], root: Schema, keyword: UnionClash['keyword'], rules: readonly FieldRule[], shared: SharedSchemas): UnionClash | null {
  const members = given.map(member => resolveRefs(member, root, shared) ?? null)
  for (const member of members) {
    if (member === null) continue
    for (const [path, node] of within(member[0], member[1], shared)) {
      for (const rule of rules) {
        if (!names(rule, node)) continue
        for (const found of members) {
          // What the other member has where this one has the schema the rule is about (the member itself, or a
          // schema of its property): the conversion reaches it there too.
          const other = found === null || found === member ? null : at(found[0], found[1], path, shared)
          // A schema the same instruction (or one of the same effect) is about converts as this one does.
          if (other === null || !isObject(other.properties) || rules.some(alike => sameEffect(alike, rule) && names(alike, other))) continue
          const name = [rule.field, rule.renamedFrom].find(name => name !== null && Object.hasOwn(other.properties as Schema, name))
          if (typeof name === 'string') return { rule, keyword, name }
        }
      }
    }
  }
  return null
}

// A member's schemas by their way from it: itself, its properties' and items', deeper (each schema once).
function within (member: Schema, root: Schema, shared: SharedSchemas): Array<[Path, Schema]> {
  const found: Array<[Path, Schema]> = []
  const seen = new Set<Schema>()
  const stack: Array<[Path, Schema, Schema]> = [[[], member, root]]
  while (stack.length > 0) {
    const [path, node, base] = stack.pop() as [Path, Schema, Schema]
    if (seen.has(node)) continue
    seen.add(node)
    found.push([path, node])
    for (const [key, value] of stepsFrom(node)) {
      const next = resolveRefs(value, base, shared)
      if (next !== null) stack.push([[...path, key], next[0], next[1]])
    }
  }
  return found
}

// The schema at `path` from a member, where it has one.
function at (member: Schema, root: Schema, path: Path, shared: SharedSchemas): Schema | null {
  let current: [Schema, Schema] = [member, root]
  for (const key of path) {
    const value = stepsFrom(current[0]).find(([step]) => step === key)?.[1]
    const next = value === undefined ? null : resolveRefs(value, current[1], shared)
    if (next === null) return null
    current = next
  }
  return current[0]
}

// The schemas one step inside: each property's by its name, and the items' as `[]`.
function stepsFrom (node: Schema): Array<[string, unknown]> {
  const steps: Array<[string, unknown]> = isObject(node.properties) ? Object.entries(node.properties) : []
  if (isObject(node.items)) steps.push(['[]', node.items])
  return steps
}

function sameEffect (a: FieldRule, b: FieldRule): boolean {
  return a.kind === b.kind && a.field === b.field && a.renamedFrom === b.renamedFrom
}
