import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify'
import { ApiVersion } from '../api-version.js'
import type { ApiVersioningOpenApiUiOptions, Guard } from './options.js'
import type { ApiVersionDocument } from '../changes/document.js'

export interface SwaggerConfig {
  urls: Array<{ url: string, name: string }>
  'urls.primaryName': string
}

/** The version a client should start from: the newest supported one without a status (not `3.0-beta`). */
export function primaryVersion (documents: readonly ApiVersionDocument[]): ApiVersionDocument {
  const newestFirst = [...documents].reverse()
  return newestFirst.find(d => !d.deprecated && (ApiVersion.parse(d.version).status === null)) ??
    newestFirst.find(d => !d.deprecated) ?? newestFirst[0]
}

/** The name of a version in Swagger UI's picker. */
export function pickerName (document: ApiVersionDocument): string {
  return document.deprecated ? `${document.version} (deprecated)` : document.version
}

/** Swagger UI's configuration (its `configUrl`): the picker's list, newest first, and where it starts. */
export function swaggerConfig (documents: readonly ApiVersionDocument[], routePrefix: string): SwaggerConfig {
  return {
    urls: [...documents].reverse().map(d => ({ url: `${routePrefix}/${d.version}.json`, name: pickerName(d) })),
    'urls.primaryName': pickerName(primaryVersion(documents))
  }
}

/**
 * Registers @fastify/swagger-ui in a context of its own (its `swaggerCSP` decorator stays there, beside any
 * registration of the app's own), with the picker fed by `swagger-config` and the guard on every route. Its
 * `json` and `yaml` routes would ask the app's `swagger()`: they redirect to the primary version's document
 * instead, once the guard has let the request through. Authorization is kept when the picker switches versions.
 */
export function registerUi (
  fastify: FastifyInstance, swaggerUi: FastifyPluginCallback<Record<string, unknown>>, ui: ApiVersioningOpenApiUiOptions & { routePrefix: string },
  guard: Guard, routePrefix: string, primary: () => string
): void {
  async function redirect (request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const url = request.routeOptions.url as string
    if (url.endsWith('/json') || url.endsWith('/yaml')) {
      return reply.redirect(`${routePrefix}/${primary()}.${url.endsWith('/json') ? 'json' : 'yaml'}`)
    }
  }
  fastify.register(async function docsPage (scope) {
    await scope.register(swaggerUi, {
      ...ui,
      uiConfig: { persistAuthorization: true, ...ui.uiConfig, configUrl: `${routePrefix}/swagger-config` },
      uiHooks: { onRequest: guard.onRequest, preHandler: [...guard.preHandler, redirect] }
    })
  })
}
