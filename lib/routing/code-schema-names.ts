import type { FastifySchema, preValidationHookHandler } from 'fastify'
import { isCodeSchema } from '../util/code-schema.js'
import type { VersionNames } from './version-schemas.js'

/**
 * The hook that takes the version names out of a request's query string and params before validation, on a route
 * whose schema of them is a validation library's (zod, valibot), which a type provider compiles: the plugin cannot
 * add the names to it as it does to a JSON Schema (see allowVersionNames), so a strict one (`z.strictObject`) would
 * refuse every request that names its version there. Such a schema's output leaves out what it does not name in any
 * case: the handler reads the version from `request.apiVersion`. Null where no such part would see the names.
 */
export function versionNamesOut (schema: FastifySchema | undefined, names: VersionNames): preValidationHookHandler | null {
  const query = names.querystring.length > 0 && isCodeSchema(schema?.querystring ?? (schema as { query?: unknown } | undefined)?.query) ? names.querystring : []
  const params = names.params.length > 0 && isCodeSchema(schema?.params) ? names.params : []
  if (query.length + params.length === 0) return null
  return function apiVersionNamesOut (request, reply, done) {
    for (const name of query) delete (request.query as Record<string, unknown>)[name]
    for (const name of params) delete (request.params as Record<string, unknown>)[name]
    done()
  }
}
