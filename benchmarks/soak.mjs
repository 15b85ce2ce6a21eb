// Load soak: the plugin's benchmark server at saturation for SOAK_SECONDS (120) on loopback with a mix of
// 70% valid-version requests and 10% each Unsupported, Invalid and Ambiguous, plus unversioned and 404 paths.
// Every response's status (and, for errors, its content type) is checked; memory after a forced GC is read
// every 20 s from the start of the warm-up to the end. The server runs with the benchmark's fixed young
// generation (SERVER_FLAGS) plus --expose-gc: left to itself, V8 doubles the young generation at some moment
// under load (+16.7 MiB committed heap, heap used flat), which would read as growth without being any.
// Writes soak.md; exits 1 when a criterion fails.
import autocannon from 'autocannon'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { describeMachine } from './report.mjs'
import { PINNED, SERVER_FLAGS, startServer, stop } from './proc.mjs'

const seconds = Number(process.env.SOAK_SECONDS ?? 120)
const warmup = Number(process.env.SOAK_WARMUP ?? 30)
const connections = 10

const valid = [
  ['valid, query', '/items?api-version=1.0', {}],
  ['valid, header', '/items', { 'api-version': '2.0' }],
  ['valid, path', '/v1.0/items', {}]
]
const mix = [
  ...Array.from({ length: 14 }, (_, i) => [...valid[i % 3], 200]),
  ...Array.from({ length: 2 }, () => ['Unsupported', '/items?api-version=9.0', {}, 400]),
  ['Invalid', '/items?api-version=abc', {}, 400],
  ['Invalid', '/items', { 'api-version': '1.' }, 400],
  ['Ambiguous', '/items?api-version=1.0&api-version=2.0', {}, 400],
  ['Ambiguous', '/items?api-version=1.0', { 'api-version': '2.0' }, 400],
  ['unversioned route', '/health', {}, 200],
  ['404 path', '/nope', {}, 404]
]

const counts = new Map(mix.map(([kind]) => [kind, { sent: 0, wrong: 0 }]))
const wrongExamples = []
const requests = mix.map(([kind, path, headers, status]) => ({
  method: 'GET',
  path,
  headers,
  onResponse (code, body, context, responseHeaders) {
    const count = counts.get(kind)
    count.sent++
    const type = responseHeaders?.['content-type'] ?? ''
    if (code !== status || (status === 400 && !type.startsWith('application/problem+json'))) {
      count.wrong++
      if (wrongExamples.length < 5) wrongExamples.push(`${kind}: ${code} ${type} ${String(body).slice(0, 120)}`)
    }
  }
}))

const { child, port } = await startServer(['servers/plugin.mjs', 'report'], [...SERVER_FLAGS, '--expose-gc'])
async function memory () {
  child.send('memory')
  const [m] = await once(child, 'message')
  return m
}
const mb = n => (n / 2 ** 20).toFixed(1)

let started = Date.now()
const samples = [{ at: -warmup, ...(await memory()) }]
const sampling = setInterval(async () => samples.push({ at: Math.round((Date.now() - started) / 1000), ...(await memory()) }), 20_000)
console.error(`warm-up ${warmup} s`)
started += warmup * 1000
await autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: warmup, requests })
for (const c of counts.values()) Object.assign(c, { sent: 0, wrong: 0 })
const base = { at: 0, ...(await memory()) }
samples.push(base)
console.error(`soak ${seconds} s`)
const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: seconds, requests })
clearInterval(sampling)
const end = await memory()
samples.push({ at: seconds, ...end })
await stop(child)
samples.sort((a, b) => a.at - b.at)

const growth = (a, b) => (b - a) / a
const sent = [...counts.values()].reduce((a, c) => a + c.sent, 0)
const wrong = [...counts.values()].reduce((a, c) => a + c.wrong, 0)
const criteria = [
  ['socket errors, timeouts and resets', result.errors + result.timeouts + result.resets, v => v === 0],
  ['5xx responses', result['5xx'], v => v === 0],
  ['responses with a wrong status (or a 400 that is not problem+json)', wrong, v => v === 0],
  ['every response checked', `${sent} checked of ${result.requests.total} sent`, () => sent >= result.requests.total - connections],
  ['RSS after forced GC, end vs after warm-up', `${mb(base.rss)} → ${mb(end.rss)} MiB (${(100 * growth(base.rss, end.rss)).toFixed(1)}%)`, () => growth(base.rss, end.rss) <= 0.1],
  ['heap used after forced GC, end vs after warm-up', `${mb(base.heapUsed)} → ${mb(end.heapUsed)} MiB (${(100 * growth(base.heapUsed, end.heapUsed)).toFixed(1)}%)`, () => growth(base.heapUsed, end.heapUsed) <= 0.1]
]
const failed = criteria.filter(([, v, ok]) => !ok(v))

const out = [
  '# Load soak', '',
  'Written by `npm run soak` (benchmarks/soak.mjs).', '',
  `- Machine: ${describeMachine()}; ${PINNED}`,
  `- Run: ${new Date().toISOString().slice(0, 10)}, ${seconds} s at saturation after ${warmup} s of warm-up, ${connections} connections, loopback, ` +
    `the fastify-api-versioning benchmark server with version reporting (\`benchmarks/servers/plugin.mjs report\`) run as \`node ${SERVER_FLAGS.join(' ')} --expose-gc\``,
  `- Mix per cycle of ${mix.length} requests: 14 valid (query, header, path), 2 Unsupported, 2 Invalid, 2 Ambiguous (70/10/10/10), plus 1 unversioned and 1 404`,
  `- Throughput: ${Math.round(result.requests.average)} req/s on average, ${result.requests.total} requests, p99 latency ${result.latency.p99} ms`, '',
  '## Criteria', '', '| criterion | measured | holds |', '|---|---|---|',
  ...criteria.map(([what, v, ok]) => `| ${what} | ${v} | ${ok(v) ? 'yes' : '**no**'} |`), '',
  '## Responses by kind', '', '| kind | responses | wrong |', '|---|---:|---:|',
  ...[...counts].map(([kind, c]) => `| ${kind} | ${c.sent} | ${c.wrong} |`), '',
  '## Memory after a forced GC', '', 'Negative times are in the warm-up; 0 is its end, the reference for the criteria.', '', '| at s | RSS MiB | heap total MiB | heap used MiB | external MiB |', '|---:|---:|---:|---:|---:|',
  ...samples.map(s => `| ${s.at} | ${mb(s.rss)} | ${mb(s.heapTotal)} | ${mb(s.heapUsed)} | ${mb(s.external)} |`), '',
  ...(wrongExamples.length > 0 ? ['## Wrong responses (first five)', '', ...wrongExamples.map(w => `- ${w}`), ''] : [])
]
writeFileSync(new URL('soak.md', import.meta.url), out.join('\n'))
console.log(out.join('\n'))
process.exit(failed.length === 0 ? 0 : 1)
