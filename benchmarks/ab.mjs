// A/B of two server scripts on a few paths, alternating, the server CPU per request from /proc (pinned as in
// run.mjs): `node ab.mjs servers/a.mjs servers/b.mjs /path1 /path2 ...`. For bisecting a cost, not for results.md.
import { cpuMicros, startLoad, startServer, stop } from './proc.mjs'
const [a, b] = process.argv.slice(2, 4)
const paths = process.argv.slice(4)
for (let round = 0; round < 3; round++) {
  for (const script of [a, b]) {
    const { child, port } = await startServer([script])
    const load = startLoad()
    for (const path of paths) await load.run({ url: `http://127.0.0.1:${port}${path}`, connections: 10, pipelining: 1, duration: 0.5 })
    const row = []
    for (const path of paths) {
      const before = cpuMicros(child.pid)
      const r = await load.run({ url: `http://127.0.0.1:${port}${path}`, connections: 10, pipelining: 1, duration: 2 })
      const n = Object.values(r.statuses).reduce((x, y) => x + y, 0)
      row.push(`${path} ${((cpuMicros(child.pid) - before) / n).toFixed(2)}µs p99=${r.p99} rps=${Math.round(r.rps)}`)
    }
    console.log(script.includes('oldwt') ? 'OLD' : 'NEW', row.join(' | '))
    load.child.disconnect()
    await stop(child)
  }
}
