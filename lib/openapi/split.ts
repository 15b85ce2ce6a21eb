import { ApiVersion } from '../api-version.js'
import type { ResolvedOptions } from '../options.js'
import { ProblemDetailsSchema } from '../problem-schema.js'
import { formatVersions } from '../route-table.js'
import type { DeclarationState } from '../state.js'
import { SEPARATOR } from './collect.js'
import { describePolicy, isRetired, versionMediaTypes } from './lifecycle.js'
import { describeVersionParameters, type OperationObject } from './parameters.js'
import { describeVersionResponses, ERROR_OBJECT, ErrorObjectSchema, PROBLEM_DETAILS } from './responses.js'

/** An OpenAPI 3.0 or 3.1 document (see the `openapi-types` package for a full type). */
export interface OpenApiDocument {
  openapi: string
  info: { title: string, version: string, description?: string, [keyword: string]: unknown }
  paths: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, unknown>, [keyword: string]: unknown }
  [keyword: string]: unknown
}

/** One API version's document. */
export interface ApiVersionDocument {
  /** The version, as the routes declare it (`'1.0'`). */
  readonly version: string
  /** Deprecated: no route supports the version any more, though some still serve it. */
  readonly deprecated: boolean
  readonly document: OpenApiDocument
}

export interface SplitContext {
  readonly options: ResolvedOptions
  readonly errorObjects: boolean
  readonly transformObject: ((context: { document: OpenApiDocument, version: string }) => OpenApiDocument) | null
}

const PLAIN: DeclarationState = Object.freeze({ kind: 'plain', supported: [], deprecated: [], inPath: false })
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
const SCHEMA_REF = '#/components/schemas/'

interface PathRoute {
  /** The documented path, without the route's number. */
  readonly path: string
  readonly declaration: DeclarationState
  readonly item: Record<string, unknown>
}

/**
 * Cuts the combined document (every route, each at its own numbered url) into one document per API version,
 * ascending. The versions are those the documented routes declare, or the default version when none does.
 */
export function splitDocument (combined: OpenApiDocument, declarations: readonly DeclarationState[], context: SplitContext): ApiVersionDocument[] {
  const routes: PathRoute[] = []
  const versions = new Map<string, ApiVersion>()
  const supported = new Set<string>()
  for (const [key, item] of Object.entries(combined.paths)) {
    const cut = key.lastIndexOf(SEPARATOR)
    // Paths of the base document are nobody's route.
    const declaration = cut === -1 ? PLAIN : declarations[Number(key.slice(cut + 1))]
    routes.push({ path: cut === -1 ? key : key.slice(0, cut), declaration, item })
    for (const v of declaration.supported) {
      supported.add(v.key)
      if (!versions.has(v.key)) versions.set(v.key, v)
    }
    for (const v of declaration.deprecated) if (!versions.has(v.key)) versions.set(v.key, v)
  }
  if (versions.size === 0) {
    versions.set(context.options.defaultVersion.key, context.options.defaultVersion)
    supported.add(context.options.defaultVersion.key)
  }
  const headers = headersByPath(routes)
  // A version past its enforced sunset is served no more: it has no document.
  const now = context.options.now()
  const live = [...versions.values()].filter(version => !isRetired(context.options.policies.get(version.key), now))

  return live.sort((a, b) => a.compareTo(b)).map(version => {
    const deprecated = !supported.has(version.key)
    let document = versionDocument(combined, routes, headers, version, deprecated, context)
    if (context.transformObject !== null) document = context.transformObject({ document, version: String(version) })
    return Object.freeze({ version: String(version), deprecated, document })
  })
}

function versionDocument (
  combined: OpenApiDocument, routes: PathRoute[], headers: Map<string, [string | null, string | null]>,
  version: ApiVersion, deprecated: boolean, context: SplitContext
): OpenApiDocument {
  const text = String(version)
  const paths: OpenApiDocument['paths'] = {}
  const operationIds = new Set<string>()
  for (const { path, declaration, item } of routes) {
    const routeDeprecated = declaration.deprecated.some(v => v.equals(version))
    if (declaration.kind === 'versioned' && !routeDeprecated && !declaration.supported.some(v => v.equals(version))) continue
    const documented = declaration.inPath ? path.replaceAll(`{${context.options.segmentName}}`, text) : path
    const [supportedHeader, deprecatedHeader] = headers.get(path) as [string | null, string | null]
    const target = paths[documented] ?? (paths[documented] = {})
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method)) {
        target[method] = structuredClone(value)
        continue
      }
      const operation = structuredClone(value) as OperationObject
      if (routeDeprecated) operation.deprecated = true
      describeVersionParameters(operation, declaration, version, context.options)
      describeVersionResponses(operation, declaration, { ...context, supportedHeader, deprecatedHeader })
      if (context.options.mediaType !== null && declaration.kind === 'versioned') versionMediaTypes(operation, version, context.options.mediaType)
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
  const schemas: Record<string, unknown> = { ...document.components?.schemas }
  schemas[PROBLEM_DETAILS] = structuredClone(problemDetailsComponent)
  schemas[ERROR_OBJECT] = structuredClone(ErrorObjectSchema)
  document.components = { ...document.components, schemas: reachable(document, schemas) }
  return document
}

// As ProblemDetailsSchema, without its `$id`: the component's name is its identity in a document, and an
// OpenAPI 3.0 schema may not have one.
const { $id: _id, ...problemDetailsComponent } = JSON.parse(JSON.stringify(ProblemDetailsSchema))

// Two methods of one route share its operationId: the second gets its method appended.
function uniqueOperationId (operation: OperationObject, method: string, seen: Set<string>): void {
  if (operation.operationId === undefined) return
  let id = operation.operationId
  for (let n = 2; seen.has(id); n++) id = `${operation.operationId}-${method}${n === 2 ? '' : n}`
  seen.add(id)
  operation.operationId = id
}

// The version headers of each path, over all its methods and versions: what the server sends.
function headersByPath (routes: PathRoute[]): Map<string, [string | null, string | null]> {
  const byPath = new Map<string, [Map<string, ApiVersion>, Map<string, ApiVersion>]>()
  for (const { path, declaration } of routes) {
    let entry = byPath.get(path)
    if (entry === undefined) byPath.set(path, entry = [new Map(), new Map()])
    for (const v of declaration.supported) entry[0].set(v.key, v)
    for (const v of declaration.deprecated) entry[1].set(v.key, v)
  }
  const headers = new Map<string, [string | null, string | null]>()
  for (const [path, [supported, deprecated]] of byPath) {
    headers.set(path, [formatVersions([...supported.values()]), formatVersions([...deprecated.values()].filter(v => !supported.has(v.key)))])
  }
  return headers
}

/** The component schemas that the rest of the document refers to, directly or through each other. */
function reachable (document: OpenApiDocument, schemas: Record<string, unknown>): Record<string, unknown> {
  const names = new Set<string>()
  const queue: unknown[] = [{ ...document, components: { ...document.components, schemas: undefined } }]
  while (queue.length > 0) {
    const value = queue.pop()
    if (typeof value !== 'object' || value === null) continue
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF)) {
        const name = child.slice(SCHEMA_REF.length).split('/')[0]
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
