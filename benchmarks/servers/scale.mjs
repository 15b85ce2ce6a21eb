// The scale benchmark's server: `node scale.mjs <kind> <versionedPaths> [unversionedRoutes]` builds an app of
// <versionedPaths> paths with three versions each plus [unversionedRoutes] (default: as many) unversioned routes,
// as kind = plugin (fastify-api-versioning, version in the query), fastify-constraint (Fastify's own
// `constraints: { version }`, semver in Accept-Version) or unversioned (one route per path, no versions). It sends
// the runner its start-up figures and the requests to load it with (see scale.mjs).
import Fastify from 'fastify'
import { payload, ready } from './payload.mjs'

const [kind, versionedArg, unversionedArg] = process.argv.slice(2)
const versionedPaths = Number(versionedArg)
const unversionedRoutes = Number(unversionedArg ?? versionedArg)
if (!['plugin', 'fastify-constraint', 'unversioned'].includes(kind) || !(versionedPaths >= 1) || !(unversionedRoutes >= 1)) {
  throw new Error('usage: node scale.mjs plugin|fastify-constraint|unversioned <versionedPaths> [unversionedRoutes]')
}
const VERSIONS = kind === 'fastify-constraint' ? ['1.0.0', '2.0.0', '3.0.0'] : ['1.0', '2.0', '3.0']

// Static and parametric paths alternate, so neither kind of router node is left out; the paths the load asks for
// are parametric ones in the middle of the table (a table's first or last route could be a lucky case).
const versionedPath = i => i % 2 === 0 ? `/r${i}/items/:id` : `/r${i}/items`
const unversionedPath = i => i % 2 === 0 ? `/u${i}/things/:id` : `/u${i}/things`
const middle = n => Math.floor(n / 2) & ~1
const handler = async () => payload

const app = Fastify()
// The plugin from another build when SCALE_DIST says so (a copy, for runs while dist/ is being rebuilt).
if (kind === 'plugin') {
  const { default: apiVersioning } = await import(process.env.SCALE_DIST ?? '../../dist/esm/index.js')
  await app.register(apiVersioning, { versionReader: { query: 'api-version' } })
}

// Start-up as an app with many routes pays it: declaring the routes (the plugin's onRoute work included) and ready().
let routes = 0
const started = performance.now()
for (let i = 0; i < versionedPaths; i++) {
  const path = versionedPath(i)
  if (kind === 'unversioned') {
    app.get(path, handler)
    routes++
    continue
  }
  for (const version of VERSIONS) {
    app.get(path, kind === 'plugin' ? { apiVersions: version } : { constraints: { version } }, handler)
    routes++
  }
}
for (let i = 0; i < unversionedRoutes; i++) {
  app.get(unversionedPath(i), handler)
  routes++
}
await app.ready()
const readyMs = performance.now() - started

// Heap after a full collection (the runner adds --expose-gc): what the route table keeps, not start-up garbage.
globalThis.gc?.()
globalThis.gc?.()
const heapMB = process.memoryUsage().heapUsed / 2 ** 20

await app.listen({ port: 0, host: '127.0.0.1' })
const valid = `/r${middle(versionedPaths)}/items/123`
ready(app.server.address().port, {
  readyMs,
  heapMB,
  gc: typeof globalThis.gc === 'function',
  routes,
  requests: {
    // The unversioned app gets the plugin's URL too (Fastify ignores the query when routing), so the only
    // difference is the versioning.
    valid: kind === 'fastify-constraint'
      ? { path: valid, headers: { 'accept-version': '2.0.0' } }
      : { path: `${valid}?api-version=2.0` },
    unversioned: { path: `/u${middle(unversionedRoutes)}/things/7` }
  }
})
