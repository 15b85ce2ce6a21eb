import { code } from './code.js'

/**
 * The keywords that bound a schema's values, in the order their changes are said. A greater value of a lower
 * bound takes fewer values, as a smaller one of an upper bound does; any other constraint takes fewer values
 * when it is set, and more when removed.
 */
export const CONSTRAINTS = [
  'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'additionalProperties'
] as const
const LOWER = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'])
const UPPER = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'])

/** A constraint that changed: whether the schema takes fewer values now, more, or other ones; and how, in words. */
export interface ConstraintChange {
  readonly direction: 'tightened' | 'loosened' | 'changed'
  /** After the keyword and its place: `lowered from `100` to `50``. */
  readonly detail: string
}

/**
 * The constraints a schema sets. A flag that is off bounds nothing (`uniqueItems: false`, OpenAPI 3.0's
 * `exclusiveMinimum: false`), and a body is closed only by `additionalProperties: false` (a schema there is
 * no bound of this kind).
 */
export function constraintsOf (schema: Record<string, unknown>): Map<string, unknown> {
  const found = new Map<string, unknown>()
  for (const key of CONSTRAINTS) {
    const value = schema[key]
    if (key === 'additionalProperties' ? value === false : value !== undefined && value !== false) found.set(key, value)
  }
  return found
}

/**
 * The bound of one keyword that two parts of an `allOf` set: the tighter, as both apply; a list of both where
 * they cannot be one value (two patterns), which is then compared as a whole.
 */
export function combine (key: string, a: unknown, b: unknown): unknown {
  if (JSON.stringify(a) === JSON.stringify(b)) return a
  if (typeof a === 'number' && typeof b === 'number' && (LOWER.has(key) || UPPER.has(key))) return LOWER.has(key) ? Math.max(a, b) : Math.min(a, b)
  return [a, b].flat()
}

/** What changed in one constraint, from `a` to `b` (undefined: not set), or null. */
export function compareConstraint (key: string, a: unknown, b: unknown): ConstraintChange | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null
  if (a === undefined) return { direction: 'tightened', detail: `set to ${valueText(b)}` }
  if (b === undefined) return { direction: 'loosened', detail: `removed (was ${valueText(a)})` }
  const ordered = typeof a === 'number' && typeof b === 'number' && (LOWER.has(key) || UPPER.has(key))
  if (!ordered) return { direction: 'changed', detail: `changed from ${valueText(a)} to ${valueText(b)}` }
  const raised = b > a
  return { direction: raised === LOWER.has(key) ? 'tightened' : 'loosened', detail: `${raised ? 'raised' : 'lowered'} from ${valueText(a)} to ${valueText(b)}` }
}

// A pattern or format as written; numbers and flags as JSON.
function valueText (value: unknown): string {
  return code(typeof value === 'string' ? value : JSON.stringify(value))
}
