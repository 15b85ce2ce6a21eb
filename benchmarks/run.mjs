// Side-by-side benchmark: every server in SERVERS, every scenario, pipelining 1 and 10, in interleaved rounds
// (server and scenario order rotated each round, a fresh server process per server and round), autocannon in
// a process of its own, the server's CPU time read from /proc. Writes results.md; see README, "Benchmarks".
//   BENCH_ROUNDS (3)  BENCH_SECONDS (2)  BENCH_CONNECTIONS (10)  BENCH_ONLY (comma-separated server ids)
//   BENCH_NODE_FLAGS (the servers' Node flags; see proc.mjs)
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { SCENARIOS, SERVERS } from './scenarios.mjs'
import { cpuMicros, PINNED, SERVER_FLAGS, startLoad, startServer, stop } from './proc.mjs'
import { describeMachine, evaluateTargets, renderResults } from './report.mjs'

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const seconds = Number(process.env.BENCH_SECONDS ?? 2)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const only = process.env.BENCH_ONLY?.split(',')
const servers = only ? SERVERS.filter(s => s.id === 'plain' || only.includes(s.id)) : SERVERS
const PIPELINING = [1, 10]

const rotate = (list, n) => list.slice(n % list.length).concat(list.slice(0, n % list.length))
const samples = new Map() // `${server}|${scenario}|${pipelining}` → [{ rps, p99, cpu, errors, wrong }]

const started = Date.now()
for (let round = 0; round < rounds; round++) {
  for (const server of rotate(servers, round)) {
    const { child, port } = await startServer(server.args)
    const load = startLoad()
    const scenarios = rotate(SCENARIOS.map(([id]) => id), round).filter(id => server.requests[id])
    const options = (id, pipelining, duration) => {
      const { path, headers } = server.requests[id]
      return { url: `http://127.0.0.1:${port}${path}`, headers, connections, pipelining, duration }
    }
    for (const id of scenarios) await load.run(options(id, 1, 0.5)) // warm-up: let the JIT see every path
    for (const id of scenarios) {
      for (const pipelining of PIPELINING) {
        const before = cpuMicros(child.pid)
        const r = await load.run(options(id, pipelining, seconds))
        const cpu = cpuMicros(child.pid) - before
        const responses = Object.values(r.statuses).reduce((a, b) => a + b, 0)
        const key = `${server.id}|${id}|${pipelining}`
        if (!samples.has(key)) samples.set(key, [])
        samples.get(key).push({
          rps: r.rps,
          p99: r.p99,
          cpu: cpu / responses,
          errors: r.errors,
          wrong: responses - (r.statuses[server.requests[id].status] ?? 0)
        })
      }
    }
    load.child.disconnect()
    await stop(child)
    console.error(`round ${round + 1}/${rounds}: ${server.name} done (${Math.round((Date.now() - started) / 1000)} s)`)
  }
}

const micro = JSON.parse(execFileSync(process.execPath, [new URL('micro.mjs', import.meta.url).pathname, '--json'], { encoding: 'utf8' }))
const settings = { rounds, seconds, connections, pipelining: PIPELINING, minutes: (Date.now() - started) / 60000, flags: SERVER_FLAGS.join(' '), pinned: PINNED }
const targets = evaluateTargets(samples, servers)
const resultsUrl = new URL('results.md', import.meta.url)
let notes = ''
try {
  const previous = readFileSync(resultsUrl, 'utf8')
  const at = previous.indexOf('<!-- notes -->')
  if (at !== -1) notes = previous.slice(at)
} catch {}
writeFileSync(resultsUrl, renderResults({ machine: describeMachine(), settings, servers, samples, targets, micro, notes }))
console.log(targets.map(t => `${t.holds === null ? 'n/a   ' : t.holds ? 'holds ' : 'MISSED'}  ${t.target}: ${t.measured}`).join('\n'))
console.log(`\nwritten to ${resultsUrl.pathname}`)
