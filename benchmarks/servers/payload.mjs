// What every server answers on success, and how it talks to the runner.
export const payload = { hello: 'world' }

// `figures` (optional) go to the runner with the port, as `{ port, ...figures }`.
export function ready (port, figures) {
  // Exit cleanly on SIGINT so that `node --cpu-prof servers/<name>.mjs` writes its profile.
  process.once('SIGINT', () => process.exit(0))
  if (!process.send) return console.log(`listening on http://127.0.0.1:${port}`, ...(figures ? [figures] : []))
  // The soak asks for memory figures after a full collection (the server runs with --expose-gc).
  process.on('message', message => {
    if (message !== 'memory') return
    globalThis.gc?.()
    const { rss, heapTotal, heapUsed, external } = process.memoryUsage()
    process.send({ rss, heapTotal, heapUsed, external })
  })
  process.send(figures ? { port, ...figures } : port)
}
