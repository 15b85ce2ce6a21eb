import type { FastifySchema, RouteOptions } from 'fastify'
import { coded } from '../errors.js'
import { messageOf } from '../util/server-error.js'
import { kDeclaration, type DeclarationState } from '../routing/declaration-state.js'
import { kPrefixRootOf } from '../routing/prefix-root.js'
import { endpointUrlOf } from '../routing/endpoint-url.js'
import { kOlderUrlParams, withOlderParams, type ParamRenames } from '../routing/older-url-params.js'
import { withOwnDefinitions } from './own-definitions.js'
import { isObject } from '../util/is-object.js'
import { droppedPromise } from '../util/is-thenable.js'

/**
 * Ends every documented url, followed by the route's index. @fastify/swagger keeps one operation per method
 * and path, so routes that share them (one per version) would overwrite each other; with a distinct url per
 * route they all reach the combined document, which `split` then cuts into one document per version.
 * A NUL cannot be in a route's url, and it ends a trailing `:param` as a route would.
 */
export const SEPARATOR = '\0'

/** What @fastify/swagger passes a `transform`. */
export interface RouteTransformArgs {
  schema: FastifySchema
  url: string
  route: RouteOptions
  openapiObject: Record<string, any>
}

/** A @fastify/swagger `transform`: the schema and url to document the route with; either may be left out. */
export type RouteTransform = (args: RouteTransformArgs) => { schema?: FastifySchema, url?: string }

interface Transformed { schema: FastifySchema, url: string }

/** A documented route: its declaration (which names the path the router files it under). */
export interface CollectedRoute {
  readonly declaration: DeclarationState
  /** Fastify validates some part of its requests (body, querystring, params, headers) and can answer 400 for it. */
  readonly validates: boolean
  /**
   * Its URL as declared, prefix included, or, at an older URL of a `versionChanges` route, that route's (what the
   * option's endpoint instructions name).
   */
  readonly url: string
}

const VALIDATED = ['body', 'querystring', 'query', 'params', 'headers'] as const

type DeclaredRoute = RouteOptions & { [kDeclaration]?: DeclarationState }

export const PLAIN: DeclarationState = Object.freeze({ kind: 'plain', supported: [], deprecated: [], inPath: false, pathKey: '', url: '' })

/** Numbers the routes that @fastify/swagger documents and keeps their declarations, by number. */
export class RouteCollector {
  /** Each documented route, by the index its url ends with. */
  readonly routes: CollectedRoute[] = []
  private readonly indexes = new WeakMap<object, number>()
  /** True while the plugin's own @fastify/swagger builds: only then do the routes' own transforms number the route. */
  building = false
  private readonly transform: RouteTransform | null

  constructor (transform: RouteTransform | null) {
    this.transform = transform
  }

  /** The `transform` of the plugin's own @fastify/swagger registration: the user's, then the numbering. */
  readonly globalTransform = (given: RouteTransformArgs): Transformed => {
    const args = placed(given)
    return this.number(args, this.transform === null ? {} : checked(this.transform(args), 'the transform option'))
  }

  /**
   * Wraps a route's `config.swaggerTransform`, which @fastify/swagger runs instead of the global transform.
   * Other @fastify/swagger registrations of the app share the route's config, and see the route's own result.
   */
  wrap (own: RouteTransform | false): RouteTransform {
    return given => {
      const args = placed(given)
      const result = own === false ? {} : checked(own(args), `the config.swaggerTransform of ${String(args.route.method)} ${args.route.url}`)
      return this.building ? this.number(args, result) : result
    }
  }

  private number (args: RouteTransformArgs, result: ReturnType<RouteTransform>): Transformed {
    const route = args.route as DeclaredRoute
    let index = this.indexes.get(route)
    if (index === undefined) {
      // A route the versioning plugin did not declare (none yet) is unversioned.
      const declaration = route[kDeclaration]
      index = this.routes.push({
        declaration: declaration ?? PLAIN,
        // With attachValidation the handler gets the error instead: Fastify answers no 400 of its own.
        validates: route.attachValidation !== true && VALIDATED.some(part => (route.schema as Record<string, unknown> | undefined)?.[part] != null),
        url: declaration === undefined ? route.url : endpointUrlOf(route, declaration.url)
      }) - 1
      this.indexes.set(route, index)
    }
    // A route at an older URL takes the route's parameter names, and documents the older URL's.
    const renames = (route as { [kOlderUrlParams]?: ParamRenames })[kOlderUrlParams]
    const schema = result.schema || args.schema
    return { schema: withOwnDefinitions(renames === undefined ? schema : withOlderParams(schema, renames)), url: (result.url || args.url) + SEPARATOR + index }
  }
}

/**
 * A route the plugin registered beside one at a prefix's root (another of its methods) is where that route is:
 * Fastify serves it at both, and documents the route at the url it ends with (see routing/prefix-root.ts).
 */
function placed (args: RouteTransformArgs): RouteTransformArgs {
  const root = (args.route as { [kPrefixRootOf]?: RouteOptions })[kPrefixRootOf]
  return root === undefined ? args : { ...args, url: root.url }
}

/**
 * What a transform of the app's gave, as @fastify/swagger reads it (it builds the documents at once): a promise is
 * no `{ schema, url }`, and its rejection must not end the process. The documents are made at `ready()`, which fails.
 */
function checked (given: unknown, name: string): ReturnType<RouteTransform> {
  const promise = droppedPromise(given)
  if (!promise && isObject(given)) return given
  const what = promise ? 'a promise; return { schema, url } synchronously' : `${messageOf(given)}, not { schema?, url? }`
  throw coded(new TypeError(`fastify-api-versioning/openapi: ${name} returned ${what}`), 'FST_API_VERSIONING_OPENAPI_OPTION')
}
