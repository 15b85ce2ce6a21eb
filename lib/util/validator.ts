/** A validator as Fastify compiles one (Ajv's, or a compiler's of the app's): its errors, and Ajv's schemaEnv and schema. */
export type Validate = ((data: unknown, context?: object) => unknown) & { errors?: unknown, schemaEnv?: unknown, schema?: unknown }

/**
 * `wrapper`, made to stand where `validate` stood on a route's context: Fastify reads the errors of one that returns
 * false (read through to `validate`'s), gives the request only to one with a schemaEnv (`schemaEnv`, `validate`'s
 * unless said), and an app may read its schema (request.getValidationFunction).
 */
export function standingFor (wrapper: (data: unknown, context?: object) => unknown, validate: Validate, schemaEnv = validate.schemaEnv): Validate {
  return Object.defineProperties(wrapper, {
    errors: { get: () => validate.errors },
    schemaEnv: { value: schemaEnv },
    schema: { value: validate.schema }
  }) as Validate
}
