import { createRequire } from 'node:module'

/**
 * A `require` that resolves as this module's `import()` does, to read a peer's package.json.
 * @internal
 */
export const peerRequire: NodeJS.Require = createRequire(import.meta.url)
