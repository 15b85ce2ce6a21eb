import type { ApiVersion } from '../api-version.js'
import type { ResolvedOptions } from '../options.js'
import type { ResolvedOpenApiOptions } from './options.js'
import type { PathEntry } from '../routing/route-table.js'
import type { ApiVersionDocument, OpenApiDocument } from '../changes/document.js'
import { isRetired } from '../lifecycle/policies.js'
import { PLAIN, SEPARATOR, type CollectedRoute } from './collect.js'
import { describePolicy, isDeprecated, versionMediaTypes } from './lifecycle.js'
import { describeVersionParameters, type OperationObject } from './parameters.js'
import { assumedVersions, type DocumentedOperation } from './assumed-version.js'
import { describeResponses, errorSchemas, type ErrorObjectsMode } from './responses.js'
import { messageOf, serverError } from '../util/server-error.js'
import { isObject } from '../util/is-object.js'
import { droppedPromise } from '../util/is-thenable.js'
import { renameSchemas, schemaNamesAt } from './schema-names.js'
import { componentOf } from './component-ref.js'
import { anchored } from '../changes/anchored-refs.js'
import { hoistedDefinitions } from './hoisted-definitions.js'
import { documentEndpoint, isHiddenEndpoint } from './endpoint-docs.js'
import { documentWebhooks } from './webhooks.js'
import { hoistSharedCopies } from './shared-copies.js'
import type { SharedSchemas } from '../version-changes/shared-ref.js'

export interface SplitContext {
  readonly options: ResolvedOptions
  readonly errorObjects: ErrorObjectsMode
  readonly transformObject: ResolvedOpenApiOptions['transformObject']
  /** The versions of each router path (sealed), for the version headers. */
  readonly paths: ReadonlyMap<string, PathEntry>
  /** The time the documents are for: lifecycle is judged at it. */
  readonly time: number
  /** The plugin's shared schemas, which the webhooks' payloads are read with. */
  readonly shared: SharedSchemas
}

const UNDECLARED: CollectedRoute = Object.freeze({ declaration: PLAIN, validates: false, url: '' })
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

interface PathRoute {
  /** The documented path, without the route's number. */
  readonly path: string
  readonly route: CollectedRoute
  readonly item: Record<string, unknown>
}

/**
 * Cuts the combined document (every route, each at its own numbered url) into one document per API version,
 * ascending. The versions are those the documented routes declare and those of the versionChanges option, or the
 * default version when none does.
 */
export function splitDocument (combined: OpenApiDocument, collected: readonly CollectedRoute[], context: SplitContext): ApiVersionDocument[] {
  const routes: PathRoute[] = []
  const versions = new Map<string, ApiVersion>()
  const supported = new Set<string>()
  for (const [key, item] of Object.entries(combined.paths)) {
    const cut = key.lastIndexOf(SEPARATOR)
    // Paths of the base document are nobody's route.
    const route = cut === -1 ? UNDECLARED : collected[Number(key.slice(cut + 1))]
    routes.push({ path: cut === -1 ? key : key.slice(0, cut), route, item })
    const { declaration } = route
    for (const v of declaration.supported) {
      supported.add(v.key)
      if (!versions.has(v.key)) versions.set(v.key, v)
    }
    for (const v of declaration.deprecated) if (!versions.has(v.key)) versions.set(v.key, v)
  }
  // Each version of the versionChanges option has its document, one no route serves too (its endpoints removed).
  for (const { version, deprecated } of context.options.versionList ?? []) {
    if (versions.has(version.key)) continue
    versions.set(version.key, version)
    if (!deprecated) supported.add(version.key)
  }
  if (versions.size === 0) {
    versions.set(context.options.defaultVersion.key, context.options.defaultVersion)
    supported.add(context.options.defaultVersion.key)
  }
  const { policies } = context.options
  // A version past its enforced sunset is served no more: it has no document.
  const live = [...versions.values()].filter(version => !isRetired(policies.get(version.key), context.time))
  const operations = routes.flatMap(({ route, item }): DocumentedOperation[] => Object.keys(item).filter(method => METHODS.has(method)).map(method => ({ method, declaration: route.declaration })))
  const assumed = assumedVersions(operations, context.options, context.time)

  return live.sort((a, b) => a.compareTo(b)).map(version => {
    // No route supports it any more, or its deprecation has taken effect (the server sends Deprecation).
    const deprecated = !supported.has(version.key) || isDeprecated(policies.get(version.key), context.time)
    let document = versionDocument(combined, routes, version, deprecated, assumed, context)
    if (context.transformObject !== null) document = transformed(context.transformObject, document, String(version))
    // A schema's refs to its own definitions, which @fastify/swagger copies as they are: from the document's root.
    document = hoistedDefinitions(anchored(document).document)
    return Object.freeze({ version: String(version), deprecated, document })
  })
}

/**
 * The app's transformObject, called where the documents are made (a request for one, apiVersionDocuments()): what
 * it throws, or gives other than a document, is an error of the server that names it; a promise's rejection is
 * handled, or it would end the process.
 */
function transformed (transform: NonNullable<SplitContext['transformObject']>, document: OpenApiDocument, version: string): OpenApiDocument {
  let given: unknown
  try {
    given = transform({ document, openapiObject: document, version })
  } catch (error) {
    throw serverError('FST_API_VERSIONING_OPENAPI_TRANSFORM_FAILED', `fastify-api-versioning/openapi: transformObject threw for version ${version}`, error)
  }
  if (isObject(given) && isObject(given.info) && isObject(given.paths)) return given as OpenApiDocument
  const what = droppedPromise(given) ? 'a promise; it must return the document synchronously' : `${messageOf(given)}, not a document with info and paths`
  throw serverError('FST_API_VERSIONING_OPENAPI_TRANSFORM_FAILED', `fastify-api-versioning/openapi: transformObject returned ${what} (version ${version})`)
}

function versionDocument (
  combined: OpenApiDocument, routes: PathRoute[], version: ApiVersion, deprecated: boolean,
  assumed: ReturnType<typeof assumedVersions>, context: SplitContext
): OpenApiDocument {
  const text = String(version)
  const paths: OpenApiDocument['paths'] = {}
  const operationIds = new Set<string>()
  for (const { path, route, item } of routes) {
    const { declaration } = route
    const routeDeprecated = declaration.deprecated.some(v => v.equals(version))
    const versioned = declaration.kind === 'versioned'
    if (versioned && !routeDeprecated && !declaration.supported.some(v => v.equals(version))) continue
    const documented = declaration.inPath ? path.replaceAll(`{${context.options.segmentName}}`, text) : path
    // What the server sends on this router path now: a version retired by its sunset has left the headers.
    const reported = context.paths.get(declaration.pathKey)?.at(context.time)
    const shown = Object.keys(item).filter(method => !METHODS.has(method) || !isHiddenEndpoint(context.options.versionList, version, method.toUpperCase(), route.url))
    // A path whose every operation is hidden is left out, path and all.
    if (!shown.some(method => METHODS.has(method))) continue
    const target = paths[documented] ?? (paths[documented] = {})
    for (const method of shown) {
      const value = item[method]
      if (!METHODS.has(method)) {
        target[method] = structuredClone(value)
        continue
      }
      const operation = structuredClone(value) as OperationObject
      // Fastify answers 400 to a request without the body a route's schema declares; @fastify/swagger 9.4 says so
      // only where the body has required properties, later versions always, and the documents must not depend on it.
      if (operation.requestBody !== undefined) operation.requestBody.required = true
      if (routeDeprecated || (versioned && deprecated)) operation.deprecated = true
      documentEndpoint(operation, context.options.versionList, version, method.toUpperCase(), route.url)
      describeVersionParameters(operation, declaration, version, assumed(method, declaration), context.options)
      describeResponses(operation, route, {
        ...context, supportedHeader: reported?.supported ?? null, deprecatedHeader: reported?.deprecated ?? null
      })
      if (context.options.mediaType !== null && versioned) versionMediaTypes(operation, version, context.options.mediaType)
      uniqueOperationId(operation, method, operationIds)
      target[method] = operation
    }
  }

  // Each document is the caller's to change (transformObject): it shares nothing with the others.
  const document: OpenApiDocument = { ...structuredClone({ ...combined, paths: {} }), paths }
  document.info.version = text
  const policy = context.options.policies.get(version.key)
  if (deprecated && policy?.deprecationPolicy == null) {
    const notice = 'This API version is deprecated.'
    document.info.description = combined.info.description === undefined ? notice : `${combined.info.description}\n\n${notice}`
  }
  describePolicy(document.info, policy)
  documentWebhooks(document, version, context.options, context.shared)
  hoistSharedCopies(document)
  const schemas: Record<string, unknown> = { ...document.components?.schemas, ...errorSchemas(document.openapi) }
  document.components = { ...document.components, schemas: reachable(document, schemas) }
  renameSchemas(document, schemaNamesAt(context.options.versionList, version))
  return document
}

// Two methods of one route share its operationId: the second gets its method appended.
function uniqueOperationId (operation: OperationObject, method: string, seen: Set<string>): void {
  if (operation.operationId === undefined) return
  let id = operation.operationId
  for (let n = 2; seen.has(id); n++) id = `${operation.operationId}-${method}${n === 2 ? '' : n}`
  seen.add(id)
  operation.operationId = id
}

/** The component schemas that the rest of the document refers to, directly or through each other. */
function reachable (document: OpenApiDocument, schemas: Record<string, unknown>): Record<string, unknown> {
  const names = new Set<string>()
  const queue: unknown[] = [{ ...document, components: { ...document.components, schemas: undefined } }]
  while (queue.length > 0) {
    const value = queue.pop()
    if (typeof value !== 'object' || value === null) continue
    for (const [key, child] of Object.entries(value)) {
      const name = key === '$ref' && typeof child === 'string' ? componentOf(child) : null
      if (name !== null) {
        if (!names.has(name) && schemas[name] !== undefined) {
          names.add(name)
          queue.push(schemas[name])
        }
      } else {
        queue.push(child)
      }
    }
  }
  const kept: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(schemas)) if (names.has(name)) kept[name] = schema
  return kept
}
