import { pointer } from './json-pointer.js'

/** Whether a `$ref` names a place of `schema` itself (`#`, `#/$defs/C` where it holds one), as a ref local to it. */
export function namesOwnPlace (schema: unknown, ref: string): boolean {
  return ref === '#' || (ref.startsWith('#/') && pointer(schema, ref.slice(1)) !== undefined)
}
