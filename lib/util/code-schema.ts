import { isObject } from './is-object.js'

/**
 * Whether a value is a schema of a validation library (zod, valibot, ArkType: a Standard Schema, `~standard`; zod
 * before 3.24, `_def`), which a type provider compiles, not a JSON Schema: the plugin reads the keywords of JSON
 * Schemas (TypeBox's, or plain objects).
 */
export function isCodeSchema (value: unknown): boolean {
  return isObject(value) && ('~standard' in value || '_def' in value)
}
