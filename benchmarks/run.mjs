// Loopback benchmark: plain Fastify against the plugin, side by side in one run.
// Each row gets a fresh server process; autocannon runs in this process.
// BENCH_SECONDS (default 5) and BENCH_CONNECTIONS (default 10) tune it.
import autocannon from 'autocannon'
import { fork } from 'node:child_process'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)
const rows = [
  ['plain Fastify, no plugin', 'plain', '/values', {}],
  ['versioned, query', 'versioned', '/values?api-version=1.0', {}],
  ['versioned, header', 'versioned', '/values', { 'api-version': '1.0' }],
  ['unversioned route, plugin active', 'versioned', '/health', {}],
  ['Unsupported (400 problem+json)', 'versioned', '/values?api-version=9.0', {}]
]

function start (mode) {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./server.mjs', import.meta.url), [mode], { stdio: 'inherit' })
    child.once('message', port => resolve({ child, port }))
    child.once('error', reject)
  })
}

const results = []
for (const [name, mode, path, headers] of rows) {
  const { child, port } = await start(mode)
  const url = `http://127.0.0.1:${port}${path}`
  await autocannon({ url, headers, connections, duration: 1 }) // warm-up
  const r = await autocannon({ url, headers, connections, duration: seconds })
  child.kill()
  const wrong = r.non2xx && !name.startsWith('Unsupported') ? ` (${r.non2xx} non-2xx!)` : ''
  results.push({ name, rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, wrong })
}
const base = results[0].rps
console.log(`\n${seconds}s per row, ${connections} connections, node ${process.version}\n`)
console.log('| scenario | req/s | vs plain | p99 ms | errors |')
console.log('|---|---:|---:|---:|---:|')
for (const r of results) {
  console.log(`| ${r.name}${r.wrong} | ${Math.round(r.rps)} | ${(r.rps / base).toFixed(2)} | ${r.p99} | ${r.errors} |`)
}
