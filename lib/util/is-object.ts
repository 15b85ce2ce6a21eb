/** Whether a value is a plain object to read keys from (not null, not an array). */
export function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
