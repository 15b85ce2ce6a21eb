/**
 * The JSON Schema keywords whose values are maps of schemas by name (of a property, a definition, a dependency): their
 * keys are names, never keywords (a property may be called `$id` or `format`), and their values are schemas. Draft-07's
 * `dependencies` may also hold lists of names there, which are no schemas.
 */
export const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'])
