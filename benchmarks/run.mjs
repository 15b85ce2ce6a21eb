// Side-by-side benchmark: every server in SERVERS, every scenario, pipelining 1 and 10, in interleaved rounds
// (server and scenario order rotated each round, a fresh server process per server and round), autocannon in
// a process of its own, the server's CPU time read from /proc. Writes results.md; see README.md here.
//   BENCH_ROUNDS (5)  BENCH_SECONDS (2)  BENCH_CONNECTIONS (10)  BENCH_ONLY (comma-separated server ids)
//   BENCH_FLAGS (fixed,default: each server runs with the benchmark's fixed young generation and with Node's
//   defaults, interleaved in the same rounds)  BENCH_NODE_FLAGS (the fixed set; see proc.mjs)  BENCH_RESULTS (results.md)
//   BENCH_MICRO (1; 0 leaves the micro-benchmarks out, for a quick trial run)
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { SCENARIOS, SERVERS } from './scenarios.mjs'
import { cpuMicros, PINNED, SERVER_FLAGS, startLoad, startServer, stop } from './proc.mjs'
import { describeMachine, evaluateTargets, NO_TARGETS, renderResults, rotate } from './report.mjs'
import { humanDuration, loadSeconds, plural, progress } from './progress.mjs'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 2)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const only = process.env.BENCH_ONLY?.split(',')
const unknown = only?.filter(id => !SERVERS.some(s => s.id === id)) ?? []
if (unknown.length > 0) {
  console.error(`BENCH_ONLY: no server ${unknown.join(', ')}; the ids are ${SERVERS.map(s => s.id).join(', ')}`)
  process.exit(2)
}
const servers = only ? SERVERS.filter(s => s.id === 'plain' || only.includes(s.id)) : SERVERS
const runMicro = process.env.BENCH_MICRO !== '0'
const PIPELINING = [1, 10]
const WARMUP = 0.5
// What micro.mjs takes on the 2-CPU host of the full runs (8 s); it prints nothing until it is done.
const MICRO_SECONDS = 10
// What users run (Node's defaults) and what compares servers fairly (one young generation for all; see proc.mjs).
const FLAG_SETS = [
  { id: 'fixed', label: `fixed young generation (\`node ${SERVER_FLAGS.join(' ')}\`)`, flags: SERVER_FLAGS },
  { id: 'default', label: "Node's default flags (`node`)", flags: [] }
].filter(set => (process.env.BENCH_FLAGS ?? 'fixed,default').split(',').includes(set.id))

// One map per flag set: `${server}|${scenario}|${pipelining}` → [{ rps, p99, cpu, errors, wrong }]
const samplesOf = new Map(FLAG_SETS.map(set => [set.id, new Map()]))

const scenariosOf = server => SCENARIOS.map(([id]) => id).filter(id => server.requests[id])
// A server process's seconds of load: a warm-up and a measured run per pipelining for each of its scenarios.
const plannedSeconds = server => scenariosOf(server).length * (loadSeconds(WARMUP) + loadSeconds(seconds) * PIPELINING.length)
const runs = servers.flatMap(server => FLAG_SETS.map(set => [server, set]))
const planned = rounds * runs.reduce((sum, [server]) => sum + plannedSeconds(server), 0)
console.error(`${plural(rounds * runs.length, 'server run')} (${plural(servers.length, 'server')} × ${plural(FLAG_SETS.length, 'flag set')} × ${plural(rounds, 'round')}), ` +
  `${humanDuration(planned)} of load planned, plus each server's start-up` +
  (runMicro ? `; then the micro-benchmarks, about ${humanDuration(MICRO_SECONDS)}` : '; no micro-benchmarks (BENCH_MICRO=0)'))
const started = Date.now()
const done = progress(rounds * runs.length, planned)
for (let round = 0; round < rounds; round++) {
  for (const [server, set] of rotate(runs, round)) {
    const samples = samplesOf.get(set.id)
    const { child, port } = await startServer(server.args, set.flags)
    const load = startLoad()
    const scenarios = rotate(scenariosOf(server), round)
    const options = (id, pipelining, duration) => {
      const { path, headers } = server.requests[id]
      return { url: `http://127.0.0.1:${port}${path}`, headers, connections, pipelining, duration }
    }
    for (const id of scenarios) await load.run(options(id, 1, WARMUP)) // warm-up: let the JIT see every path
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
    console.error(`round ${round + 1}/${rounds}: ${server.name}, ${set.id} flags done; ${done.step(plannedSeconds(server))}`)
  }
}

let micro = null
if (runMicro) {
  console.error(`micro-benchmarks (benchmarks/micro.mjs: the version parser and the request readers), about ${humanDuration(MICRO_SECONDS)}`)
  micro = JSON.parse(execFileSync(process.execPath, [new URL('micro.mjs', import.meta.url).pathname, '--json'], { encoding: 'utf8' }))
}
const settings = { rounds, seconds, connections, pipelining: PIPELINING, minutes: (Date.now() - started) / 60000, pinned: PINNED }
const sets = FLAG_SETS.map(set => {
  const samples = samplesOf.get(set.id)
  return { ...set, samples, targets: evaluateTargets(samples, servers) }
})
const resultsUrl = new URL(process.env.BENCH_RESULTS ?? 'results.md', import.meta.url)
// What follows the figures is kept: the scale benchmark's section (bench:scale) and the notes.
let kept = ''
try {
  const previous = readFileSync(resultsUrl, 'utf8')
  const at = ['<!-- scale -->', '<!-- notes -->'].map(marker => previous.indexOf(marker)).filter(i => i !== -1)
  if (at.length > 0) kept = previous.slice(Math.min(...at))
} catch {}
writeFileSync(resultsUrl, renderResults({ machine: describeMachine(), settings, servers, sets, micro, kept }))
for (const set of sets) {
  const targets = set.targets.map(t => `${t.holds === null ? 'n/a   ' : t.holds ? 'holds ' : 'MISSED'}  ${t.target}: ${t.measured}`)
  console.log(`${set.label}:\n${targets.length > 0 ? targets.join('\n') : NO_TARGETS}`)
}
console.log(`\nwritten to ${resultsUrl.pathname}`)
