import { isObject } from './is-object.js'
import { kindIn } from './key-kind.js'

/**
 * Walks the schema nodes a value holds, outer first: the objects that are neither data (an example, a default, an
 * enum) nor a map of names (`properties`, `$defs`: its values are walked); arrays are walked through. Each object
 * once (a schema may hold itself), with a stack of its own (a schema may nest deeper than recursion goes). `visit`
 * ends the walk with `true`, which it returns, or passes by a node's own nodes with `'skip'`.
 */
export function someNode (root: unknown, visit: (node: Record<string, unknown>) => boolean | 'skip' | undefined): boolean {
  const seen = new Set<object>()
  const stack: Array<[unknown, boolean]> = [[root, false]]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [value, inMap] = top
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    seen.add(value)
    if (!inMap && isObject(value)) {
      const said = visit(value)
      if (said === true) return true
      if (said === 'skip') continue
    }
    for (const [key, child] of Object.entries(value)) {
      const kind = kindIn(value, key, inMap)
      if (kind !== 'data') stack.push([child, kind === 'map'])
    }
  }
  return false
}
