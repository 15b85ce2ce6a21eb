import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { ApiVersion } from '../api-version.js'
import { readClock } from '../lifecycle/clock.js'
import { kDocumentedRoutes } from '../routing/declaration-state.js'
import { kState, type ApiVersioningState } from '../state.js'
import type { ChangesContext } from '../changes/changes-context.js'
import { describeChanges } from '../changes/changes-description.js'
import { apiVersionChanges, compareVersions, type ApiVersionChanges } from '../changes/compare-versions.js'
import type { ApiVersionDocument, OpenApiDocument } from '../changes/document.js'
import { releaseGate } from '../changes/release-gate.js'
import { changesContext } from './changes-context.js'
import { RouteCollector, type RouteTransform } from './collect.js'
import { lifecycleInstants, periodAt } from './lifecycle.js'
import { resolveOpenApiOptions, type ApiVersioningOpenApiOptions, type ResolvedOpenApiOptions } from './options.js'
import { checkOrder } from './order.js'
import { checkReach } from './reach.js'
import { registerCollecting } from './swagger-routes.js'
import { loadPeer } from './peers.js'
import { splitDocument } from './split.js'
import { primaryVersion, registerUi, swaggerConfig, type SwaggerConfig } from './ui.js'
import { changelogEntries, changelogPage, type ChangelogEntry } from './changelog.js'
import { checkSchemaNames } from './schema-names.js'
import { errorSchemas } from './responses.js'
import { toYaml } from './yaml.js'
import { warnDangling } from './dangling-warning.js'
import { coded } from '../errors.js'
import { FASTIFY_RANGE } from '../fastify-range.js'
import { isComponentName } from '../util/component-name.js'

export type { ApiVersionChanges, OperationChange, OperationChanges } from '../changes/compare-versions.js'
export type { RouteTransform, RouteTransformArgs } from './collect.js'
export type { ApiVersioningOpenApiOptions, ApiVersioningOpenApiUiOptions, GuardHooks, OpenApiBase, TransformObjectContext } from './options.js'
export type { ApiVersionDocument, OpenApiDocument } from '../changes/document.js'
export type { SwaggerConfig } from './ui.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * One OpenAPI document per API version, ascending; available once the app is ready. Copies of the documents as
     * served, made on each call: editing them changes nothing the app serves.
     */
    apiVersionDocuments (): readonly ApiVersionDocument[]
    /** What changed from each version to the next, ascending; available once the app is ready. */
    apiVersionChanges (): readonly ApiVersionChanges[]
  }
}

// The decorator of the plugin's own @fastify/swagger registration: a symbol, so the app can have its own.
const kSwagger = Symbol('fastify-api-versioning.openapi.swagger')
const hidden = { hide: true } as FastifySchema

interface ServedDocument { readonly document: ApiVersionDocument, json?: string, yaml?: string }

interface Served {
  /** The lifecycle period the documents are for (see `lifecycleInstants`). */
  readonly period: number
  readonly documents: readonly ApiVersionDocument[]
  readonly changes: readonly ApiVersionChanges[]
  /** What the documents write for their version by design: the release gate compares with it too. */
  readonly context: ChangesContext
  /** By version key, ascending: the document as JSON and as YAML text, made on first request. */
  readonly byKey: Map<string, ServedDocument>
  readonly config: SwaggerConfig
  /** The changelog (see changelog.ts), its data and its page, made on first request. */
  changelog?: { readonly entries: readonly ChangelogEntry[], page?: string }
}

async function openApiPlugin (fastify: FastifyInstance, rawOptions: ApiVersioningOpenApiOptions): Promise<void> {
  const state = (fastify as unknown as Record<symbol, ApiVersioningState | undefined>)[kState]
  // A plugin of that name that is not apiVersioning passes Fastify's dependency check.
  if (state === undefined) {
    throw coded(new Error('fastify-api-versioning/openapi: register apiVersioning (from fastify-api-versioning) first, then this plugin, then the routes; apiVersioning must be where this plugin is, or above it (at the root), not inside another plugin'), 'FST_API_VERSIONING_OPENAPI_ORDER')
  }
  if (fastify.hasDecorator('apiVersionDocuments')) {
    throw coded(new Error('fastify-api-versioning/openapi is registered twice: register it once, after apiVersioning'), 'FST_API_VERSIONING_OPENAPI_ORDER')
  }
  const { options: versioning, paths, errorObjects, shared } = state
  const options: ResolvedOpenApiOptions = resolveOpenApiOptions(rawOptions)
  checkOrder(fastify, state)
  checkReach(fastify, state)
  const swagger = await loadPeer<FastifyPluginCallback<Record<string, unknown>>>('@fastify/swagger', 'the OpenAPI documents')
  const swaggerUi = options.ui === null ? null : await loadPeer<FastifyPluginCallback<Record<string, unknown>>>('@fastify/swagger-ui', 'the ui option')
  const collector = new RouteCollector(options.transform)

  // A route's own transform, which @fastify/swagger runs instead of the global one, numbers the route too.
  const wrapTransform = (route: RouteOptions): void => {
    const own = (route.config as { swaggerTransform?: RouteTransform | false } | undefined)?.swaggerTransform
    if (own !== undefined) route.config = { ...route.config, swaggerTransform: collector.wrap(own) } as typeof route.config
  }
  const document = await registerCollecting(fastify, swagger, {
    openapi: options.openapi,
    decorator: kSwagger,
    transform: collector.globalTransform,
    // Shared schemas keep their $id as their component's name, where it can be one.
    refResolver: {
      buildLocalReference (json: Record<string, unknown>, _base: unknown, _fragment: string, i: number): string {
        if (typeof json.$id === 'string' && isComponentName(json.$id)) return json.$id
        if (json.title === undefined && typeof json.$id === 'string') json.title = json.$id
        return `def-${i}`
      }
    }
  })
  fastify.addHook('onRoute', function apiVersioningOpenApiRouteTransform (route: RouteOptions) {
    wrapTransform(route)
    // The shapes of a versionChanges route's older versions, documented where it is declared.
    for (const shape of (route as { [kDocumentedRoutes]?: () => RouteOptions[] })[kDocumentedRoutes]?.() ?? []) {
      wrapTransform(shape)
      document(shape)
    }
  })

  // Where a page or a document links to the documents: under the prefix of the plugin the entry is registered in,
  // which Fastify gives the routes but not these texts.
  const links = fastify.prefix + options.routePrefix
  // Documents change only when a deprecation takes effect or an enforced sunset passes: one set per period,
  // made on first use in it from the combined document, which is made once the routes are final (at ready).
  const instants = lifecycleInstants(versioning.policies)
  let combined: OpenApiDocument | null = null
  let served: Served | null = null
  function serve (): Served {
    if (combined === null) throw coded(new Error('fastify-api-versioning/openapi: apiVersionDocuments() and apiVersionChanges() are available once the app is ready (await app.ready())'), 'FST_API_VERSIONING_NOT_READY')
    const time = clock()
    const period = periodAt(instants, time)
    if (served?.period === period) return served
    const split = splitDocument(combined, collector.routes, {
      options: versioning, errorObjects, transformObject: options.transformObject, paths, time, shared
    })
    // Compared as served: the same period's documents, after transformObject.
    const context = changesContext(combined, collector.routes, versioning)
    const changes = apiVersionChanges(compareVersions(split, context), descriptionsSince)
    warnDangling(fastify.log, split)
    const documents = Object.freeze(describeChanges(split, changes))
    served = {
      period,
      documents,
      changes,
      context,
      byKey: new Map(documents.map(document => [ApiVersion.parse(document.version).key, { document }])),
      config: swaggerConfig(documents, links, combined)
    }
    return served
  }
  // What each version of the versionChanges option changed, in words; none for other versions.
  function descriptionsOf (version: string): readonly string[] {
    const wanted = ApiVersion.parse(version)
    return versioning.versionList?.find(listed => listed.version.equals(wanted))?.changes.map(change => change.description) ?? []
  }
  // What a client of `from` meets in `to`, oldest first: a version between them, retired by its enforced sunset,
  // changed it too (a behaviour change that no document shows would be said nowhere else).
  function descriptionsSince (from: string, to: string): readonly string[] {
    const [after, upTo] = [ApiVersion.parse(from), ApiVersion.parse(to)]
    return (versioning.versionList ?? []).filter(({ version }) => version.compareTo(after) > 0 && version.compareTo(upTo) <= 0)
      .reverse().flatMap(listed => listed.changes.map(change => change.description))
  }
  // The app's clock may be the user's: a throw or a value that is no time fails the request that needs it.
  function clock (): number {
    const time = readClock(versioning.now, 'fastify-api-versioning/openapi')
    if (typeof time === 'number') return time
    throw time
  }
  fastify.addHook('onReady', async function apiVersioningOpenApiDocuments () {
    collector.building = true
    try {
      combined = JSON.parse(JSON.stringify((fastify as unknown as Record<symbol, () => unknown>)[kSwagger]())) as OpenApiDocument
    } finally {
      collector.building = false
    }
    checkSchemaNames(versioning.versionList, new Set([...Object.keys({ ...combined.components?.schemas }), ...Object.keys(errorSchemas(combined.openapi))]))
  })
  // Copies, the caller's own to edit (a build step that publishes them elsewhere), of the JSON the routes serve.
  fastify.decorate('apiVersionDocuments', () => [...serve().byKey.values()].map(entry => ({ ...entry.document, document: JSON.parse(json(entry)) as OpenApiDocument })))
  fastify.decorate('apiVersionChanges', () => serve().changes)
  state.releaseGate = releaseGate({ served: serve, policies: versioning.policies, now: clock })

  // Unversioned and hidden: no version is needed to read the documents, and they document nothing of theirs.
  const routeOptions = { schema: hidden, onRequest: options.guard.onRequest, preHandler: options.guard.preHandler }
  fastify.get(`${options.routePrefix}/swagger-config`, routeOptions, async () => serve().config)
  fastify.get(`${options.routePrefix}/changes.json`, routeOptions, async () => serve().changes)
  // What changed in each version, for clients: newest first, as data and as a page.
  const changelog = (): NonNullable<Served['changelog']> => {
    const current = serve()
    current.changelog ??= { entries: changelogEntries(current.documents, current.changes, descriptionsOf) }
    return current.changelog
  }
  fastify.get(`${options.routePrefix}/changelog.json`, routeOptions, async () => changelog().entries)
  fastify.get(`${options.routePrefix}/changelog`, routeOptions, async (request, reply) => {
    const current = changelog()
    const title = (combined as OpenApiDocument).info.title
    current.page ??= changelogPage(title, current.entries, { routePrefix: links, docs: options.ui === null ? null : fastify.prefix + options.ui.routePrefix })
    return reply.type('text/html; charset=utf-8').send(current.page)
  })
  fastify.get(`${options.routePrefix}/:file`, routeOptions, async function (request: FastifyRequest, reply: FastifyReply) {
    const file = (request.params as { file: string }).file
    const asJson = file.endsWith('.json')
    const version = asJson || file.endsWith('.yaml') ? ApiVersion.tryParse(file.slice(0, -5)) : null
    const entry = version === null ? undefined : serve().byKey.get(version.key)
    if (entry === undefined) return reply.callNotFound()
    if (asJson) return reply.type('application/json; charset=utf-8').send(json(entry))
    return reply.type('application/yaml; charset=utf-8').send(entry.yaml ??= toYaml(entry.document.document))
  })

  if (swaggerUi !== null && options.ui !== null) {
    registerUi(fastify, swaggerUi, options.ui, options.guard, links, () => primaryVersion(serve().documents)?.version)
  }
}

// A document as its route serves it: JSON text, made once.
function json (entry: ServedDocument): string {
  entry.json ??= JSON.stringify(entry.document.document)
  return entry.json
}

/**
 * One OpenAPI document per API version, built from the routes' schemas by @fastify/swagger, and optionally a
 * docs page with a version picker (@fastify/swagger-ui). Register it after `apiVersioning`, before the routes.
 */
// No `dependencies: ['fastify-api-versioning']`: Fastify would check it before the plugin runs, with a message that
// says neither the order nor where (test/unit/openapi-startup.test.ts); the plugin's own check refuses the same set-ups.
export const apiVersioningOpenApi = fp(openApiPlugin, {
  fastify: FASTIFY_RANGE,
  name: 'fastify-api-versioning-openapi',
  // Fastify refuses the plugin where no apiVersioning is registered in its scope or above, before it runs.
  dependencies: ['fastify-api-versioning']
})
export default apiVersioningOpenApi
