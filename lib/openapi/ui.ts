import type { FastifyInstance, FastifyPluginCallback, onRequestHookHandler } from 'fastify'
import { ApiVersion } from '../api-version.js'
import type { ApiVersioningOpenApiUiOptions } from './options.js'
import type { ApiVersionDocument } from './split.js'

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
 * registration of the app's own), with the picker fed by `swagger-config`. Its `json` and `yaml` routes would
 * ask the app's `swagger()`: they redirect to the primary version's document instead.
 */
export function registerUi (
  fastify: FastifyInstance, swaggerUi: FastifyPluginCallback<Record<string, unknown>>, ui: ApiVersioningOpenApiUiOptions & { routePrefix: string },
  routePrefix: string, primary: () => string
): void {
  const redirect: onRequestHookHandler = function (request, reply, done) {
    const url = request.routeOptions.url as string
    if (url.endsWith('/json') || url.endsWith('/yaml')) {
      return reply.redirect(`${routePrefix}/${primary()}.${url.endsWith('/json') ? 'json' : 'yaml'}`)
    }
    done()
  }
  fastify.register(async function docsPage (scope) {
    await scope.register(swaggerUi, {
      ...ui,
      uiConfig: { ...ui.uiConfig, configUrl: `${routePrefix}/swagger-config` },
      uiHooks: { ...ui.uiHooks, onRequest: [redirect].concat(ui.uiHooks?.onRequest ?? []) }
    })
  })
}
