import { createRequire } from 'node:module'

/**
 * The package's version, from its own package.json (which its `exports` lists): the same file from the sources and
 * from the published build, wherever either is.
 */
export function ownVersion (): string {
  return (createRequire(import.meta.url)('fastify-api-versioning/package.json') as { version: string }).version
}
