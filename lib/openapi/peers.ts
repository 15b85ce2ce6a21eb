import { coded } from '../errors.js'
import { importPeer } from '../util/import-peer.js'
import { peerRequire } from '../util/peer-require.js'

/**
 * The oldest version of each optional peer that the tests prove works (test/package/lowest-peers.test.ts installs these
 * very versions; package.json's peerDependencies are `^` these). @fastify/swagger before 9.4.0 has no
 * `decorator` option and fails at the first docs request; @fastify/swagger-ui 5.0.0 is its first for Fastify 5.
 */
export const LOWEST_PEERS = {
  '@fastify/swagger': '9.4.0',
  '@fastify/swagger-ui': '5.0.0'
} as const
export type Peer = keyof typeof LOWEST_PEERS

/** Loads an optional peer of the openapi entry, and checks that it is one the plugin supports. */
export async function loadPeer<T> (name: Peer, neededFor: string): Promise<T> {
  const loaded = await importPeer<{ default: T }>(name, `fastify-api-versioning/openapi needs the package ${name} for ${neededFor}`)
  checkPeerVersion(name, installedVersion(name))
  return loaded.default
}

/** The version in the package.json of the peer this module loads, or null where it cannot be read. */
export function installedVersion (name: string): unknown {
  try {
    return (peerRequire(`${name}/package.json`) as { version?: unknown }).version
  } catch {
    // A package whose exports hide its package.json: its version is not known, and it is given the benefit.
    return null
  }
}

/** Fails start-up for a peer older than the oldest version the plugin is tested with; newer majors are npm's to warn about. */
export function checkPeerVersion (name: Peer, version: unknown): void {
  const lowest = LOWEST_PEERS[name]
  const found = parse(version)
  if (found === null || compare(found, parse(lowest) as number[]) >= 0) return
  throw coded(new Error(`fastify-api-versioning/openapi needs ${name} ^${lowest} (${lowest} or newer), but found ${name} ${version as string}; upgrade it: npm install ${name}@^${lowest}`), 'FST_API_VERSIONING_MISSING_PEER')
}

function parse (version: unknown): number[] | null {
  const match = typeof version === 'string' ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null
  return match === null ? null : match.slice(1).map(Number)
}

function compare (a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}
