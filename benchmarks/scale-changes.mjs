// The benchmarks of issues #36 (version changes at Stripe's scale: start-up and memory) and #38 (old versions'
// conversions at the hand-written floor), over the apps of servers/scale-changes-apps.mjs: one API of orders
// served by plain Fastify, by hand, by this plugin's ordinary versioned routes and by its `versionChanges` routes.
// Only the plugin's public API is used, so it measures whatever dist/ is built: the same command before and after
// a redesign. Three parts; each prints its table and writes it into scale-changes.md between its markers (the
// rest of the file, the targets' text and the notes, is kept):
//
// - startup (#36): fresh processes (servers/scale-changes.mjs) that import, register, declare the routes and await
//   ready(): CPU ms (user + system, all threads) and heap after a full collection, medians over rounds; then over
//   real HTTP the wall time of the first requests of the newest and the oldest version (what a version whose work
//   is deferred to its first request pays). A row that cannot start is recorded as such (refused, out of memory,
//   over the time limit), never failing the run; a row that takes long runs once.
// - requests (#36): server instructions per request over real HTTP (callgrind; instrumentation off until the first
//   counted window, so that start-up and warm-up cost no more than valgrind's plain emulation): the newest
//   version's GET after a warm-up, then the oldest version's very first GET (one request: what it pays for work
//   deferred to it), then the oldest's GET after a warm-up of its own. The same apps, at fewer paths.
// - conversions (#38): the same way, one server process per row, GET /orders/:id, POST /orders (10 lines) and
//   GET /orders/:id/lines (10,000 lines) at the newest version, 1 and 10 steps back, against an ordinary versioned
//   route serving the newest version and hand-written converters (naming every field, or rest/spread).
//
// - in-process (#38): the conversions part's rows counted in process (instructions.mjs's mode: no socket, Node's
//   own request and response objects, cachegrind; 12,000 and 24,000 requests, the difference per request): to a few
//   instructions the same from run to run, where over HTTP a row's windows spread by up to ~2,000, more than a
//   hand-written converter's whole extra, so that the ratios of #38 are read here.
//
//   node benchmarks/scale-changes.mjs [scale | conversions | in-process | startup | requests ...]   (default: scale,
//   which is startup and requests; `all` runs the four)
// Settings (environment):
//   SCALE_CHANGES_ROUNDS (5)        start-up rounds, interleaved (row order rotated each round)
//   SCALE_CHANGES_ONCE_OVER (30)    a row whose first start takes more CPU seconds than this runs once
//   SCALE_CHANGES_LIMIT (120)       CPU seconds a start may take before it is stopped and recorded as over the
//                                   limit (and five times that in wall seconds, for a busy host)
//   SCALE_CHANGES_REQUEST_PATHS (10)  paths of the apps of the requests part (a request's cost does not depend on
//                                   them; today's plugin takes minutes to start 1,000 under valgrind)
//   SCALE_CHANGES_WARMUP (12000), SCALE_CHANGES_WINDOW (2000)  requests before counting, and per counted window
//                                   (three windows back to back; their median is the figure)
//   SCALE_CHANGES_LINES_WARMUP (200), SCALE_CHANGES_LINES_WINDOW (20)  the same for the 10,000-line rows
//   SCALE_CHANGES_ONLY              row ids, comma-separated (`get-1*`: every id that starts so): only those rows
//   SCALE_CHANGES_QUICK=1           a trial: 1 round, a 60 s limit, warm-ups and windows a quarter as long
//   SCALE_CHANGES_RESULTS (scale-changes.md)   PLUGIN_DIST: another build's ESM entry, relative to servers/
// Needs valgrind (apt-get install valgrind) for requests and conversions, and `npm run build`.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import os from 'node:os'
import { promisify } from 'node:util'
import { cpuMicros } from './proc.mjs'
import { describeMachine, median, rotate } from './report.mjs'
import { humanDuration, plural, progress } from './progress.mjs'
import { LINES_ROUTE_ITEMS, pathOf, requestsFor } from './servers/scale-changes-apps.mjs'

const run = promisify(execFile)
const here = new URL('.', import.meta.url)
const server = new URL('servers/scale-changes.mjs', here).pathname
const env = (name, fallback) => Number(process.env[name] ?? fallback)
const quick = process.env.SCALE_CHANGES_QUICK === '1'
const ROUNDS = env('SCALE_CHANGES_ROUNDS', quick ? 1 : 5)
const ONCE_OVER = env('SCALE_CHANGES_ONCE_OVER', 30)
const LIMIT = env('SCALE_CHANGES_LIMIT', quick ? 60 : 120)
const REQUEST_PATHS = env('SCALE_CHANGES_REQUEST_PATHS', 10)
const WARMUP = env('SCALE_CHANGES_WARMUP', quick ? 3000 : 12_000)
const WINDOW = env('SCALE_CHANGES_WINDOW', quick ? 500 : 2000)
const LINES_WARMUP = env('SCALE_CHANGES_LINES_WARMUP', quick ? 50 : 200)
const LINES_WINDOW = env('SCALE_CHANGES_LINES_WINDOW', quick ? 5 : 20)
const WINDOWS = 3
const ONLY = (process.env.SCALE_CHANGES_ONLY ?? '').split(',').filter(Boolean)
const RESULTS = new URL(process.env.SCALE_CHANGES_RESULTS ?? 'scale-changes.md', here)
// A row id, or the start of some followed by `*`.
const only = rows => rows.filter(row => ONLY.length === 0 || ONLY.some(text => text.endsWith('*') ? row.id.startsWith(text.slice(0, -1)) : row.id === text))

// ---- The rows ----

const PATHS = 1000
/** The apps of #36, as the start-up part runs them (the requests part runs them at REQUEST_PATHS paths). */
const APPS = [
  { id: 'plain', kind: 'plain', paths: PATHS, versions: 10, what: 'plain Fastify, no versions' },
  { id: 'dispatch-10', kind: 'dispatch', paths: PATHS, versions: 10, what: 'by hand: a route per method and path dispatching on 10 versions' },
  { id: 'routes-10', kind: 'routes', paths: PATHS, versions: 10, what: 'by hand: a route per version, 10 versions' },
  { id: 'ordinary', kind: 'ordinary', paths: PATHS, versions: 10, what: 'plugin: ordinary `apiVersions` routes, the newest version only' },
  { id: 'changes-10', kind: 'changes', paths: PATHS, versions: 10, what: 'plugin: `versionChanges`, 10 versions each touching' },
  { id: 'changes-25', kind: 'changes', paths: PATHS, versions: 25, what: 'plugin: `versionChanges`, 25 versions each touching' },
  { id: 'changes-30', kind: 'changes', paths: PATHS, versions: 30, what: 'plugin: `versionChanges`, 30 versions each touching' },
  { id: 'changes-100-every-4', kind: 'changes', paths: PATHS, versions: 100, every: 4, what: 'plugin: `versionChanges`, 100 versions, every 4th touching (25 shapes)' },
  { id: 'changes-100', kind: 'changes', paths: PATHS, versions: 100, what: 'plugin: `versionChanges`, 100 versions each touching' },
  { id: 'changes-200-one-path', kind: 'changes', paths: 1, versions: 200, what: 'plugin: `versionChanges`, one path (GET + POST), 200 versions each touching' }
]
const hasOldest = app => !['plain', 'ordinary'].includes(app.kind)
const sizeOf = app => app.kind === 'plain'
  ? `${app.paths.toLocaleString('en')}, no versions`
  : `${app.paths.toLocaleString('en')} × ${app.kind === 'ordinary' ? `1 (${app.versions}.0)` : app.versions}${app.every > 1 ? ` (every ${app.every}th)` : ''}`

/** The rows of #38: one server process each, app (kind) at one path and 11 versions, request, version index. */
const CONVERSION_APP = { paths: 1, versions: 11, every: 1, lines: true }
const CONVERSIONS = [
  ['get-base', 'ordinary', 'get', 0, 'GET, an ordinary `apiVersions` route, newest version (the base)'],
  ['get-newest', 'changes', 'get', 0, 'GET, plugin, newest version'],
  ['get-1', 'changes', 'get', 1, 'GET, plugin, 1 step back'],
  ['get-10', 'changes', 'get', 10, 'GET, plugin, 10 steps back'],
  ['get-1-named', 'hand-named', 'get', 1, 'GET, by hand, one converter naming every field, 1 step back'],
  ['get-10-named', 'hand-named', 'get', 10, 'GET, by hand, one converter naming every field, 10 steps back'],
  ['get-10-named-chain', 'hand-named-chain', 'get', 10, 'GET, by hand, a converter naming every field per step, chained, 10 steps back'],
  ['get-1-spread', 'hand-spread', 'get', 1, 'GET, by hand, rest/spread, 1 step back'],
  ['get-10-spread', 'hand-spread', 'get', 10, 'GET, by hand, one rest/spread converter, 10 steps back'],
  ['get-10-spread-chain', 'hand-spread-chain', 'get', 10, 'GET, by hand, a rest/spread converter per step, chained, 10 steps back'],
  ['post-base', 'ordinary', 'post', 0, 'POST, an ordinary `apiVersions` route, newest version (the base)'],
  ['post-newest', 'changes', 'post', 0, 'POST, plugin, newest version'],
  ['post-1', 'changes', 'post', 1, 'POST (10 lines converted up), plugin, 1 step back'],
  ['post-10', 'changes', 'post', 10, 'POST, plugin, 10 steps back'],
  ['post-1-named', 'hand-named', 'post', 1, 'POST, by hand, one converter naming every field, 1 step back'],
  ['post-10-named', 'hand-named', 'post', 10, 'POST, by hand, one converter naming every field, 10 steps back'],
  ['post-10-named-chain', 'hand-named-chain', 'post', 10, 'POST, by hand, a converter naming every field per step, chained, 10 steps back'],
  ['post-1-spread', 'hand-spread', 'post', 1, 'POST, by hand, rest/spread, 1 step back'],
  ['post-10-spread', 'hand-spread', 'post', 10, 'POST, by hand, one rest/spread converter, 10 steps back'],
  ['post-10-spread-chain', 'hand-spread-chain', 'post', 10, 'POST, by hand, a rest/spread converter per step, chained, 10 steps back'],
  ['lines-base', 'ordinary', 'lines', 0, `GET /lines (${LINES_ROUTE_ITEMS.toLocaleString('en')} lines), an ordinary \`apiVersions\` route, newest version (the base)`],
  ['lines-newest', 'changes', 'lines', 0, 'GET /lines, plugin, newest version'],
  ['lines-1', 'changes', 'lines', 1, 'GET /lines, plugin, 1 step back'],
  ['lines-1-named', 'hand-named', 'lines', 1, 'GET /lines, by hand, a loop naming every field, 1 step back']
].map(([id, kind, request, k, what]) => ({ id, kind, request, k, what }))
// Rows counted in process only: the newest version's requests at 20 paths, and of a server that has first served older
// ones on every path (`before`: that many rounds of version k's request to each of `paths` paths), where what V8 made of
// the code differs (each route's older requests once ran on an object of a kind of its own: +4,100 at 20 paths).
const AFTER_OLDER = { k: 1, paths: 20, rounds: 50 }
const IN_PROCESS_ROWS = [
  { id: 'post-base-paths', kind: `ordinary@${AFTER_OLDER.paths}`, request: 'post', k: 0, what: `POST, an ordinary \`apiVersions\` route, newest version, ${AFTER_OLDER.paths} paths` },
  { id: 'post-newest-paths', kind: `changes@${AFTER_OLDER.paths}`, request: 'post', k: 0, what: `POST, plugin, newest version, ${AFTER_OLDER.paths} paths` },
  { id: 'post-newest-after-older', kind: `changes@${AFTER_OLDER.paths}`, request: 'post', k: 0, before: AFTER_OLDER, what: `POST, plugin, newest version, ${AFTER_OLDER.paths} paths, after ${(AFTER_OLDER.paths * AFTER_OLDER.rounds).toLocaleString('en')} requests 1 step back to them` },
  // The same two of the hand-written app (a route per version, one converter naming every field): what serving older
  // requests leaves in V8 and the heap without the plugin's conversions.
  { id: 'post-named-paths', kind: `hand-named@${AFTER_OLDER.paths}`, request: 'post', k: 0, what: `POST, by hand (a route per version), newest version, ${AFTER_OLDER.paths} paths` },
  { id: 'post-named-after-older', kind: `hand-named@${AFTER_OLDER.paths}`, request: 'post', k: 0, before: AFTER_OLDER, what: `POST, by hand (a route per version), newest version, ${AFTER_OLDER.paths} paths, after ${(AFTER_OLDER.paths * AFTER_OLDER.rounds).toLocaleString('en')} requests 1 step back to them` }
]

// ---- Processes ----

// The server on the last CPU, when taskset and two CPUs are there (as proc.mjs does for the other benchmarks).
const cpus = os.availableParallelism()
const pinned = cpus >= 2 && await run('taskset', ['-c', '0', 'true']).then(() => true, () => false)
const STARTUP_FLAGS = ['--expose-gc']
// Valgrind's runs: deterministic V8 (as instructions.mjs), the young generation pinned, and no memory reducer: it
// starts major collections by wall time (when allocation looks slow), which valgrind stretches ~50×, so apps with
// larger heaps paid for them in some windows and not others (+70,000 a request, windows 35,000 apart). V8's
// --predictable-gc-schedule is no cure: it shrinks the young generation, and every app then promotes and
// mark-compacts in every window (the ordinary route 207,000 a request instead of 100,000). No collection is started by
// a task either (--no-minor-gc-task, --no-incremental-marking-task): a task runs when the host's clock says so, which
// valgrind stretches, and a scavenge or marking a task started in the middle of a request cost 50,000–100,000 a
// request more in one app's windows than in another's (the hand-written conversion rows, and the newest version of
// half the apps, of the first runs). Without them a collection comes when allocation calls for it: what a request
// allocates is paid for in proportion, the same in every run. A major collection's marking then advances only as
// requests allocate: in the largest apps one that their start began is under way in every window (50,000 a
// request, and write barriers that cost more while it lasts), which the collector column shows. (A full collection
// before counting made it worse: V8 then set its limits low and marked again and again.)
const VALGRIND_FLAGS = ['--single-threaded', '--predictable', '--no-memory-reducer', '--no-minor-gc-task', '--no-incremental-marking-task', '--hash-seed=1', '--random-seed=1', '--min-semi-space-size=16', '--max-semi-space-size=16']

/** Why a process ended before it served: its error's first line, or what stopped it. */
function failureOf (stderr, code, signal) {
  if (/heap out of memory|Reached heap limit/i.test(stderr)) return 'out of memory (V8 heap limit)'
  // The error's own line (`FastifyError [Error]: ...`), not the source line Node prints above it.
  const lines = stderr.split('\n')
  const line = lines.find(l => /^[\w$.]*(Error|Exception)\b[^:]*: /.test(l)) ?? lines.find(l => l.includes('fastify-api-versioning:')) ?? stderr.trim().split('\n').at(-1) ?? ''
  // Its first clause: the rest (the fix it suggests) is in the plugin's docs.
  const message = line.replace(/^[\w$.]*(Error|Exception)\b[^:]*: /, '').trim().split(/; /)[0]
  return `refused: ${message.length > 220 ? `${message.slice(0, 220)}…` : message || `exited ${code ?? signal}`}`
}

/** One start of an app: `{ figures }` once it serves (and `child`, `port`), or `{ failure }`. */
async function start (app) {
  const args = [server, app.kind, String(app.paths), String(app.versions), String(app.every ?? 1)]
  const command = pinned ? ['taskset', ['-c', String(cpus - 1), process.execPath, ...STARTUP_FLAGS, ...args]] : [process.execPath, [...STARTUP_FLAGS, ...args]]
  const child = spawn(...command, { cwd: here, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, NODE_ENV: 'production' } })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', chunk => { stderr = (stderr + chunk).slice(-20_000) })
  // The limit is on the process's CPU time (the figure measured), with a wall-time bound for a host too busy to give it.
  let timer
  const began = Date.now()
  const result = await Promise.race([
    once(child, 'message').then(([figures]) => ({ figures, child, port: figures.port })),
    once(child, 'exit').then(([code, signal]) => ({ failure: failureOf(stderr, code, signal) })),
    new Promise(resolve => {
      timer = setInterval(() => {
        let cpu = 0
        try { cpu = cpuMicros(child.pid) / 1e6 } catch {}
        if (cpu > LIMIT) resolve({ failure: `over ${LIMIT} s of CPU (stopped)` })
        else if (Date.now() - began > 5000 * LIMIT) resolve({ failure: `over ${5 * LIMIT} s of wall time (stopped; ${Math.round(cpu)} s of CPU)` })
      }, 500)
    })
  ])
  clearInterval(timer)
  if (result.failure !== undefined) await stop(child, 'SIGKILL')
  return result
}

async function stop (child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill(signal)
  await exited
}

/** One request on `agent`: `{ status, ms, body }` (the body only when `read`). */
function send (port, agent, { method, path, headers, body }, read = false) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, res => {
      const chunks = []
      if (read) res.on('data', chunk => chunks.push(chunk))
      else res.resume()
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, body: read ? Buffer.concat(chunks).toString() : undefined }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const expected = which => which === 'post' ? 201 : 200
/** Sends `n` requests one after another, every status checked (and the first body, by the request's check). */
async function sendMany (port, agent, which, req, n) {
  for (let i = 0; i < n; i++) {
    const { status, body } = await send(port, agent, req, i === 0)
    if (status !== expected(which)) throw new Error(`${req.method} ${req.path} (${req.headers['api-version']}): answered ${status}, not ${expected(which)}`)
    if (i === 0) {
      const wrong = req.check(body)
      if (wrong !== null) throw new Error(`${req.method} ${req.path} (${req.headers['api-version']}): ${wrong}`)
    }
  }
}

// ---- Start-up (#36) ----

async function startupPart () {
  const apps = only(APPS)
  const samples = new Map(apps.map(app => [app.id, { cpuMs: [], wallMs: [], heapMB: [], routes: 0, gc: true, first: { newest: [], oldest: [], next: [], post: [] }, failure: undefined, once: false }]))
  console.error(`start-up: ${plural(apps.length, 'app')} × up to ${plural(ROUNDS, 'round')} (a row over ${ONCE_OVER} s of CPU runs once; a start over ${LIMIT} s of CPU is stopped)`)
  const began = Date.now()
  let steps = 0
  const step = () => `${plural(++steps, 'start')} done, ${humanDuration((Date.now() - began) / 1000)} in`
  for (let round = 0; round < ROUNDS; round++) {
    for (const app of rotate(apps, round)) {
      const s = samples.get(app.id)
      if (s.failure !== undefined || (s.once && s.cpuMs.length > 0)) continue
      const started = await start(app)
      if (started.failure !== undefined) {
        s.failure = started.failure
        console.error(`round ${round + 1}/${ROUNDS}: ${app.id}: ${s.failure}; ${step()}`)
        continue
      }
      const { figures, child, port } = started
      s.cpuMs.push(figures.cpuMs)
      s.wallMs.push(figures.wallMs)
      s.heapMB.push(figures.heapMB)
      s.routes = figures.routes
      s.gc &&= figures.gc
      s.once = figures.cpuMs > ONCE_OVER * 1000
      // The first requests, over real HTTP, each version's first: the newest's, then the oldest's (what work
      // deferred to a version's first request costs), its next one, and the oldest's first POST.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        const newest = requestsFor(app, 0)
        const first = async (which, req) => {
          const { status, ms, body } = await send(port, agent, req, true)
          if (status !== expected(which)) throw new Error(`${req.method} ${req.path} (${req.headers['api-version']}) answered ${status}: ${body.slice(0, 200)}`)
          const wrong = req.check(body)
          if (wrong !== null) throw new Error(`${req.method} ${req.path} (${req.headers['api-version']}): ${wrong}`)
          return ms
        }
        s.first.newest.push(await first('get', newest.get))
        if (hasOldest(app)) {
          const oldest = requestsFor(app, app.versions - 1)
          s.first.oldest.push(await first('get', oldest.get))
          s.first.next.push(await first('get', oldest.get))
          s.first.post.push(await first('post', oldest.post))
        }
      } catch (error) {
        // A wrong answer is the row's result, not the end of the run.
        s.failure = `wrong answer: ${error.message}`
      } finally {
        agent.destroy()
        await stop(child)
      }
      console.error(`round ${round + 1}/${ROUNDS}: ${app.id} ${Math.round(figures.cpuMs)} ms CPU, ${figures.heapMB.toFixed(0)} MB${s.once ? ' (runs once)' : ''}${s.failure ? `, ${s.failure}` : ''}; ${step()}`)
    }
  }
  return { apps, samples }
}

// A count as the tables write it ('' for none), and a difference, with its sign.
const count = v => v === undefined ? '' : Math.round(v).toLocaleString('en')
const signed = v => v === undefined ? '' : `${v < 0 ? '−' : '+'}${count(Math.abs(v))}`

/**
 * The rows of a table of counts: its header and alignment rows, then a row an item measured, in order (none for
 * an item not run); a failure writes the item's first cells (`lead`), then why, the other cells empty.
 */
function countedRows (header, align, items, results, lead, cells) {
  const out = [`| ${header.join(' | ')} |`, `|${align.join('|')}|`]
  for (const item of items) {
    const r = results.get(item.id)
    if (r === undefined) continue
    const row = r.failure === undefined ? cells(item, r) : [...lead(item), r.failure]
    out.push(`| ${[...row, ...Array(header.length - row.length).fill('')].join(' | ')} |`)
  }
  return out
}

function renderStartup ({ apps, samples }, minutes) {
  const f = id => {
    const s = samples.get(id)
    if (s === undefined || s.cpuMs.length === 0) return undefined
    return { ...s, cpuMs: median(s.cpuMs), wallMs: median(s.wallMs), heapMB: median(s.heapMB), runs: s.cpuMs.length, newest: median(s.first.newest), oldest: s.first.oldest.length ? median(s.first.oldest) : undefined, next: s.first.next.length ? median(s.first.next) : undefined, post: s.first.post.length ? median(s.first.post) : undefined }
  }
  const ms = n => n === undefined ? '' : n.toFixed(n < 10 ? 1 : 0)
  const out = ['## Start-up and memory (#36)', '']
  out.push('Written by `node benchmarks/scale-changes.mjs` (its startup part) between the startup markers. Each start is a fresh ' +
    '`node --expose-gc` process (servers/scale-changes.mjs) that imports Fastify and the app\'s modules (the plugin\'s too, for its ' +
    'rows), registers, declares the routes and awaits `ready()`: **CPU** is its user + system time (all threads) from its first line ' +
    'to after `ready()`, **heap** `heapUsed` after two full collections, medians over the runs. Every path has GET `/r<i>/orders/:id` ' +
    '(an order of 10 fields with 10 lines of 5) and POST `/r<i>/orders` (a new order with 10 lines, answered 201 `{ id }`); a version ' +
    'that touches the routes renames one field of the order and one of every line. **Routes**: the router\'s, HEAD routes left out. ' +
    'Then over real HTTP (loopback, one keep-alive connection, wall time at the client): the first GET of the newest version, the first ' +
    'GET of the oldest, its second GET, and the oldest\'s first POST, which is what a version whose work waits for its first request pays.', '')
  out.push('| app | paths × versions | runs | routes | ready() CPU ms | × dispatch | heap MB | × dispatch | first GET, newest, ms | first GET, oldest, ms | its next GET, ms | first POST, oldest, ms |')
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
  const dispatch = f('dispatch-10')
  for (const app of apps) {
    const s = samples.get(app.id)
    const r = f(app.id)
    if (r === undefined) {
      out.push(`| ${app.what} | ${sizeOf(app)} | | | ${s.failure} | | | | | | | |`)
      continue
    }
    const times = (a, b) => b === undefined ? '' : `${(a / b).toFixed(2)}×`
    out.push(`| ${app.what} | ${sizeOf(app)} | ${r.runs} | ${count(r.routes)} | ${count(r.cpuMs)} | ${times(r.cpuMs, dispatch?.cpuMs)} | ${r.heapMB.toFixed(1)} | ${times(r.heapMB, dispatch?.heapMB)} | ` +
      `${ms(r.newest)} | ${ms(r.oldest)} | ${ms(r.next)} | ${ms(r.post)} |`)
  }
  out.push('')
  out.push(`- Machine: ${describeMachine()}; ${pinned ? `servers on CPU ${cpus - 1} (taskset)` : 'not pinned'}. CPU time, not wall time, is the figure: the host may be busy.`)
  out.push(`- Run: ${new Date().toISOString().slice(0, 10)}, up to ${plural(ROUNDS, 'round')}, row order rotated each round; a row whose first start took over ${ONCE_OVER} s of CPU ran once; ` +
    `a start is stopped after ${LIMIT} s of CPU; ${minutes.toFixed(1)} min in all${[...samples.values()].every(s => s.gc) ? '' : '; gc() was not available: heap without a collection'}.`)
  return { table: out.join('\n'), figures: f }
}

// ---- Instructions over real HTTP, under callgrind ----

const CALLGRIND = ['--tool=callgrind', '--instr-atstart=no']

/** A server of servers/scale-changes.mjs under callgrind, its instrumentation off until `window` counts. */
async function valgrindServer (app) {
  const out = `${os.tmpdir()}/scale-changes-${process.pid}-${app.id}.callgrind`
  const args = [...CALLGRIND, `--callgrind-out-file=${out}`, process.execPath, ...VALGRIND_FLAGS, server, app.kind, String(app.paths), String(app.versions), String(app.every ?? 1), ...(app.lines ? ['--lines'] : [])]
  const child = spawn('valgrind', args, { cwd: here, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', chunk => { stderr = (stderr + chunk).slice(-20_000) })
  let timer
  const port = await Promise.race([
    once(child.stdout.setEncoding('utf8'), 'data').then(([line]) => Number(line.trim())),
    once(child, 'exit').then(([code, signal]) => ({ failure: failureOf(stderr, code, signal) })),
    new Promise(resolve => { timer = setTimeout(() => resolve({ failure: `over ${LIMIT * 10} s to start under valgrind (stopped)` }), LIMIT * 10_000) })
  ])
  clearTimeout(timer)
  if (typeof port === 'object') {
    await stop(child, 'SIGKILL')
    cleanUp(out)
    return port
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let dumps = 0
  let instrumented = false
  const control = (...options) => run('callgrind_control', [...options, String(child.pid)])
  return {
    port,
    /** Sends `n` of `which` (uncounted; the instrumentation is off until the first window). */
    warm: (which, req, n) => sendMany(port, agent, which, req, n),
    /** Counts the server's instructions over `n` requests (counters zeroed, the requests, a dump): `{ total, collector }`. */
    async window (which, req, n) {
      if (!instrumented) await control('--instr=on')
      instrumented = true
      await control('--zero')
      await sendMany(port, agent, which, req, n)
      await control('--dump')
      dumps++
      return countsOf(`${out}.${dumps}`)
    },
    async close () {
      const exited = once(child, 'exit')
      await send(port, agent, { method: 'GET', path: '/__exit', headers: {} }).catch(() => {})
      agent.destroy()
      await exited
      cleanUp(out)
    },
    async kill () {
      agent.destroy()
      await stop(child, 'SIGKILL')
      cleanUp(out)
    }
  }
}

// What V8's collector costs in a dump, as callgrind_annotate --inclusive names it: collections (a scavenge, a
// mark-compact's end), and the steps of a major collection's marking that allocation runs.
const COLLECTOR = [
  /^\s*([\d,]+) \([^)]*\)\s+\?\?\?:v8::internal::Heap::CollectGarbage\(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason, v8::GCCallbackFlags\) \[/m,
  /^\s*([\d,]+) \([^)]*\)\s+\?\?\?:v8::internal::IncrementalMarking::Observer::Step\(/m
]

/** A dump's instructions: `{ total, collector }` (see COLLECTOR). */
async function countsOf (file) {
  const m = /^(?:totals|summary): (\d+)/m.exec(readFileSync(file, 'utf8'))
  if (m === null) throw new Error(`no totals in ${file}`)
  const { stdout } = await run('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], { maxBuffer: 256 * 2 ** 20 })
  const collector = COLLECTOR.reduce((sum, pattern) => sum + Number(pattern.exec(stdout)?.[1].replaceAll(',', '') ?? 0), 0)
  return { total: Number(m[1]), collector }
}

function cleanUp (out) {
  const dir = out.slice(0, out.lastIndexOf('/'))
  const base = out.slice(out.lastIndexOf('/') + 1)
  for (const name of readdirSync(dir)) if (name.startsWith(base)) rmSync(`${dir}/${name}`, { force: true })
}

/**
 * Per request, after a warm-up of `warm`: the median of WINDOWS windows of `n` back to back, and their spread (the
 * largest window's figure less the smallest's). A scavenge costs millions of instructions and comes every several
 * hundred requests, so a window of 2,000 holds one more or one fewer of them than the next: a few thousand a request
 * apart. Targets of a few hundred want instructions.mjs's longer runs (20,000 and 40,000 requests).
 */
async function perRequest (vg, which, req, warm, n) {
  await vg.warm(which, req, warm)
  const counts = []
  const collector = []
  for (let i = 0; i < WINDOWS; i++) {
    const window = await vg.window(which, req, n)
    counts.push(window.total / n)
    collector.push(window.collector / n)
  }
  return { value: median(counts), spread: Math.max(...counts) - Math.min(...counts), collector: median(collector) }
}

/** Runs `task` over `items`, two at a time (instructions do not depend on what else runs). */
async function inPairs (items, task) {
  const queue = [...items]
  const worker = async () => { while (queue.length > 0) await task(queue.shift()) }
  await Promise.all([worker(), worker()])
}

// ---- Requests of the #36 apps ----

async function requestsPart () {
  const apps = only(APPS).map(app => ({ ...app, paths: Math.min(app.paths, REQUEST_PATHS) }))
  const results = new Map()
  console.error(`requests: ${plural(apps.length, 'app')} under callgrind, ${WARMUP.toLocaleString('en')} warm-up requests and ${WINDOWS} windows of ${WINDOW.toLocaleString('en')} per version, two apps at a time`)
  const done = progress(apps.length, apps.length)
  await inPairs(apps, async app => {
    const vg = await valgrindServer(app)
    if (vg.failure !== undefined) {
      results.set(app.id, { failure: vg.failure })
      console.error(`requests: ${app.id}: ${vg.failure}; ${done.step(1)}`)
      return
    }
    try {
      const r = {}
      const newest = requestsFor(app, 0)
      r.newest = await perRequest(vg, 'get', newest.get, WARMUP, WINDOW)
      if (hasOldest(app)) {
        const oldest = requestsFor(app, app.versions - 1)
        r.first = (await vg.window('get', oldest.get, 1)).total
        r.oldest = await perRequest(vg, 'get', oldest.get, WARMUP, WINDOW)
      }
      await vg.close()
      results.set(app.id, r)
      console.error(`requests: ${app.id} newest ${Math.round(r.newest.value)}${r.oldest ? `, oldest ${Math.round(r.oldest.value)}` : ''}; ${done.step(1)}`)
    } catch (error) {
      await vg.kill()
      results.set(app.id, { failure: `wrong answer: ${error.message}` })
      console.error(`requests: ${app.id}: ${error.message}; ${done.step(1)}`)
    }
  })
  return { apps, results }
}

function renderRequests ({ apps, results }, minutes) {
  const ordinary = results.get('ordinary')?.newest?.value
  const out = ['## Requests (#36): server instructions per request over real HTTP', '']
  out.push('Written by `node benchmarks/scale-changes.mjs` (its requests part) between the requests markers. The apps of the start-up ' +
    `table at ${REQUEST_PATHS.toLocaleString('en')} paths (the one-path row at one), each a real server under valgrind (callgrind, ` +
    'instrumentation off until the first counted window; Node with `--single-threaded --predictable --no-memory-reducer` and no ' +
    'collection started by a task, ' +
    'fixed seeds, the young generation pinned); a client outside it sends requests one after another on one keep-alive connection, checking every ' +
    `status and the first body of each phase. GET \`/r<mid>/orders/42\`: the newest version after ${WARMUP.toLocaleString('en')} warm-up ` +
    `requests, the median of ${WINDOWS} windows of ${WINDOW.toLocaleString('en')} back to back; then the oldest version's very first request (one, ` +
    'counted alone: what a version whose work waits for its first request pays), then the oldest after a warm-up of its own. ' +
    '**Δ newest** is over the ordinary `apiVersions` route serving the newest version; **oldest − newest** is what the old version\'s ' +
    'conversion costs in that app; the spread is the largest minus the smallest window; **collector**, the share of V8\'s collector in a ' +
    'request (collections and a major collection\'s marking steps, newest / oldest), which is high where a marking is under way.', '')
  out.push(...countedRows(
    ['app', 'paths × versions', 'newest', 'Δ newest vs ordinary', 'oldest, first request', 'oldest', 'oldest − newest', 'spread (newest / oldest)', 'collector (newest / oldest)'],
    ['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'], apps, results,
    app => [app.what, sizeOf(app)],
    (app, r) => [app.what, sizeOf(app), count(r.newest.value), app.id === 'ordinary' || ordinary === undefined ? '' : signed(r.newest.value - ordinary),
      count(r.first), count(r.oldest?.value), r.oldest ? signed(r.oldest.value - r.newest.value) : '',
      `${count(r.newest.spread)}${r.oldest ? ` / ${count(r.oldest.spread)}` : ''}`, `${count(r.newest.collector)}${r.oldest ? ` / ${count(r.oldest.collector)}` : ''}`]))
  out.push('')
  out.push(`- Machine: ${describeMachine()}; valgrind, two servers at a time; ${minutes.toFixed(1)} min in all (${new Date().toISOString().slice(0, 10)}).`)
  return out.join('\n')
}

// ---- Conversions (#38) ----

async function conversionsPart () {
  const rows = only(CONVERSIONS)
  const results = new Map()
  console.error(`conversions: ${plural(rows.length, 'row')} under callgrind, a server each, two at a time; ${WARMUP.toLocaleString('en')} warm-up requests and ${WINDOWS} windows of ${WINDOW.toLocaleString('en')} ` +
    `(the ${LINES_ROUTE_ITEMS.toLocaleString('en')}-line rows: ${LINES_WARMUP} and ${WINDOWS} of ${LINES_WINDOW})`)
  const done = progress(rows.length, rows.length)
  await inPairs(rows, async row => {
    const vg = await valgrindServer({ ...CONVERSION_APP, id: row.id, kind: row.kind })
    if (vg.failure !== undefined) {
      results.set(row.id, { failure: vg.failure })
      console.error(`conversions: ${row.id}: ${vg.failure}; ${done.step(1)}`)
      return
    }
    try {
      const req = requestsFor(CONVERSION_APP, row.k)[row.request]
      const lines = row.request === 'lines'
      const r = await perRequest(vg, row.request, req, lines ? LINES_WARMUP : WARMUP, lines ? LINES_WINDOW : WINDOW)
      await vg.close()
      results.set(row.id, r)
      console.error(`conversions: ${row.id} ${Math.round(r.value)}; ${done.step(1)}`)
    } catch (error) {
      await vg.kill()
      results.set(row.id, { failure: `wrong answer: ${error.message}` })
      console.error(`conversions: ${row.id}: ${error.message}; ${done.step(1)}`)
    }
  })
  return { rows, results }
}

// What the issue's table calls each row (its harness's ids are not ours).
const ISSUE_ROWS = {
  'get-newest': 'GET, newest version (this project)',
  'get-1': 'GET, 1 step back (this project)',
  'get-10': 'GET, 10 steps back (this project)',
  'get-1-named': 'GET, 1 step back (one converter naming every field)',
  'get-10-named': 'GET, 10 steps back (one converter naming every field)',
  'get-1-spread': 'GET, 1 step back (rest/spread)',
  'get-10-spread': 'GET, 10 steps back (rest/spread, one converter)',
  'get-10-spread-chain': 'GET, 10 steps back (rest/spread, chained)',
  'post-1': 'POST (10 lines converted up), 1 step back (this project)',
  'post-10': 'POST, 10 steps back (this project)',
  'post-1-named': 'POST, 1 step back (one converter naming every field)',
  'post-10-named': 'POST, 10 steps back (one converter naming every field)',
  'post-1-spread': 'POST, 1 step back (rest/spread)',
  'post-10-spread': 'POST, 10 steps back (rest/spread)',
  'lines-1': 'GET `/lines`, 10,000 items, 1 step back, per item (this project)',
  'lines-1-named': 'GET `/lines`, per item (a loop naming every field)'
}

function renderConversions ({ rows, results }, minutes) {
  const extraOf = extraIn(results)
  const out = ['## Conversions (#38): server instructions per request over real HTTP', '']
  out.push('Written by `node benchmarks/scale-changes.mjs conversions` between the conversions markers. One app of one path and 11 ' +
    'versions (each step renames one order field, the same field of the new order, and one field of every line): GET ' +
    '`/r0/orders/42` (an order of 10 fields and 10 lines), POST `/r0/orders` (a new order with 10 lines, in the client\'s version, ' +
    `converted up; answered 201 \`{ id }\`), GET \`/r0/orders/42/lines\` (${LINES_ROUTE_ITEMS.toLocaleString('en')} lines). Each row is its own ` +
    'server under valgrind (callgrind, instrumentation off until the first counted window; Node\'s flags as in the requests part), one request ' +
    `sent over and over on one keep-alive connection: ${WARMUP.toLocaleString('en')} warm-up requests (the JIT settled), then the median ` +
    `of ${WINDOWS} windows of ${WINDOW.toLocaleString('en')}; the ${LINES_ROUTE_ITEMS.toLocaleString('en')}-line rows ${LINES_WARMUP} and ${WINDOWS} ` +
    `of ${LINES_WINDOW} (a request there is ~100× longer). **Extra** is over the ordinary \`apiVersions\` route serving the newest version with ` +
    'the same request. The hand-written rows are ordinary versioned routes, one per version with that version\'s schemas, whose ' +
    'handler converts by hand: one converter from the newest naming every field, a converter per step naming every field (chained), ' +
    'or rest/spread (`const { a, ...rest } = o; return { ...rest, a_1: a, lines: o.lines.map(...) }`), one or chained. **Collector**: ' +
    'as in the requests part.', '')
  out.push(...countedRows(
    ['row', 'id', 'instructions per request', 'extra', 'per item', 'spread', 'collector', 'the issue\'s row'],
    ['---', '---', '---:', '---:', '---:', '---:', '---:', '---'], rows, results,
    row => [row.what, `\`${row.id}\``],
    (row, r) => {
      const extra = row.id.endsWith('-base') ? undefined : extraOf(row.id)
      const perItem = row.request === 'lines' && extra !== undefined ? (extra / LINES_ROUTE_ITEMS).toFixed(0) : ''
      return [row.what, `\`${row.id}\``, count(r.value), signed(extra), perItem, count(r.spread), count(r.collector), ISSUE_ROWS[row.id] ?? '']
    }))
  out.push('')
  out.push(`- Machine: ${describeMachine()}; valgrind, two servers at a time; ${minutes.toFixed(1)} min in all (${new Date().toISOString().slice(0, 10)}).`)
  return out.join('\n')
}

// ---- Targets ----

function verdict (holds, text) {
  return holds === undefined ? 'not measured in this run' : holds ? `holds (${text})` : `**missed** (${text})`
}

const x = (a, b) => (a / b).toFixed(2)

function startupTargets (startup) {
  const out = []
  const fig = id => startup?.figures(id)
  const failure = id => startup?.samples.get(id)?.failure
  if (startup !== undefined) {
    const c = fig('changes-10')
    const d = fig('dispatch-10')
    out.push(['#36: 1,000 `versionChanges` paths × 10 versions start within 1.5× the CPU and heap of the hand-written dispatching app',
      c && d ? verdict(c.cpuMs <= 1.5 * d.cpuMs && c.heapMB <= 1.5 * d.heapMB, `CPU ${x(c.cpuMs, d.cpuMs)}×, heap ${x(c.heapMB, d.heapMB)}×`) : verdict(undefined)])
    const h = fig('changes-100-every-4')
    const q = fig('changes-25')
    const hf = failure('changes-100-every-4')
    out.push(['#36: 100 versions, every 4th touching, at most 1.2× the 25-version list with the same shapes (CPU and heap)',
      h && q ? verdict(h.cpuMs <= 1.2 * q.cpuMs && h.heapMB <= 1.2 * q.heapMB, `CPU ${x(h.cpuMs, q.cpuMs)}×, heap ${x(h.heapMB, q.heapMB)}×`) : hf ? `**missed** (100 versions: ${hf})` : verdict(undefined)])
    const starts = ['changes-100', 'changes-200-one-path'].map(id => [id, failure(id)]).filter(([id]) => startup.samples.has(id))
    out.push(['#36: no ceiling on versions: 1,000 paths × 100 versions and one route × 200 versions each touching start',
      starts.length === 0 ? verdict(undefined) : verdict(starts.every(([, f]) => f === undefined), starts.map(([id, f]) => `${id}: ${f ?? 'starts'}`).join('; '))])
  }
  return out
}

function requestTargets (requests) {
  const out = []
  if (requests !== undefined) {
    const r = id => requests.results.get(id)
    const o = r('ordinary')?.newest?.value
    const c = r('changes-10')
    const newestTarget = '#36: per request, the newest version within ±300 instructions of an ordinary versioned route (the 1,000-path ' +
      `apps run at ${REQUEST_PATHS.toLocaleString('en')} paths here)`
    // No regression is the point: a newest version cheaper than the ordinary route holds (the windows' spread is ~2,000).
    const delta = c?.newest === undefined || o === undefined ? undefined : c.newest.value - o
    out.push([newestTarget, delta === undefined ? verdict(undefined) : verdict(delta <= 300, `${signed(delta)} at 10 versions${delta < -300 ? ', cheaper' : ''}`)])
    const hand = r('routes-10')
    const ours = c?.oldest && c.oldest.value - c.newest.value
    const theirs = hand?.oldest && hand.oldest.value - hand.newest.value
    const handTarget = '#36: an old version\'s conversion at or below converting by hand through the same steps (oldest − newest, ' +
      '10 versions: the plugin against the route-per-version app, which chains a converter naming every field per step)'
    out.push([handTarget, ours && theirs ? verdict(ours <= theirs, `${count(ours)} against ${count(theirs)}: ${x(ours, theirs)}×`) : verdict(undefined)])
    const firsts = APPS.filter(app => app.kind === 'changes' && r(app.id)?.first !== undefined)
    out.push(['#36: the first request of an old version (where its work is deferred) measured and stated',
      firsts.length ? `measured: ${firsts.map(app => `${app.id} ${count(r(app.id).first)} instructions`).join(', ')}; wall times in the start-up table` : verdict(undefined)])
  }
  return out
}

// A conversions row's extra over the base row of its request, in a part's results (undefined where either is missing).
const extraIn = results => id => {
  const [value, base] = [results.get(id)?.value, results.get(`${id.split('-')[0]}-base`)?.value]
  return value === undefined || base === undefined ? undefined : value - base
}
const ratio = (a, b) => `${(a / b).toFixed(1)}×`
// The older versions' rows of #38's 3× target, each with its extra and the converter's naming every field.
const converterPairs = extra => ['get-1', 'get-10', 'post-1', 'post-10'].map(id => [id, extra(id), extra(`${id}-named`)])

function conversionTargets (conversions) {
  if (conversions === undefined) return []
  const extra = extraIn(conversions.results)
  const out = []
  const pairs = converterPairs(extra)
  const known = pairs.every(([, a, b]) => a !== undefined && b !== undefined)
  // A converter's extra no larger than its base's windows spread is that spread's, not the converter's: a ratio to
  // it says nothing (one run gave a POST converter −554 over its base), and the verdict is left to a count in process.
  const spreadOf = id => conversions.results.get(`${id.split('-')[0]}-base`)?.spread ?? 0
  const resolved = pairs.every(([id, , b]) => b > spreadOf(id))
  const ratios = pairs.map(([id, a, b]) => b > spreadOf(id) ? `${id} ${ratio(a, b)}` : `${id} ${signed(a)} against ${signed(b)}, within the base's spread of ${count(spreadOf(id))}`).join(', ')
  out.push(['#38: an old version\'s extra at most 3× the extra of a hand-written converter naming every field (GET and POST, 1 and 10 steps back)',
    !known ? verdict(undefined) : resolved ? verdict(pairs.every(([, a, b]) => a <= 3 * b), ratios) : `not resolved over HTTP in this run (${ratios}): see the count in process`])
  const steps = [['get-10', 'get-1'], ['post-10', 'post-1']].map(([ten, one]) => [ten, extra(ten), extra(one)])
  out.push(['#38: 10 steps back within 1.5× of 1 step back (the steps are renames only)',
    steps.every(([, a, b]) => a !== undefined && b !== undefined) ? verdict(steps.every(([, a, b]) => a <= 1.5 * b), steps.map(([id, a, b]) => `${id.split('-')[0]} ${ratio(a, b)}`).join(', ')) : verdict(undefined)])
  const item = extra('lines-1')
  const loop = extra('lines-1-named')
  out.push(['#38: per item at most 3× a hand-written loop naming every field',
    item !== undefined && loop !== undefined ? verdict(item <= 3 * loop, `${(item / LINES_ROUTE_ITEMS).toFixed(0)} against ${(loop / LINES_ROUTE_ITEMS).toFixed(0)} instructions an item: ${ratio(item, loop)}`) : verdict(undefined)])
  const newest = extra('get-newest')
  out.push(['#38: the newest version within ±300 of today (today: its extra over the ordinary route, which #36 holds to ±300)',
    newest === undefined ? verdict(undefined) : `GET ${Math.round(newest) >= 0 ? '+' : ''}${Math.round(newest)}, POST ${extra('post-newest') === undefined ? '?' : Math.round(extra('post-newest'))}, /lines ${extra('lines-newest') === undefined ? '?' : Math.round(extra('lines-newest'))} over the ordinary route; compare with the figures recorded before the redesign below`])
  return out
}

// ---- Conversions in process (#38) ----

// Requests of a row counted in process: the lines rows' are ~100× longer.
const IN_PROCESS = [env('SCALE_CHANGES_IN_PROCESS_N1', 12_000), env('SCALE_CHANGES_IN_PROCESS_N2', 24_000)]
const IN_PROCESS_LINES = [IN_PROCESS[0] / 60, IN_PROCESS[1] / 60]

async function inProcessPart () {
  const { underValgrind } = await import('./instructions.mjs')
  const rows = only([...CONVERSIONS, ...IN_PROCESS_ROWS])
  const results = new Map()
  console.error(`in-process: ${plural(rows.length, 'row')} under cachegrind, the two counts of a row at a time; ${IN_PROCESS.map(n => n.toLocaleString('en')).join(' and ')} requests ` +
    `(the ${LINES_ROUTE_ITEMS.toLocaleString('en')}-line rows: ${IN_PROCESS_LINES.join(' and ')})`)
  const done = progress(rows.length, rows.length)
  for (const row of rows) {
    const req = requestsFor(CONVERSION_APP, row.k)[row.request]
    const [n1, n2] = row.request === 'lines' ? IN_PROCESS_LINES : IN_PROCESS
    const { 'content-type': _type, ...headers } = req.headers
    const before = row.before === undefined ? {} : beforeRequests(row.request, row.before)
    const instructions = async n => {
      const [command, args] = underValgrind(['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null'], `scale-${row.kind}`, `${req.method === 'GET' ? '' : `${req.method} `}${req.path}`, JSON.stringify(headers), n)
      const { stdout, stderr } = await run(command, args, { maxBuffer: 1 << 26, env: { ...process.env, INSTRUCTIONS_BODY: req.body ?? '', INSTRUCTIONS_BEFORE: JSON.stringify(before) } })
      const status = Number(stdout.trim().split('\n').at(-1))
      if (status !== (req.method === 'POST' ? 201 : 200)) throw new Error(`${row.id}: status ${status}`)
      return Number(/I\s+refs:\s+([\d,]+)/.exec(stderr)[1].replaceAll(',', ''))
    }
    try {
      const [a, b] = await Promise.all([instructions(n1), instructions(n2)])
      results.set(row.id, { value: (b - a) / (n2 - n1) })
      console.error(`in-process: ${row.id} ${Math.round((b - a) / (n2 - n1))}; ${done.step(1)}`)
    } catch (error) {
      results.set(row.id, { failure: error.message })
      console.error(`in-process: ${error.message}; ${done.step(1)}`)
    }
  }
  return { rows, results }
}

// A row's requests before the counted ones (see IN_PROCESS_ROWS): rounds over the paths.
function beforeRequests (request, { k, paths, rounds }) {
  const { method, headers: { 'content-type': _type, ...headers }, body } = requestsFor({ ...CONVERSION_APP, paths }, k)[request]
  return { rounds, requests: Array.from({ length: paths }, (_, i) => ({ method, path: pathOf(i), headers, body })) }
}

function renderInProcess ({ rows, results }, minutes) {
  const extraOf = extraIn(results)
  const out = ['## Conversions (#38), counted in process', '']
  out.push('Written by `node benchmarks/scale-changes.mjs in-process` between the in-process markers: the rows of the conversions part, ' +
    'each app driven in process as instructions.mjs drives one (through `app.routing()` with Node\'s own request and response objects, ' +
    `no socket, 20 requests in flight), counted by cachegrind over ${IN_PROCESS.map(n => n.toLocaleString('en')).join(' and ')} requests ` +
    `(the ${LINES_ROUTE_ITEMS.toLocaleString('en')}-line rows ${IN_PROCESS_LINES.join(' and ')}): the difference per request, the same to a few ` +
    'instructions from run to run. **Extra** is over the ordinary `apiVersions` route serving the newest version.', '')
  out.push(...countedRows(
    ['row', 'id', 'instructions per request', 'extra', 'per item'],
    ['---', '---', '---:', '---:', '---:'], rows, results,
    row => [row.what, `\`${row.id}\``],
    (row, r) => {
      const extra = row.id.endsWith('-base') ? undefined : extraOf(row.id)
      return [row.what, `\`${row.id}\``, count(r.value), extra === undefined ? '' : signed(extra), row.request === 'lines' && extra !== undefined ? count(extra / LINES_ROUTE_ITEMS) : '']
    }))
  out.push('', `- Machine: ${describeMachine()}; ${minutes.toFixed(1)} min in all (${new Date().toISOString().slice(0, 10)}).`)
  return out.join('\n')
}

function inProcessTargets (counted) {
  if (counted === undefined) return []
  const extra = extraIn(counted.results)
  const pairs = converterPairs(extra).filter(([, a, b]) => a !== undefined && b !== undefined)
  const newest = [['GET', 'get-newest'], ['POST', 'post-newest'], [`POST after older requests to ${AFTER_OLDER.paths} paths`, 'post-newest-after-older']].map(([what, id]) => [what, extra(id)]).filter(([, e]) => e !== undefined)
  return [
    ['#38: an old version\'s extra at most 3× the extra of a hand-written converter naming every field (GET and POST, 1 and 10 steps back)',
      pairs.length === 0 ? verdict(undefined) : verdict(pairs.every(([, a, b]) => a <= 3 * b), pairs.map(([id, a, b]) => `${id} ${signed(a)} against ${signed(b)}: ${ratio(a, b)}`).join(', '))],
    ['#36: the newest version within ±300 instructions of an ordinary versioned route',
      newest.length === 0 ? verdict(undefined) : verdict(newest.every(([, e]) => e <= 300), newest.map(([what, e]) => `${what} ${signed(e)}`).join(', '))]
  ]
}

// ---- The results file ----

const HEADER = `# Version changes at scale (#36) and old versions' conversions (#38)

Written by \`node benchmarks/scale-changes.mjs\` (see its header and benchmarks/README.md); each part replaces only what is
between its markers, so the text outside them (the targets and notes) is kept.
`

function write (sections) {
  let text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : HEADER
  for (const [name, body] of sections) {
    const [start, end] = [`<!-- ${name} -->`, `<!-- /${name} -->`]
    const from = text.indexOf(start)
    const to = from === -1 ? -1 : text.indexOf(end, from)
    text = to !== -1
      ? text.slice(0, from + start.length) + `\n${body}\n` + text.slice(to)
      : text + (text.endsWith('\n') ? '\n' : '\n\n') + `${start}\n${body}\n${end}\n`
  }
  writeFileSync(RESULTS, text)
  console.log(`\nwritten to ${RESULTS.pathname}`)
}

// ---- Main ----

const given = process.argv.slice(2)
const parts = new Set(given.length === 0 ? ['scale'] : given)
for (const part of parts) if (!['scale', 'all', 'startup', 'requests', 'conversions', 'in-process'].includes(part)) throw new Error(`no part ${JSON.stringify(part)}: scale (startup and requests), conversions, in-process, startup, requests or all`)
const want = name => parts.has(name) || parts.has('all') || (parts.has('scale') && name !== 'conversions' && name !== 'in-process')
if ((want('requests') || want('conversions') || want('in-process')) && await run('valgrind', ['--version']).then(() => false, () => true)) throw new Error('the requests, conversions and in-process parts need valgrind (apt-get install valgrind)')

const started = Date.now()
const sections = []
let startup, requests, conversions, counted
let clock = Date.now()
const minutesSince = () => { const m = (Date.now() - clock) / 60000; clock = Date.now(); return m }
// A part's table, printed, and written as soon as the part is done: a long run stopped later keeps it.
function tabled (name, table) {
  console.log(table)
  sections.push([name, table])
  write(sections)
}
if (want('startup')) {
  const measured = await startupPart()
  const rendered = renderStartup(measured, minutesSince())
  startup = { ...measured, figures: rendered.figures }
  tabled('startup', rendered.table)
}
if (want('requests')) {
  requests = await requestsPart()
  tabled('requests', renderRequests(requests, minutesSince()))
}
if (want('conversions')) {
  conversions = await conversionsPart()
  tabled('conversions', renderConversions(conversions, minutesSince()))
}
if (want('in-process')) {
  counted = await inProcessPart()
  tabled('in-process', renderInProcess(counted, minutesSince()))
}
// The verdicts, each issue's in its own section, so that one part's run keeps the other's.
for (const [name, issue, targets] of [['verdicts-scale', '#36, start-up', startupTargets(startup)], ['verdicts-requests', '#36, requests', requestTargets(requests)], ['verdicts-conversions', '#38', conversionTargets(conversions)], ['verdicts-in-process', '#38, in process', inProcessTargets(counted)]]) {
  if (targets.length === 0) continue
  const table = [`## Verdicts, ${issue} (the run of ${new Date().toISOString().slice(0, 10)}: ${[...parts].join(', ')})`, '', '| target | verdict |', '|---|---|', ...targets.map(([t, v]) => `| ${t} | ${v} |`)].join('\n')
  console.log(`\n${table}`)
  sections.push([name, table])
}
write(sections)
console.error(`done in ${humanDuration((Date.now() - started) / 1000)}`)
