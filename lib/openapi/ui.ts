import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify'
import { ApiVersion } from '../api-version.js'
import type { ApiVersioningOpenApiUiOptions, Guard } from './options.js'
import type { ApiVersionDocument, OpenApiDocument } from '../changes/document.js'

/**
 * Swagger UI's configuration: the versions' documents to pick from; with no version served, a document of none
 * that says so, as `spec` (an empty list of `urls` would fail Swagger UI's top bar).
 */
export type SwaggerConfig =
  | { urls: Array<{ url: string, name: string }>, 'urls.primaryName': string }
  | { spec: OpenApiDocument }

/**
 * The version a client should start from: the newest supported one without a status (not `3.0-beta`); undefined
 * when no version is served (each retired by its enforced sunset).
 */
export function primaryVersion (documents: readonly ApiVersionDocument[]): ApiVersionDocument | undefined {
  const newestFirst = [...documents].reverse()
  return newestFirst.find(d => !d.deprecated && (ApiVersion.parse(d.version).status === null)) ??
    newestFirst.find(d => !d.deprecated) ?? newestFirst[0]
}

/** The name of a version in Swagger UI's picker. */
export function pickerName (document: ApiVersionDocument): string {
  return document.deprecated ? `${document.version} (deprecated)` : document.version
}

/**
 * Swagger UI's configuration (its `configUrl`): the picker's list, newest first, and where it starts; with no
 * version served, a document with no operation whose description says so, named by the base document's title.
 */
export function swaggerConfig (documents: readonly ApiVersionDocument[], routePrefix: string, base: OpenApiDocument): SwaggerConfig {
  const primary = primaryVersion(documents)
  if (primary === undefined) {
    return { spec: { openapi: base.openapi, info: { title: base.info.title, version: '', description: 'No version of this API is served.' }, paths: {} } }
  }
  return {
    urls: [...documents].reverse().map(d => ({ url: `${routePrefix}/${d.version}.json`, name: pickerName(d) })),
    'urls.primaryName': pickerName(primary)
  }
}

/**
 * Registers @fastify/swagger-ui in a context of its own (its `swaggerCSP` decorator stays there, beside any
 * registration of the app's own), with the picker fed by `swagger-config` and the guard on every route. Its
 * `json` and `yaml` routes would ask the app's `swagger()`: they redirect to the primary version's document
 * instead, once the guard has let the request through (404 where no version is served). Authorization is kept
 * when the picker switches versions.
 */
export function registerUi (
  fastify: FastifyInstance, swaggerUi: FastifyPluginCallback<Record<string, unknown>>, ui: ApiVersioningOpenApiUiOptions & { routePrefix: string },
  guard: Guard, routePrefix: string, primary: () => string | undefined
): void {
  async function redirect (request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const url = request.routeOptions.url as string
    if (url.endsWith('/json') || url.endsWith('/yaml')) {
      const version = primary()
      if (version === undefined) return reply.callNotFound()
      return reply.redirect(`${routePrefix}/${version}.${url.endsWith('/json') ? 'json' : 'yaml'}`)
    }
  }
  fastify.register(async function docsPage (scope) {
    await scope.register(swaggerUi, {
      ...ui,
      theme: withChangelogLink(ui.theme, `${routePrefix}/changelog`),
      uiConfig: { persistAuthorization: true, ...ui.uiConfig, configUrl: `${routePrefix}/swagger-config` },
      uiHooks: { onRequest: guard.onRequest, preHandler: [...guard.preHandler, redirect] }
    })
  })
}

interface ThemeFile { filename: string, content: string }
interface Theme { js?: ThemeFile[], css?: ThemeFile[], [option: string]: unknown }

/**
 * The app's theme of the docs page (@fastify/swagger-ui's `theme`), with a link to the changelog: a script and a
 * style of the page's own (served by the page's routes, as its scripts are: no inline script for a CSP to refuse).
 */
export function withChangelogLink (theme: unknown, href: string): Theme {
  const own = (typeof theme === 'object' && theme !== null ? theme : {}) as Theme
  const script = `document.addEventListener('DOMContentLoaded', function () { var a = document.createElement('a'); a.className = 'api-versioning-changelog'; a.href = ${JSON.stringify(href)}; a.textContent = 'Changelog'; document.body.appendChild(a) })`
  const style = '.api-versioning-changelog { position: fixed; right: 1rem; bottom: 1rem; z-index: 10; padding: 0.5rem 0.9rem; border-radius: 4px; background: #1b1b1b; color: #fff; font: 600 14px sans-serif; text-decoration: none }'
  return {
    ...own,
    js: [...Array.isArray(own.js) ? own.js : [], { filename: 'api-versioning-changelog.js', content: script }],
    css: [...Array.isArray(own.css) ? own.css : [], { filename: 'api-versioning-changelog.css', content: style }]
  }
}
