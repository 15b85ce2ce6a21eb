import { createRequire } from 'node:module'

/**
 * A `require` that resolves as this module's `import()` does, to read a peer's package.json (the CommonJS build
 * has its own, see scripts/bundle.mjs).
 * @internal
 */
export const peerRequire: NodeJS.Require = createRequire(import.meta.url)
