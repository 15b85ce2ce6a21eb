import type { FastifyReply } from 'fastify'
import { isObject } from '../util/is-object.js'
import { keyFor } from './status-key.js'

export type Serialize = (payload: unknown) => string

/**
 * A version's response serializers on the route that serves every older version of a `versionChanges` route: for a
 * reply, the serializer of its schema for the reply's status (the status, its class, `default`) and media type
 * (where the schema has `content`, or its catch-all type), as Fastify picks a route's, compiled at its first use by the route's
 * compiler (`reply.compileSerializationSchema`: the app's, or the route's own); null where the version has none.
 */
export interface VersionSerializers {
  (reply: FastifyReply): Serialize | null
  /** Compiles the serializers (of the statuses `of` takes) now, with a compiler as Fastify calls one, rather than at their first use. */
  compile: (compiler: SerializerCompiler, of?: (status: string) => boolean) => void
  /** The schema of a reply's media type, where its status's schema is by media type (`content`); else undefined. */
  byMediaType: (reply: FastifyReply) => unknown
}

/** A serializer compiler, as Fastify calls one. */
export type SerializerCompiler = (route: { schema: unknown, httpStatus: string, contentType?: string, method?: string, url?: string }) => unknown

// The serializers versionSerializers compiled (see isVersionSerializer).
const compiledSerializers = new WeakSet<object>()

/** Whether a reply's serializer is one of a version's (older-route.ts gives it the reply, or `noBody`), not the app's own. */
export function isVersionSerializer (serializer: unknown): boolean {
  return typeof serializer === 'function' && compiledSerializers.has(serializer)
}

/** The writer of a response a migration left without a body (`response.body = undefined`). */
export const noBody: Serialize = known(() => '')

export function versionSerializers (responses: ReadonlyMap<string, unknown> | undefined): VersionSerializers {
  const byKey = new Map([...responses ?? []].map(([status, schema]) => [status.toLowerCase(), schema]))
  const compiled = new Map<unknown, Serialize>()
  const compile = (compiler: SerializerCompiler, of: (status: string) => boolean = () => true): void => {
    for (const [httpStatus, schema] of byKey) {
      if (!of(httpStatus)) continue
      const media = isObject(schema) && isObject(schema.content) ? Object.entries(schema.content) : [[undefined, { schema }] as const]
      for (const [contentType, entry] of media) {
        const own = (entry as { schema: unknown }).schema
        if (!compiled.has(own)) compiled.set(own, known(compiler({ schema: own, httpStatus, contentType }) as Serialize))
      }
    }
  }
  const compiledFor = (reply: FastifyReply, schema: unknown, key: string, mediaType: string | undefined): Serialize => {
    let serialize = compiled.get(schema)
    if (serialize === undefined) {
      serialize = known(reply.compileSerializationSchema(schema as Record<string, unknown>, key, mediaType) as Serialize)
      compiled.set(schema, serialize)
    }
    return serialize
  }
  // The serializer of the last status asked for, where the schema has no media types: a route answers one status
  // again and again, and finding its key makes a string of the status each time.
  let lastStatus = -1
  let last: Serialize | null = null
  const remember = (status: number, serialize: Serialize | null): Serialize | null => {
    lastStatus = status
    last = serialize
    return serialize
  }
  return Object.assign(function serializerOf (reply: FastifyReply): Serialize | null {
    const status = reply.statusCode
    if (status === lastStatus) return last
    // Its keys are lower case, as Fastify reads a route's (`2XX` is `2xx`).
    const key = keyFor(byKey, status)
    if (key === undefined) return remember(status, null)
    const schema = byKey.get(key)
    if (isObject(schema) && isObject(schema.content)) {
      const mediaType = mediaTypeOf(reply, schema.content)
      if (mediaType === undefined) return null
      return compiledFor(reply, (schema.content[mediaType] as { schema?: unknown }).schema, key, mediaType)
    }
    return remember(status, compiledFor(reply, schema, key, undefined))
  }, {
    compile,
    byMediaType (reply: FastifyReply): unknown {
      // Asked of a status whose data converts: it has a schema.
      const schema = byKey.get(keyFor(byKey, reply.statusCode) as string)
      if (!isObject(schema) || !isObject(schema.content)) return undefined
      const mediaType = mediaTypeOf(reply, schema.content)
      return mediaType === undefined ? undefined : (schema.content[mediaType] as { schema?: unknown }).schema
    }
  })
}

function known (serialize: Serialize): Serialize {
  compiledSerializers.add(serialize)
  return serialize
}

// The media type of a reply's schema by media type, as Fastify picks it: its content type, else the catch-all.
function mediaTypeOf (reply: FastifyReply, content: Record<string, unknown>): string | undefined {
  const type = String(reply.getHeader('content-type')).split(';', 1)[0]
  return Object.hasOwn(content, type) ? type : Object.hasOwn(content, '*/*') ? '*/*' : undefined
}
