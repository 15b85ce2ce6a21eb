/** Where a document's component schemas are: a reference to one starts so (`#/components/schemas/Order`). */
export const SCHEMA_REF = '#/components/schemas/'

/** The component schema a reference names (`Order` of `#/components/schemas/Order/properties/id`), or null. */
export function componentOf (ref: string): string | null {
  return ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length).split('/', 1)[0] : null
}
