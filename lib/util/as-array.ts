/** A list as a document gives it, or none for what is not a list. */
export function asArray (value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
