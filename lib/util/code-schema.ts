/**
 * Whether a value is a schema of a validation library (zod, valibot, ArkType: a Standard Schema, `~standard`; zod
 * before 3.24, `_def`), which a type provider compiles, not a JSON Schema: the plugin reads the keywords of JSON
 * Schemas (TypeBox's, or plain objects). ArkType's is a function.
 */
export function isCodeSchema (value: unknown): boolean {
  return ((typeof value === 'object' && value !== null) || typeof value === 'function') && ('~standard' in value || '_def' in value)
}
