// One cold start in a fresh process, as an ESM app does it: import Fastify, then the plugin's entry, register it,
// declare one route, `await app.ready()`. Prints its own CPU time (user + system since the process started, so
// Node's own start is in it: cold-start.mjs subtracts bare Fastify's) at each step, as JSON. cold-start-app.cjs
// does the same with require(), as a CommonJS app does; keep the two alike.
//   node cold-start-app.mjs <fastify> [<entry> plugin|cors]   (file paths; no entry: bare Fastify)
import { pathToFileURL } from 'node:url'

const cpuMs = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000 }
const boot = cpuMs()
const [fastifyPath, entryPath, kind] = process.argv.slice(2)
const { default: Fastify } = await import(pathToFileURL(fastifyPath).href)
const fastify = cpuMs()
const plugin = entryPath === undefined ? null : (await import(pathToFileURL(entryPath).href)).default
const entry = cpuMs()
const app = Fastify()
if (plugin !== null) await app.register(plugin, kind === 'plugin' ? { problemDetails: true } : {})
app.get('/items', kind === 'plugin' ? { apiVersions: '1.0' } : {}, async () => ({ hello: 'world' }))
await app.ready()
console.log(JSON.stringify({ boot, fastify, entry, ready: cpuMs() }))
