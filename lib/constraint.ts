import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { ApiVersion } from './api-version.js'

/** The router constraint the plugin owns. */
export const STRATEGY = 'apiVersion'
/**
 * The constraint value of the hidden route that takes every request no version route takes. Constraint values
 * are what `printRoutes()` shows, so they read as words.
 */
export const FALLBACK = '(version problems)'
/** Among a versioned route's versions: its path carries the version as a route parameter. */
export const IN_PATH = '(in path)'

type Strategy = Parameters<FastifyInstance['addConstraintStrategy']>[0]

/**
 * The router constraint strategy. A versioned route's value is the array of its versions as text (and
 * IN_PATH when its path carries the version); the hidden route's is FALLBACK. The derived value is the request
 * itself: a store reads the request's version only at a node that has versioned routes, so requests to other
 * routes pay nothing, and reads the path only at a node whose routes carry the version there.
 */
export function createVersionStrategy (versionOf: (req: IncomingMessage, inPath: boolean) => ApiVersion | null): Strategy {
  return <Strategy><unknown>{
    name: STRATEGY,
    mustMatchWhenDerived: false,
    deriveConstraint: (req: IncomingMessage) => req,
    // A store of one router node: bit masks of route indexes by version key (find-my-way's types call them handlers).
    storage () {
      const byKey = new Map<string, number>()
      let fallback = 0
      let inPath = false
      return {
        get (value: IncomingMessage | readonly string[] | string): number {
          if (typeof value === 'string') return fallback
          // A route's own versions, while the router builds this store: routes with other constraints (a host)
          // may share a version, so `set` adds the route's bit to each version's routes.
          if (Array.isArray(value)) return 0
          const version = versionOf(value as IncomingMessage, inPath)
          return (version !== null ? byKey.get(version.key) : undefined) ?? fallback
        },
        set (value: readonly string[] | string, bits: number) {
          if (typeof value === 'string') fallback = bits
          else {
            for (const text of value) {
              if (text === IN_PATH) inPath = true
              else {
                const key = (ApiVersion.tryParse(text) as ApiVersion).key
                byKey.set(key, (byKey.get(key) ?? 0) | bits)
              }
            }
          }
        }
      }
    }
  }
}
