// Where a cold start's time goes beyond bare Fastify's: both run several times under Node's sampling profiler
// (`--cpu-prof`, every 100 µs), and each profile's samples are summed by what they ran: Node's ESM or CommonJS
// loader (which also compiles the modules it loads), each package, the plugin's own files, the garbage collector.
// Prints the median per group for the row and for bare Fastify, then the functions that account for the most of
// the difference. Main-thread samples only, and wall time while running (idle left out): close to CPU time.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { median } from './report.mjs'

const PROFILES = 7

export function profileRow (row, bare, coldStart) {
  const groups = { row: [], bare: [] }
  const functions = { row: [], bare: [] }
  for (let i = 0; i < PROFILES; i++) {
    for (const [which, r] of [['row', row], ['bare', bare]]) {
      const dir = mkdtempSync(join(tmpdir(), 'cold-start-'))
      try {
        coldStart(r, ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${dir}`])
        const profile = JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]), 'utf8'))
        const self = selfTimes(profile)
        groups[which].push(sumBy(self, ({ frame }) => group(frame)))
        functions[which].push(sumBy(self, ({ frame }) => `${frame.functionName || '(anonymous)'} ${where(frame)}`))
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
  console.log(`${row.name} against ${bare.name}: ms of main-thread samples, medians of ${PROFILES} profiles each\n`)
  print(groups, 'group', Infinity)
  console.log('')
  print(functions, 'function (self time)', 25)
}

/** Milliseconds of samples per profile node, with its call frame; idle time left out. */
function selfTimes ({ nodes, samples, timeDeltas }) {
  const byId = new Map(nodes.map(n => [n.id, { frame: n.callFrame, ms: 0 }]))
  for (let i = 0; i < samples.length - 1; i++) byId.get(samples[i]).ms += timeDeltas[i + 1] / 1000
  return [...byId.values()].filter(n => n.frame.functionName !== '(idle)')
}

function sumBy (self, key) {
  const sums = new Map()
  for (const n of self) sums.set(key(n), (sums.get(key(n)) ?? 0) + n.ms)
  return sums
}

function group ({ url, functionName }) {
  if (url === '') return functionName
  if (url.startsWith('node:internal/modules/esm/')) return 'Node: ESM loader (with compiling)'
  if (url.startsWith('node:internal/modules/cjs/')) return 'Node: CommonJS loader (with compiling)'
  if (url.startsWith('node:')) return url
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (pkg !== null) return pkg[1]
  if (/\/dist\/(esm|cjs)\//.test(url)) return 'fastify-api-versioning (its own files)'
  return url.replace(/^.*\//, '')
}

function where ({ url, lineNumber }) {
  if (url === '') return ''
  return `${url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/(dist\/)/, '$1')}:${lineNumber + 1}`
}

// Rows by the difference of medians, largest first, down to 0.3 ms; a key missing from a profile counts 0 there.
function print (sums, heading, limit) {
  const keys = new Set([...sums.row, ...sums.bare].flatMap(m => [...m.keys()]))
  const med = (list, key) => median(list.map(m => m.get(key) ?? 0))
  const lines = [...keys].map(key => ({ key, row: med(sums.row, key), bare: med(sums.bare, key) }))
    .map(l => ({ ...l, diff: l.row - l.bare })).filter(l => Math.abs(l.diff) >= 0.3).sort((a, b) => b.diff - a.diff).slice(0, limit)
  const total = which => median(sums[which].map(m => [...m.values()].reduce((a, b) => a + b, 0)))
  console.log(`${'row'.padStart(8)} ${'bare'.padStart(8)} ${'diff'.padStart(8)}  ${heading}`)
  for (const l of lines) console.log(`${l.row.toFixed(1).padStart(8)} ${l.bare.toFixed(1).padStart(8)} ${l.diff.toFixed(1).padStart(8)}  ${l.key}`)
  if (limit === Infinity) console.log(`${total('row').toFixed(1).padStart(8)} ${total('bare').toFixed(1).padStart(8)} ${(total('row') - total('bare')).toFixed(1).padStart(8)}  in all`)
}
