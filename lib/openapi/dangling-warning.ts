import type { FastifyBaseLogger } from 'fastify'
import { anchored } from '../changes/anchored-refs.js'
import type { ApiVersionDocument } from '../changes/document.js'
import { warnAtStartUp } from '../util/start-up-warning.js'

/**
 * Says which documents refer to what they do not have (a type provider's components left out): OpenAPI tools cannot
 * resolve those refs, apiVersionChanges() reads them as any value, and the release gate refuses them. The documents
 * are made once, and again only where a deprecation or a sunset takes effect.
 */
export function warnDangling (log: FastifyBaseLogger, documents: readonly ApiVersionDocument[]): void {
  for (const { version, document } of documents) {
    const { dangling } = anchored(document)
    if (dangling.length === 0) continue
    warnAtStartUp(log, `fastify-api-versioning/openapi: the document of ${version} refers to ${dangling.join(', ')}, which it does not have: OpenAPI tools cannot resolve them, and the changes between versions read them as any value; add the components they name (with fastify-type-provider-zod, give its jsonSchemaTransformObject as the transformObject option)`, 'FST_API_VERSIONING_OPENAPI_DANGLING_REF')
  }
}
