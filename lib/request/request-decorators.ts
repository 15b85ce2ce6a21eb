import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiVersion } from '../api-version.js'
import { kOutcome, type RawRequest } from './request-reader.js'
import { sourceOf, type ApiVersionSource } from './source.js'

/**
 * `request.apiVersion` and `request.apiVersionSource`: read from the request's outcome when asked, so that requests
 * pay nothing for them (a plain decorator is one more property to set on every request); set by a hook or
 * handler, each becomes the request's own.
 */
export function decorateRequests (fastify: FastifyInstance): void {
  fastify.decorateRequest('apiVersion', {
    getter (this: FastifyRequest) {
      return (this.raw as RawRequest)[kOutcome]?.served ?? null
    },
    setter (this: FastifyRequest, value: ApiVersion | null) {
      Object.defineProperty(this, 'apiVersion', { value, writable: true, enumerable: true, configurable: true })
    }
  })
  fastify.decorateRequest('apiVersionSource', {
    getter (this: FastifyRequest) {
      return sourceOf((this.raw as RawRequest)[kOutcome])
    },
    setter (this: FastifyRequest, value: ApiVersionSource | null) {
      Object.defineProperty(this, 'apiVersionSource', { value, writable: true, enumerable: true, configurable: true })
    }
  })
}
