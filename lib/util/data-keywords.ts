/** The JSON Schema keywords whose values are data, not schemas: a `$ref` or a `title` there is no schema's. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(['example', 'examples', 'default', 'enum', 'const'])
