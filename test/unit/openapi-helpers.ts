import { Validator } from '@seriousme/openapi-schema-validator'
import Fastify, { type FastifyInstance } from 'fastify'
import apiVersioning, { type ApiVersioningOptions } from '../../lib/index.js'
import apiVersioningOpenApi, { type ApiVersioningOpenApiOptions, type OpenApiDocument } from '../../lib/openapi/index.js'
import { problem as versionProblem } from './helpers.js'

/** An app with both plugins registered; `routes` adds routes after them; ready. */
export async function buildDocs (
  versioning: ApiVersioningOptions = { problemDetails: true },
  openapi: ApiVersioningOpenApiOptions = {},
  routes: (app: FastifyInstance) => void | Promise<void> = () => {}
): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(apiVersioning, versioning)
  await app.register(apiVersioningOpenApi, openapi)
  await routes(app)
  await app.ready()
  return app
}

/** The document of `version`. */
export function documentOf (app: FastifyInstance, version: string): OpenApiDocument {
  const found = app.apiVersionDocuments().find(d => d.version === version)
  if (found === undefined) throw new Error(`no document for ${version}`)
  return found.document
}

type Operation = Record<string, any>

/** Every operation of a document as `METHOD path`. */
export function operations (document: OpenApiDocument): Record<string, Operation> {
  const found: Record<string, Operation> = {}
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) found[`${method.toUpperCase()} ${path}`] = operation as Operation
  }
  return found
}

const PATH_PARAM = /\{([^}]+)\}/g
// One validator: it compiles the OpenAPI schemas once.
const validator = new Validator()

/**
 * What is wrong with a document: what the OpenAPI validator finds, then what validators miss. Every `{param}`
 * of a path has its parameter, operationIds are unique, no parameter is listed twice, every local $ref resolves.
 */
export async function problemsOf (document: OpenApiDocument): Promise<string[]> {
  const problems: string[] = []
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>)
  if (!result.valid) problems.push('invalid OpenAPI: ' + JSON.stringify(result.errors))
  const ids = new Set<string>()
  for (const [label, operation] of Object.entries(operations(document))) {
    const path = label.slice(label.indexOf(' ') + 1)
    const parameters: Array<{ name: string, in: string }> = operation.parameters ?? []
    for (const [, name] of path.matchAll(PATH_PARAM)) {
      if (!parameters.some(p => p.in === 'path' && p.name === name)) problems.push(`${label}: no parameter for {${name}}`)
    }
    for (const p of parameters) {
      if (p.in === 'path' && !path.includes(`{${p.name}}`)) problems.push(`${label}: path parameter ${p.name} is not in the path`)
    }
    const seen = new Set(parameters.map(p => p.in + ' ' + (p.in === 'header' ? p.name.toLowerCase() : p.name)))
    if (seen.size !== parameters.length) problems.push(`${label}: a parameter is listed twice`)
    if (operation.operationId !== undefined) {
      if (ids.has(operation.operationId)) problems.push(`${label}: operationId ${operation.operationId} is not unique`)
      ids.add(operation.operationId)
    }
  }
  const text = JSON.stringify(document)
  for (const [, ref] of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"/]+)/g)) {
    if (document.components?.schemas?.[ref] === undefined) problems.push(`$ref to missing schema ${ref}`)
  }
  return problems
}

/** Checks every document of the app. */
export async function allProblems (app: FastifyInstance): Promise<string[]> {
  const problems: string[] = []
  for (const { version, document } of app.apiVersionDocuments()) {
    for (const problem of await problemsOf(document)) problems.push(`${version}: ${problem}`)
  }
  return problems
}

type Kind = Parameters<typeof versionProblem>[0]
/** The version problems of a versioned operation at 400, unless versions are assumed or in its path. */
export const ALL_400: Kind[] = ['unspecified', 'invalid', 'ambiguous', 'unsupported']

/** A version error's body at `status`: ProblemDetails, with the problems the server sends there as its examples. */
export function problemsAt (status: number, kinds: Kind[]): Record<string, unknown> {
  return {
    schema: { $ref: '#/components/schemas/ProblemDetails' },
    examples: Object.fromEntries(kinds.map(kind => [kind, { summary: versionProblem(kind).title, value: versionProblem(kind, status) }]))
  }
}

/** The same as error objects (with `errorObjects`), `target` where the version is read. */
export function errorObjectsAt (status: number, kinds: Kind[], target = 'api-version'): Record<string, unknown> {
  return {
    schema: { $ref: '#/components/schemas/ErrorObject' },
    examples: Object.fromEntries(kinds.map(kind => {
      const { title, detail, code } = versionProblem(kind, status)
      return [kind, { summary: title, value: { error: { code, message: title, target, innerError: { message: detail } } } }]
    }))
  }
}
