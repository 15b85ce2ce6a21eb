import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { VersionOutcome } from './outcome.js'
import { kOutcome, type RawRequest } from './request-reader.js'
import { sourceOf } from './source.js'

/**
 * `request.apiVersion` and `request.apiVersionSource`: read from the request's outcome when asked, so that requests
 * pay nothing for them (a plain decorator is one more property to set on every request); set by a hook or
 * handler, each becomes the request's own.
 */
export function decorateRequests (fastify: FastifyInstance): void {
  fastify.decorateRequest('apiVersion', fromOutcome('apiVersion', outcome => outcome?.served ?? null))
  fastify.decorateRequest('apiVersionSource', fromOutcome('apiVersionSource', sourceOf))
}

function fromOutcome<T> (name: string, read: (outcome: VersionOutcome | undefined) => T) {
  return {
    getter (this: FastifyRequest): T {
      return read((this.raw as RawRequest)[kOutcome])
    },
    setter (this: FastifyRequest, value: T) {
      Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true })
    }
  }
}
