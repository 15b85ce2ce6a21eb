// Cold start: what a new process (a serverless instance) pays for the plugin. Fresh `node` processes
// (cold-start-app.mjs, cold-start-app.cjs) import Fastify, then the entry, register it, declare one versioned
// route and `await app.ready()`, and report their own CPU time; bare Fastify, the ESM build, the CommonJS build
// and @fastify/cors (a reference) run interleaved, many times each. CPU, not wall time: the host may be busy.
// Prints the table and writes it into results.md between the cold-start markers; see README.md here.
//   --runs N (COLD_START_RUNS, 20)   --against <git revision>: that revision's builds too, as more rows (repeatable)
//   --profile <row id>: where that row's CPU goes beyond bare Fastify's (cold-start-profile.mjs), nothing written
//   BENCH_RESULTS (results.md)
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { describeMachine, median, rotate } from './report.mjs'
import { profileRow } from './cold-start-profile.mjs'

const TARGET = 35
const DEFAULT_RUNS = process.env.COLD_START_RUNS ?? '20'
const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: DEFAULT_RUNS }, against: { type: 'string', multiple: true, default: [] }, profile: { type: 'string' } }
})
const runs = Number(args.runs)
const root = new URL('..', import.meta.url)
const resolve = createRequire(new URL('package.json', root)).resolve
const fastify = resolve('fastify')
const dist = new URL('dist/', root).pathname

// A row: the app script (the loader), the entry it loads, and the bare row it is measured against.
const rows = [
  { id: 'bare-esm', name: 'bare Fastify (`import`)', app: 'cold-start-app.mjs', args: [] },
  { id: 'bare-cjs', name: 'bare Fastify (`require`)', app: 'cold-start-app.cjs', args: [] },
  { id: 'esm', name: 'fastify-api-versioning, ESM build (`import`)', app: 'cold-start-app.mjs', args: [`${dist}esm/index.js`, 'plugin'], bare: 'bare-esm' },
  { id: 'cjs', name: 'fastify-api-versioning, CommonJS build (`require`)', app: 'cold-start-app.cjs', args: [`${dist}cjs/index.js`, 'plugin'], bare: 'bare-cjs' },
  { id: 'cors', name: '@fastify/cors, for reference (`import`)', app: 'cold-start-app.mjs', args: [resolve('@fastify/cors'), 'cors'], bare: 'bare-esm', reference: true }
]
for (const revision of args.against) {
  const { rev, dir } = buildRevision(revision)
  rows.push(
    { id: `esm@${rev}`, name: `ESM build at ${rev} (\`import\`)`, app: 'cold-start-app.mjs', args: [`${dir}esm/index.js`, 'plugin'], bare: 'bare-esm' },
    { id: `cjs@${rev}`, name: `CommonJS build at ${rev} (\`require\`)`, app: 'cold-start-app.cjs', args: [`${dir}cjs/index.js`, 'plugin'], bare: 'bare-cjs' })
}

/** One cold start: the row's CPU figures in ms since its process started (see cold-start-app.mjs). */
function coldStart (row, execArgv = []) {
  const child = spawnSync(process.execPath, [...execArgv, new URL(row.app, import.meta.url).pathname, fastify, ...row.args], { encoding: 'utf8' })
  if (child.status !== 0) throw new Error(`${row.name}: exited ${child.status}\n${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1))
}

if (args.profile !== undefined) {
  const row = rows.find(r => r.id === args.profile)
  if (row?.bare === undefined) throw new Error(`--profile takes one of ${rows.filter(r => r.bare).map(r => r.id).join(', ')}`)
  profileRow(row, rows.find(r => r.id === row.bare), coldStart)
} else {
  measure()
}

function measure () {
  const samples = new Map(rows.map(r => [r.id, []]))
  console.error(`${runs} runs of each of ${rows.length} rows, interleaved; about ${Math.round(runs * rows.length * 0.6)} s`)
  const started = Date.now()
  for (let round = 0; round < runs; round++) {
    for (const row of rotate(rows, round)) samples.get(row.id).push(coldStart(row))
    if ((round + 1) % 5 === 0) console.error(`round ${round + 1} of ${runs}`)
  }
  const table = render(samples, (Date.now() - started) / 1000)
  console.log(table)
  write(table)
}

function render (samples, seconds) {
  const ms = n => n.toFixed(1)
  const spread = list => `${ms(median(list))} (${ms(Math.min(...list))}–${ms(Math.max(...list))})`
  const totals = new Map(rows.map(r => [r.id, median(samples.get(r.id).map(s => s.ready))]))
  const out = ['## Cold start: import → register → ready()', '']
  out.push('Written by `npm run bench:cold-start` (benchmarks/cold-start.mjs) between the cold-start markers. Each run is a fresh ' +
    '`node` process that imports Fastify, then the entry, registers it (`{ problemDetails: true }`), declares one route ' +
    '(versioned `1.0` for the plugin) and awaits `ready()`. Figures are the process\'s own CPU time (user + system, ' +
    'all threads), in ms: *import* is the entry\'s import after Fastify\'s; *total* runs from the process\'s start to ' +
    `after \`ready()\`; *over bare* is the row's median total less bare Fastify's with the same loader. Target: at most +${TARGET} ms over bare Fastify.`, '')
  out.push('| row | import, median (min–max) | total, median (min–max) | over bare Fastify | target |', '|---|---:|---:|---:|---|')
  for (const row of rows) {
    const list = samples.get(row.id)
    const over = row.bare === undefined ? undefined : totals.get(row.id) - totals.get(row.bare)
    const verdict = over === undefined || row.reference ? '' : over <= TARGET ? 'holds' : `missed by ${ms(over - TARGET)} ms`
    out.push(`| ${row.name} | ${row.bare === undefined ? '' : spread(list.map(s => s.entry - s.fastify))} | ${spread(list.map(s => s.ready))} | ` +
      `${over === undefined ? '' : `${over >= 0 ? '+' : '−'}${ms(Math.abs(over))}`} | ${verdict} |`)
  }
  out.push('')
  out.push(`- Node's own start (before the first line of the app) ${ms(median(rows.flatMap(r => samples.get(r.id).map(s => s.boot))))} ms; ` +
    `importing Fastify ${ms(median(samples.get('bare-esm').map(s => s.fastify - s.boot)))} ms (\`import\`), ` +
    `${ms(median(samples.get('bare-cjs').map(s => s.fastify - s.boot)))} ms (\`require\`): medians`)
  out.push(`- Machine: ${describeMachine()}`)
  out.push(`- Run: ${new Date().toISOString().slice(0, 10)}, \`npm run bench:cold-start${command()}\`, ` +
    `${runs} runs of each row, interleaved (row order rotated each round); ${Math.round(seconds)} s in all`)
  return out.join('\n')
}

// The options of this run, as they are given to npm run.
function command () {
  const given = [...(args.runs === DEFAULT_RUNS ? [] : ['--runs', args.runs]), ...args.against.flatMap(rev => ['--against', rev])]
  return given.length === 0 ? '' : ` -- ${given.join(' ')}`
}

// Replaces what is between the markers; a first run puts them before the notes that run.mjs keeps.
function write (table) {
  const resultsUrl = new URL(process.env.BENCH_RESULTS ?? 'results.md', import.meta.url)
  let previous = ''
  try { previous = readFileSync(resultsUrl, 'utf8') } catch {}
  const [START, END] = ['<!-- cold-start -->', '<!-- /cold-start -->']
  const from = previous.indexOf(START)
  const to = from === -1 ? -1 : previous.indexOf(END, from)
  const notes = previous.indexOf('<!-- notes -->')
  const next = to !== -1
    ? previous.slice(0, from + START.length) + `\n${table}\n` + previous.slice(to)
    : notes !== -1
      ? previous.slice(0, notes) + `${START}\n${table}\n${END}\n\n` + previous.slice(notes)
      : previous + (previous === '' ? '' : '\n') + `${START}\n${table}\n${END}\n`
  writeFileSync(resultsUrl, next)
  console.log(`\nwritten to ${resultsUrl.pathname}`)
}

// Another revision's builds, for a before/after in one interleaved run: its files from git, built beside the
// repository (in .scratch/, which git ignores) with the repository's node_modules.
function buildRevision (revision) {
  const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim()
  const rev = git('rev-parse', '--short', `${revision}^{commit}`)
  const dir = new URL(`.scratch/cold-start-${rev}/`, root)
  if (!existsSync(new URL('dist/cjs/index.js', dir))) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git archive ${rev} | tar -x -C "${dir.pathname}"`], { cwd: root })
    symlinkSync(new URL('node_modules', root).pathname, new URL('node_modules', dir))
    console.error(`building ${rev} in ${dir.pathname}`)
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  }
  return { rev, dir: new URL('dist/', dir).pathname }
}
