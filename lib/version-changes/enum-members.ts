import { coded } from '../errors.js'
import { isObject } from '../util/is-object.js'
import type { EnumMember, EnumRule } from './version-change.js'

type Schema = Record<string, unknown>

// A member's schema in a union of literals, as TypeBox writes a literal of it.
const LITERAL_TYPES: Record<string, string> = { string: 'string', number: 'number', boolean: 'boolean', object: 'null' }

/**
 * The members an enum schema admits, in order: its `enum`, or the `const` of each member of its `anyOf` (a TypeBox
 * union of literals, `Type.Enum`); null for a schema that is neither.
 */
function enumMembers (schema: Schema): unknown[] | null {
  if (Array.isArray(schema.enum)) return schema.enum
  if (!Array.isArray(schema.anyOf)) return null
  return schema.anyOf.every(member => isObject(member) && 'const' in member) ? schema.anyOf.map(member => (member as Schema).const) : null
}

/**
 * Applies the enum rules of one version that name a schema to a copy of it (`named` as errors name it), as the
 * version before sees it: the members this version added left out, those it removed put back (last, as literals of
 * their type in a union). Throws for a rule that does not fit: a schema that is no enum, a member added that it lacks,
 * one removed that it has, or every member added.
 */
export function applyEnumRules (schema: Schema, rules: readonly EnumRule[], version: string, named: string): void {
  const fail = (rule: EnumRule, problem: string): never => {
    throw coded(new Error(`fastify-api-versioning: versionChanges: the change of ${version}, ${rule.at} ${problem}`), 'FST_API_VERSIONING_INVALID_OPTION')
  }
  const members = enumMembers(schema)
  if (members === null) return fail(rules[0], `names ${named}, which is not an enum: an enum list, or anyOf of const members (a TypeBox union of literals, Type.Enum)`)
  const added = new Set<unknown>()
  const removed: EnumMember[] = []
  for (const rule of rules) {
    for (const member of rule.members) {
      const has = members.includes(member)
      if (rule.kind === 'added' && !has) fail(rule, `says ${named} added the member ${JSON.stringify(member)}, which it does not have in ${version}; its members there: ${members.map(m => JSON.stringify(m)).join(', ')}`)
      if (rule.kind === 'removed' && has) fail(rule, `says ${named} removed the member ${JSON.stringify(member)}, but it has it in ${version}: name a member of older versions only`)
      if (rule.kind === 'added') added.add(member)
      else removed.push(member)
    }
  }
  if (added.size === members.length && removed.length === 0) {
    fail(rules.find(rule => rule.kind === 'added') as EnumRule, `says ${named} added every member it has in ${version}, so older versions would take no value; say what older versions had instead (removed), or remove the field that holds it (fields)`)
  }
  if (Array.isArray(schema.enum)) {
    schema.enum = [...members.filter(member => !added.has(member)), ...removed]
    return
  }
  schema.anyOf = [
    ...(schema.anyOf as Schema[]).filter(member => !added.has(member.const)),
    ...removed.map(member => ({ type: LITERAL_TYPES[typeof member], const: member }))
  ]
}
