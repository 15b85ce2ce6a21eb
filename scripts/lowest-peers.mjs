// Links the lowest tested versions of the peers (the devDependency aliases fastify-lowest, ...) where the
// package names resolve, so that the whole suite runs against them (CI's lowest-peers job, `npm run
// test:lowest-peers`); `restore` puts the usual ones back. No download: npm ci installed them with the rest.
import { existsSync, renameSync, rmSync, symlinkSync } from 'node:fs'

const modules = new URL('../node_modules/', import.meta.url)
const restore = process.argv[2] === 'restore'
for (const name of ['fastify', '@fastify/swagger', '@fastify/swagger-ui', '@opentelemetry/api']) {
  const [current, lowest, kept] = [name, `${name}-lowest`, `${name}-latest`].map(path => new URL(path, modules))
  if (restore) {
    if (!existsSync(kept)) continue
    rmSync(current)
    renameSync(kept, current)
  } else {
    if (existsSync(kept)) throw new Error(`${kept.pathname} exists: run \`node scripts/lowest-peers.mjs restore\` first`)
    renameSync(current, kept)
    symlinkSync(lowest, current, 'junction')
  }
  console.log(`${name}: ${restore ? 'restored' : `the lowest tested version (${name}-lowest)`}`)
}
