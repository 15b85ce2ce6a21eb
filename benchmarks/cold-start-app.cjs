// cold-start-app.mjs as a CommonJS app does it: require() Fastify, then the plugin's entry (the CommonJS build the
// package's exports map gives require()); keep the two alike.
//   node cold-start-app.cjs <fastify> [<entry> plugin|cors]
'use strict'
const cpuMs = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000 }
const boot = cpuMs()
const [fastifyPath, entryPath, kind] = process.argv.slice(2)
const Fastify = require(fastifyPath)
const fastify = cpuMs()
const plugin = entryPath === undefined ? null : require(entryPath)
const entry = cpuMs()
async function main () {
  const app = Fastify()
  if (plugin !== null) await app.register(plugin, kind === 'plugin' ? { problemDetails: true } : {})
  app.get('/items', kind === 'plugin' ? { apiVersions: '1.0' } : {}, async () => ({ hello: 'world' }))
  await app.ready()
  console.log(JSON.stringify({ boot, fastify, entry, ready: cpuMs() }))
}
main()
