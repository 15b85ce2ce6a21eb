// Scale benchmark: apps of a few, 300 and 1,000 versioned paths × 3 versions plus as many unversioned routes, as
// fastify-api-versioning, as Fastify's own version constraint and unversioned (servers/scale.mjs). Per app: ready()
// time and heap after start-up, which should grow linearly with the routes, and the server's CPU per request for
// a valid version and for an unversioned route, which should not grow at all. Interleaved rounds, a fresh server
// per app and round, CPU from /proc as in run.mjs. Prints the table and writes it into results.md between the
// scale markers (the rest of the file is left as it is); see README.md here.
//   BENCH_ROUNDS (5)  BENCH_SECONDS (2)  BENCH_CONNECTIONS (10)  BENCH_NODE_FLAGS (see proc.mjs)  BENCH_RESULTS (results.md)
//   SCALE_DIST (the plugin's ESM entry, relative to servers/; default ../../dist/esm/index.js)
import { readFileSync, writeFileSync } from 'node:fs'
import { cpuMicros, PINNED, SERVER_FLAGS, startLoad, startServer, stop } from './proc.mjs'
import { describeMachine, median, rotate } from './report.mjs'
import { humanDuration, loadSeconds, plural, progress } from './progress.mjs'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 2)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
// The small app has ~10 routes (3 paths × 3 versions + 1), so per-request cost is seen at both ends in one run;
// the middle size is there so that start-up's growth can be seen to be linear.
const SIZES = [{ versioned: 3, unversioned: 1 }, { versioned: 300, unversioned: 300 }, { versioned: 1000, unversioned: 1000 }]
const KINDS = [
  ['plugin', 'fastify-api-versioning (`?api-version=2.0`)'],
  ['fastify-constraint', 'Fastify `constraints: { version }` (`Accept-Version: 2.0.0`)'],
  ['unversioned', 'unversioned (one route per path)']
]
const REQUESTS = ['valid', 'unversioned']
const WARMUP = 0.5
// --expose-gc so the server can collect before it reads its heap; the same for every app.
const FLAGS = [...SERVER_FLAGS, '--expose-gc']

const apps = SIZES.flatMap(size => KINDS.map(([kind]) => ({ kind, size, key: `${kind}|${size.versioned}` })))
const samples = new Map(apps.map(({ key }) => [key, { readyMs: [], heapMB: [], routes: 0, gc: true, valid: [], unversioned: [], wrong: { valid: 0, unversioned: 0 } }]))

// An app's seconds of load: a warm-up and a measured run for each request.
const plannedSeconds = REQUESTS.length * (loadSeconds(WARMUP) + loadSeconds(seconds))
console.error(`${plural(rounds * apps.length, 'app run')} (${plural(apps.length, 'app')} × ${plural(rounds, 'round')}), ${humanDuration(rounds * apps.length * plannedSeconds)} of load planned, ` +
  'plus each app\'s start-up')
const started = Date.now()
const done = progress(rounds * apps.length, rounds * apps.length * plannedSeconds)
for (let round = 0; round < rounds; round++) {
  for (const { kind, size, key } of rotate(apps, round)) {
    const { child, port, message } = await startServer(['servers/scale.mjs', kind, String(size.versioned), String(size.unversioned)], FLAGS)
    const s = samples.get(key)
    s.readyMs.push(message.readyMs)
    s.heapMB.push(message.heapMB)
    s.routes = message.routes
    s.gc &&= message.gc
    const load = startLoad()
    const options = (id, duration) => {
      const { path, headers } = message.requests[id]
      return { url: `http://127.0.0.1:${port}${path}`, headers, connections, pipelining: 1, duration }
    }
    const order = rotate(REQUESTS, round)
    for (const id of order) await load.run(options(id, WARMUP)) // warm-up: let the JIT see both requests
    for (const id of order) {
      const before = cpuMicros(child.pid)
      const r = await load.run(options(id, seconds))
      const cpu = cpuMicros(child.pid) - before
      const responses = Object.values(r.statuses).reduce((a, b) => a + b, 0)
      s[id].push(cpu / responses)
      // Every app answers both requests with 200; anything else (or a socket error) is counted.
      s.wrong[id] += responses - (r.statuses[200] ?? 0) + r.errors
    }
    load.child.disconnect()
    await stop(child)
    console.error(`round ${round + 1}/${rounds}: ${kind} ${size.versioned} done; ${done.step(plannedSeconds)}`)
  }
}
const minutes = (Date.now() - started) / 60000

const fixed = (n, digits = 2) => n.toFixed(digits)
const signed = n => (n < 0 ? '−' : '+') + Math.abs(n).toFixed(2)
const figures = key => {
  const s = samples.get(key)
  return { ...s, readyMs: median(s.readyMs), heapMB: median(s.heapMB), valid: median(s.valid), unversioned: median(s.unversioned) }
}
const out = []
out.push('## Scale: start-up and per-request cost against the number of routes', '')
out.push('Written by `npm run bench:scale` (benchmarks/scale.mjs) between the scale markers. Each app has N versioned paths ' +
  '× 3 versions plus N unversioned routes (the smallest: 3 × 3 + 1), static and parametric paths alternating; the ' +
  'unversioned app has the same paths, one route each. Requests: a valid version 2.0 on a parametric versioned path in the ' +
  'middle of the table (`/r500/items/123` for N = 1,000; the unversioned app gets the plugin\'s URL), and an unversioned ' +
  'route in the middle of its table (`/u500/things/7`). ready() ms runs from before the first route is declared to after ' +
  '`await app.ready()`; heap is `heapUsed` after a full collection, once started. CPU is the server\'s user + system time ' +
  'from /proc per response at pipelining 1; Δ is against the unversioned app of the same size. Medians over the rounds.', '')
out.push('| app | versioned paths | routes in total | ready() ms | heap MB | valid version µs/req | Δ vs unversioned app | unversioned route µs/req |')
out.push('|---|---:|---:|---:|---:|---:|---:|---:|')
for (const [kind, name] of KINDS) {
  for (const size of SIZES) {
    const f = figures(`${kind}|${size.versioned}`)
    const base = figures(`unversioned|${size.versioned}`)
    const delta = kind === 'unversioned' ? '' : signed(f.valid - base.valid)
    out.push(`| ${name} | ${size.versioned.toLocaleString('en')} | ${f.routes.toLocaleString('en')} | ${fixed(f.readyMs, 1)} | ${fixed(f.heapMB, 1)} | ${fixed(f.valid)} | ${delta} | ${fixed(f.unversioned)} |`)
  }
}
out.push('')
// Linear start-up means the same cost per route between every pair of sizes.
const growth = KINDS.map(([kind, name]) => {
  const steps = SIZES.slice(1).map((size, i) => {
    const a = figures(`${kind}|${SIZES[i].versioned}`)
    const b = figures(`${kind}|${size.versioned}`)
    const per = 1000 / (b.routes - a.routes)
    return `${a.routes.toLocaleString('en')} → ${b.routes.toLocaleString('en')} routes: ${fixed((b.readyMs - a.readyMs) * per, 0)} ms, ${fixed((b.heapMB - a.heapMB) * per, 1)} MB`
  })
  return `${name}: ${steps.join('; ')}`
})
out.push(`- Start-up per 1,000 routes added (equal steps mean linear growth): ${growth.join('. ')}.`)
const wrong = apps.flatMap(({ kind, size, key }) => REQUESTS.filter(id => samples.get(key).wrong[id]).map(id => `${kind} ${size.versioned} ${id}: ${samples.get(key).wrong[id]}`))
out.push(`- Responses: ${wrong.length ? `**not all 200** (${wrong.join(', ')})` : 'all 200, every app, both requests, every round'}.`)
out.push(`- Machine: ${describeMachine()}`)
out.push(`- Run: ${new Date().toISOString().slice(0, 10)}, ${rounds} interleaved rounds (app order rotated, a fresh server process per app and round), ` +
  `0.5 s warm-up and ${seconds} s per request, ${connections} connections, pipelining 1, loopback; ${minutes.toFixed(1)} min in all`)
out.push(`- Servers run as \`node ${FLAGS.join(' ')}\`${[...samples.values()].every(s => s.gc) ? '' : ' (gc() was not available: heap without a collection)'}, ${PINNED}`)
const table = out.join('\n')
console.log(table)

const resultsUrl = new URL(process.env.BENCH_RESULTS ?? 'results.md', import.meta.url)
let previous = ''
try { previous = readFileSync(resultsUrl, 'utf8') } catch {}
const START = '<!-- scale -->'
const END = '<!-- /scale -->'
const from = previous.indexOf(START)
const to = from === -1 ? -1 : previous.indexOf(END, from)
let next
if (to !== -1) {
  // Replace only what is between the markers.
  next = previous.slice(0, from + START.length) + `\n${table}\n` + previous.slice(to)
} else {
  // First run: the markers go at the end, before the notes that run.mjs keeps, if there are notes.
  const block = `${START}\n${table}\n${END}\n`
  const notes = previous.indexOf('<!-- notes -->')
  next = notes !== -1
    ? previous.slice(0, notes) + block + '\n' + previous.slice(notes)
    : previous + (previous && !previous.endsWith('\n') ? '\n' : '') + (previous ? '\n' : '') + block
}
writeFileSync(resultsUrl, next)
console.log(`\nwritten to ${resultsUrl.pathname}`)
if (wrong.length) process.exitCode = 1
