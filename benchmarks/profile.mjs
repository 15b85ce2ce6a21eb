// Where the instructions of a request go, function by function: callgrind counts every instruction of the
// process, and Node's perf map (--perf-basic-prof) names the JavaScript functions V8 compiled, which callgrind
// sees only as addresses. As in instructions.mjs, two runs of different lengths cancel start-up and warm-up:
// per request = (count for N2 requests − count for N1) / (N2 − N1). With a second app, each function's figure
// is shown beside the other app's and sorted by the difference: what one app does that the other does not.
// Needs valgrind (its callgrind_annotate too) and `npm run build`.
// With --http, the app is a real server and the requests come over HTTP (see instructions.mjs, --http).
//   node benchmarks/profile.mjs <app> <url> [headers JSON] [--against <app>] [--rows N] [--http [--status N]]
//   e.g. node benchmarks/profile.mjs plugin '/items?api-version=1.0' --against hook-vary
import { execFile } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { driveOverHttp, N1, N2, underValgrind } from './instructions.mjs'

const run = promisify(execFile)

async function profile (kind, url, headers, n) {
  const out = join(tmpdir(), `callgrind-${kind}-${n}-${process.pid}.out`)
  // --perf-basic-prof also turns on V8's log, which would land in the working folder.
  const log = `${out}.v8.log`
  const tool = ['--tool=callgrind', `--callgrind-out-file=${out}`]
  const nodeOptions = ['--perf-basic-prof', `--logfile=${log}`, '--no-logfile-per-isolate']
  if (overHttp) await driveOverHttp(tool, kind, url, headers, status, n, nodeOptions)
  else await run(...underValgrind(tool, kind, url, headers, n, nodeOptions), { maxBuffer: 1 << 24 })
  rmSync(log, { force: true })
  const pid = /^pid: (\d+)$/m.exec(readFileSync(out, 'utf8').slice(0, 4096))[1]
  const mapFile = `/tmp/perf-${pid}.map`
  const code = readFileSync(mapFile, 'utf8').trim().split('\n').map(line => {
    const [start, size, ...name] = line.split(' ')
    return { start: parseInt(start, 16), end: parseInt(start, 16) + parseInt(size, 16), name: name.join(' ') }
  }).sort((a, b) => a.start - b.start)
  const { stdout } = await run('callgrind_annotate', ['--threshold=100', out], { maxBuffer: 1 << 26 })
  rmSync(out)
  rmSync(mapFile)
  const counts = new Map()
  for (const line of stdout.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.+)$/.exec(line)
    if (m === null || m[2].includes('PROGRAM TOTALS')) continue
    const address = /^\?\?\?:0x([0-9a-f]+) \[\?\?\?\]$/.exec(m[2])
    const name = address === null ? m[2].replace(/^\?\?\?:/, '').replace(/\(.*$/, '') : nameAt(code, parseInt(address[1], 16))
    counts.set(name, (counts.get(name) ?? 0) + Number(m[1].replaceAll(',', '')))
  }
  return counts
}

// The compiled function whose code holds `address` (the map lists every code object V8 made, by start address).
function nameAt (code, address) {
  let lo = 0
  let hi = code.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (code[mid].start <= address) lo = mid
    else hi = mid - 1
  }
  return code[lo].start <= address && address < code[lo].end ? code[lo].name : 'JIT code not in the map'
}

async function perRequest (kind, url, headers) {
  const [few, many] = await Promise.all([profile(kind, url, headers, N1), profile(kind, url, headers, N2)])
  const result = new Map()
  for (const name of new Set([...few.keys(), ...many.keys()])) result.set(name, ((many.get(name) ?? 0) - (few.get(name) ?? 0)) / (N2 - N1))
  return result
}

const args = process.argv.slice(2)
const option = name => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args.splice(i, 2)[1]
}
const overHttp = args.includes('--http')
if (overHttp) args.splice(args.indexOf('--http'), 1)
const status = Number(option('--status') ?? 200)
const against = option('--against')
const rows = Number(option('--rows') ?? 40)
const [kind, url, headers = '{}'] = args
if (kind === undefined || url === undefined) {
  console.error('usage: node benchmarks/profile.mjs <app> <url> [headers JSON] [--against <app>] [--rows N] [--http [--status N]]')
  process.exit(2)
}
const a = await perRequest(kind, url, headers)
const b = against === undefined ? new Map() : await perRequest(against, url, headers)
const sum = m => [...m.values()].reduce((x, y) => x + y, 0)
const fmt = v => v.toFixed(0).padStart(7)
console.log(`instructions per request, ${url}: ${kind} ${fmt(sum(a)).trim()}` + (against === undefined ? '' : `, ${against} ${fmt(sum(b)).trim()}, difference ${(sum(a) - sum(b)).toFixed(0)}`))
console.log(against === undefined ? `${kind.padStart(7)}  function` : `${'diff'.padStart(7)} ${kind.slice(0, 7).padStart(7)} ${against.slice(0, 7).padStart(7)}  function`)
const names = [...new Set([...a.keys(), ...b.keys()])].map(name => [name, (a.get(name) ?? 0) - (b.get(name) ?? 0)])
for (const [name, diff] of names.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1])).slice(0, rows)) {
  if (Math.abs(diff) < 1) break
  console.log(against === undefined ? `${fmt(diff)}  ${name}` : `${fmt(diff)} ${fmt(a.get(name) ?? 0)} ${fmt(b.get(name) ?? 0)}  ${name}`)
}
