/**
 * How deep the comparison follows schemas and values (one level a nested schema or value, `$ref`s followed) before
 * it gives up: far more than any API's own nesting, and far less than would exhaust the stack.
 */
export const MAX_DEPTH = 100

/** A schema or value nested deeper than MAX_DEPTH: what changed in it cannot be told. */
export class TooDeep extends Error {
  /** `where`: the operation, as the message names it, once known. */
  constructor (where?: string) {
    super(`${where === undefined ? '' : `${where}: `}a schema nests deeper than ${MAX_DEPTH} levels, its $refs followed, so what changed in it cannot be told: make it shallower (one that refers to itself, a tree, is fine)`)
  }
}

/** Stops a walk that is `depth` levels in, past MAX_DEPTH (the caller names where). */
export function checkDepth (depth: number): void {
  if (depth > MAX_DEPTH) throw new TooDeep()
}
