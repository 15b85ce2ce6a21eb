// One app of instructions.mjs as a real HTTP server, for its over-HTTP mode: `node instructions-server.mjs <app>`
// listens on a free port of 127.0.0.1, prints the port, and exits once it has answered GET /__exit (which every
// run sends last, so that it cancels out like start-up). The apps: instructions-apps.mjs.
import { buildApp } from './instructions-apps.mjs'

const app = await buildApp(process.argv[2])
app.get('/__exit', (request, reply) => {
  reply.raw.once('finish', () => process.exit(0))
  reply.send('bye')
})
await app.listen({ port: 0, host: '127.0.0.1' })
console.log(app.server.address().port)
