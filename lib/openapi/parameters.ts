import type { ApiVersion } from '../api-version.js'
import type { ResolvedOptions } from '../options.js'
import type { DeclarationState } from '../routing/declaration-state.js'

export interface ParameterObject {
  name: string
  in: string
  description?: string
  required?: boolean
  schema?: Record<string, unknown>
  [keyword: string]: unknown
}

export interface OperationObject {
  operationId?: string
  deprecated?: boolean
  parameters?: Array<ParameterObject | { $ref: string }>
  responses?: Record<string, unknown>
  requestBody?: { required?: boolean, [keyword: string]: unknown }
  [keyword: string]: unknown
}

const DESCRIPTION = 'The requested API version'

/**
 * Documents where an operation reads the version, in the document of `version`. As ASP.NET's API explorer:
 * one parameter per place (the first query name, the first header name), only the first required (but in the
 * document of `assumed`, the version a request that gives none is served there), and none when the path carries
 * the version, whose parameter goes as the version is written into the path. The other
 * version query names are the plugin's too (apiVersioning adds them to strict querystring schemas, so that
 * validation takes them): they are no ordinary parameter of any route.
 */
export function describeVersionParameters (
  operation: OperationObject, declaration: DeclarationState, version: ApiVersion, assumed: ApiVersion | null, options: ResolvedOptions
): void {
  if (declaration.kind === 'plain') return
  const documented = declaration.kind === 'versioned' && !declaration.inPath ? options.queryNames[0] : undefined
  const plugins = new Set(options.queryNames.map(name => name.toLowerCase()))
  let parameters = (operation.parameters ?? []).filter(p => !('in' in p && p.in === 'query' && p.name !== documented && plugins.has(p.name.toLowerCase())))
  if (declaration.inPath) {
    parameters = parameters.filter(p => !('in' in p && p.in === 'path' && p.name === options.segmentName))
  } else if (declaration.kind === 'versioned') {
    const places: Array<[string, string]> = []
    if (documented !== undefined) places.push(['query', documented])
    if (options.headerNames.length > 0) places.push(['header', options.headerNames[0]])
    const optional = assumed?.equals(version) === true
    const text = String(version)
    for (let i = 0; i < places.length; i++) {
      const [where, name] = places[i]
      merge(parameters, { name, in: where, description: DESCRIPTION, required: i === 0 && !optional, schema: { type: 'string', default: text, enum: [text] } })
    }
  }
  if (parameters.length > 0) operation.parameters = parameters
  else delete operation.parameters
}

// A route's own schema may declare the version parameter already: keep its words, but the version is ours.
function merge (parameters: NonNullable<OperationObject['parameters']>, parameter: ParameterObject): void {
  const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name
  const i = parameters.findIndex(p => 'in' in p && p.in === parameter.in && (p.in === 'header' ? p.name.toLowerCase() : p.name) === name)
  if (i === -1) {
    parameters.push(parameter)
    return
  }
  const own = parameters[i] as ParameterObject
  parameters[i] = {
    ...own,
    description: own.description ?? parameter.description,
    required: parameter.required,
    schema: { ...own.schema, ...parameter.schema }
  }
}
