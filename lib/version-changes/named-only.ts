// The name of Fastify's own serializer compiler (@fastify/fast-json-stringify-compiler binds one to its options).
const FASTIFY_OWN = 'bound responseSchemaCompiler'

/**
 * Whether a route's serializers write only the properties a schema names, where the schema allows no others: told
 * of Fastify's own compiler (fast-json-stringify's) by its name, so that no compiler of the app's is called to find
 * out. Any other is taken for one that may write every property of a value: its conversions keep them all (slower).
 */
export function writesNamedOnly (compiler: unknown): boolean {
  return typeof compiler === 'function' && compiler.name === FASTIFY_OWN
}
