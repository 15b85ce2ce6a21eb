// A server of benchmarks/scale-changes.mjs: `node scale-changes.mjs <kind> <paths> [versions] [every] [--lines]`
// builds that app (servers/scale-changes-apps.mjs) and measures its own start-up: CPU time (user + system, all
// threads) and wall time from this script's first line (before Fastify, the plugin and the app's modules are
// imported) to after `await app.ready()`, and the heap after a full collection (with --expose-gc). Under the runner
// (IPC) it sends `{ port, cpuMs, wallMs, heapMB, routes, gc }`; alone (under valgrind) it prints the port. GET
// /__exit ends it once answered; GET /__gc collects (with --expose-gc).
const cpuAtStart = process.cpuUsage()
const wallAtStart = performance.now()
const { buildApp } = await import('./scale-changes-apps.mjs')

const args = process.argv.slice(2)
const lines = args.includes('--lines')
const [kind, paths, versions = '1', every = '1'] = args.filter(arg => arg !== '--lines')
// The routes of the router, HEAD routes (which Fastify adds for each GET) left out.
let routes = 0
const onRoute = route => { if (route.method !== 'HEAD') routes++ }
const app = await buildApp(kind, { paths: Number(paths), versions: Number(versions), every: Number(every), lines, onRoute })
// GET /__gc: a full collection (with --expose-gc), so that each counted window starts from the same heap.
app.get('/__gc', (request, reply) => {
  globalThis.gc?.()
  reply.send(typeof globalThis.gc === 'function' ? 'collected' : 'no gc')
})
app.get('/__exit', (request, reply) => {
  reply.raw.once('finish', () => process.exit(0))
  reply.send('bye')
})
await app.ready()
const { user, system } = process.cpuUsage(cpuAtStart)
const cpuMs = (user + system) / 1000
const wallMs = performance.now() - wallAtStart

globalThis.gc?.()
globalThis.gc?.()
const heapMB = process.memoryUsage().heapUsed / 2 ** 20

await app.listen({ port: 0, host: '127.0.0.1' })
const { port } = app.server.address()
if (process.send) process.send({ port, cpuMs, wallMs, heapMB, routes: routes - 2, gc: typeof globalThis.gc === 'function' })
else console.log(port)
