// Instructions per request, counted by valgrind (cachegrind, no cache simulation) over the whole process, so that
// start-up cancels out: (count for N2 requests − count for N1) / (N2 − N1). N1 is past the JIT's warm-up (the first
// ~10,000 requests of an app compile and recompile its code, and a window that starts earlier counts that compiling
// as per-request cost: about 9,000 instructions a request for 2,000 → 22,000), so the figures are the steady state
// of a running server. With Node's --predictable, --single-threaded and fixed hash and random seeds, two runs agree
// to a few instructions, where CPU time on a shared host moves by microseconds: this is the tool for costs of a
// tenth of a microsecond. It counts instructions, not time (a cache miss costs nothing here). Two modes:
// - in process (the default): the app is driven through app.routing() with Node's own IncomingMessage and
//   ServerResponse, and no socket (instructions-app.mjs); this is the mode profile.mjs profiles;
// - over HTTP (`--http`): the app is a real server under valgrind (instructions-server.mjs), and a client outside
//   valgrind sends the requests one after another on one keep-alive connection, checking the status of each: the
//   count includes parsing real header lines from a socket and writing the response, as in production (N1 and N2
//   are then 20,000 and 40,000 by default).
// Needs valgrind (Debian: apt-get install valgrind) and `npm run build`. The apps: instructions-apps.mjs.
//   node benchmarks/instructions.mjs [--http] [row ...]   (rows: see ROWS; all by default; a row runs when its
//   name contains one of the texts given; PLUGIN_DIST: see instructions-apps.mjs; INSTRUCTIONS_N1 / INSTRUCTIONS_N2:
//   the two run lengths)
import { execFile, spawn } from 'node:child_process'
import { Agent, request } from 'node:http'
import { once } from 'node:events'
import { promisify } from 'node:util'

const run = promisify(execFile)
// In both scripts that use these lengths (this one and profile.mjs), --http asks for the over-HTTP mode.
const overHttp = process.argv.includes('--http')
const FLAGS = ['--single-threaded', '--predictable', '--hash-seed=1', '--random-seed=1', '--min-semi-space-size=16', '--max-semi-space-size=16']
export const N1 = Number(process.env.INSTRUCTIONS_N1 ?? 20_000)
export const N2 = Number(process.env.INSTRUCTIONS_N2 ?? (overHttp ? 40_000 : 60_000))
const app = new URL('instructions-app.mjs', import.meta.url).pathname
const server = new URL('instructions-server.mjs', import.meta.url).pathname
const CACHEGRIND = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null']
// The command line that runs n requests of one app under valgrind, the tool's options first (profile.mjs too).
export function underValgrind (toolOptions, kind, url, headers, n, nodeOptions = []) {
  return ['valgrind', [...toolOptions, process.execPath, ...nodeOptions, ...FLAGS, app, kind, url, headers, String(n)]]
}
const av = v => JSON.stringify({ 'api-version': v })
// A version error: plain Fastify on the same URL (it answers 200), both hooks and the plugin (400).
function errorRows (what, url) {
  return [
    [`plain Fastify, ${url}`, 'plain', url, '{}'],
    [`hand-written hook, ${what}`, 'hook', url, '{}', 400],
    [`hand-written hook that also sends Vary, ${what}`, 'hook-vary', url, '{}', 400],
    [`plugin, ${what}`, 'plugin', url, '{}', 400]
  ]
}
// what, app (instructions-app.mjs), URL, request headers as JSON, the status every response must have (200 if left out)
const ROWS = [
  ['plain Fastify, /items?api-version=1.0', 'plain', '/items?api-version=1.0', '{}'],
  ['hand-written hook, valid version (query)', 'hook', '/items?api-version=1.0', '{}'],
  ['hand-written hook that also sends Vary, valid version (query)', 'hook-vary', '/items?api-version=1.0', '{}'],
  ['plugin, valid version (query)', 'plugin', '/items?api-version=1.0', '{}'],
  ['the next design by hand: a route that dispatches on the version, valid version (query)', 'dispatch', '/items?api-version=1.0', '{}'],
  ['hand-written hook that also sends Vary and the two version headers, valid version (query)', 'hook-report', '/items?api-version=1.0', '{}'],
  ['plugin, valid version (query), reportApiVersions', 'plugin-report', '/items?api-version=1.0', '{}'],
  ['plugin, valid version (query), telemetry', 'plugin-telemetry', '/items?api-version=1.0', '{}'],
  ["plugin, valid version (query), telemetry through OpenTelemetry's no-op meter", 'plugin-telemetry-noop', '/items?api-version=1.0', '{}'],
  ['plain Fastify, /items with a header', 'plain', '/items', av('1.0')],
  ['hand-written hook, valid version (header)', 'hook', '/items', av('1.0')],
  ['hand-written hook that also sends Vary, valid version (header)', 'hook-vary', '/items', av('1.0')],
  ['plugin, valid version (header)', 'plugin', '/items', av('1.0')],
  ['the next design by hand: a route that dispatches on the version, valid version (header)', 'dispatch', '/items', av('1.0')],
  ["Fastify's own version constraint, valid version (Accept-Version header)", 'fastify-constraint', '/items', JSON.stringify({ 'accept-version': '1.0.0' })],
  ['plain Fastify, /v1.0/items', 'plain', '/v1.0/items', '{}'],
  ['hand-written hook, valid version (path)', 'hook', '/v1.0/items', '{}'],
  ['hand-written hook that also sends Vary, valid version (path)', 'hook-vary', '/v1.0/items', '{}'],
  ['plugin, valid version (path)', 'plugin', '/v1.0/items', '{}'],
  ['the next design by hand: a route that dispatches on the version, valid version (path)', 'dispatch', '/v1.0/items', '{}'],
  ...errorRows('Unsupported (query)', '/items?api-version=9.0'),
  ...errorRows('Invalid (query)', '/items?api-version=abc'),
  ...errorRows('Ambiguous (query)', '/items?api-version=1.0&api-version=2.0'),
  ...errorRows('no version', '/items'),
  ['plugin, an ordinary versioned route with a response schema (query)', 'plugin-orders', '/orders?api-version=3.0', '{}'],
  ['plugin, a versionChanges route, the newest version (query)', 'plugin-changes', '/orders?api-version=3.0', '{}'],
  ['plugin, a versionChanges route, the oldest of three versions, one rename a step (query)', 'plugin-changes', '/orders?api-version=1.0', '{}'],
  ['plain Fastify, /health', 'plain', '/health', '{}'],
  ['plugin, unversioned route /health', 'plugin', '/health', '{}'],
  ['plain Fastify, a 404 (/nowhere)', 'plain', '/nowhere', '{}', 404],
  ['plugin, a 404 (/nowhere)', 'plugin', '/nowhere', '{}', 404]
]

async function count (kind, url, headers, expected, n) {
  const { stdout, stderr } = await run(...underValgrind(CACHEGRIND, kind, url, headers, n), { maxBuffer: 1 << 24 })
  if (stdout.trim() !== String(expected)) throw new Error(`${kind} ${url}: answered ${stdout.trim()}, not ${expected}`)
  return refs(stderr)
}

// Over HTTP: the server under valgrind (the tool's options first; profile.mjs too), n requests from here, one after
// another on one keep-alive connection (every status checked), then GET /__exit, which ends the server, so that
// valgrind reports its count. Gives valgrind's report (stderr).
export async function driveOverHttp (toolOptions, kind, url, headers, expected, n, nodeOptions = []) {
  const child = spawn('valgrind', [...toolOptions, process.execPath, ...nodeOptions, ...FLAGS, server, kind], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', chunk => { stderr += chunk })
  const exited = once(child, 'exit')
  const [line] = await once(child.stdout.setEncoding('utf8'), 'data')
  const port = Number(line.trim())
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  // `POST /path` sends INSTRUCTIONS_BODY, as instructions-app.mjs does.
  const [method, path] = url.includes(' ') ? url.split(' ') : ['GET', url]
  const body = method === 'GET' ? null : process.env.INSTRUCTIONS_BODY ?? '{}'
  const given = { ...JSON.parse(headers), ...(body === null ? {} : { 'content-type': 'application/json' }) }
  try {
    for (let i = 0; i < n; i++) {
      const status = await get(port, path, given, agent, method, body)
      if (status !== expected) throw new Error(`${kind} ${url}: answered ${status}, not ${expected}`)
    }
    await get(port, '/__exit', {}, agent)
  } catch (error) {
    child.kill()
    throw error
  }
  await exited
  agent.destroy()
  return stderr
}

async function countOverHttp (kind, url, headers, expected, n) {
  return refs(await driveOverHttp(CACHEGRIND, kind, url, headers, expected, n))
}

function get (port, path, headers, agent, method = 'GET', body = null) {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers, agent, method }, res => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    }).on('error', reject).end(body ?? undefined)
  })
}

function refs (stderr) {
  return Number(/I\s+refs:\s+([\d,]+)/.exec(stderr)[1].replaceAll(',', ''))
}

// Run only as a script: profile.mjs imports the command line and the lengths.
if (process.argv[1] === new URL(import.meta.url).pathname) {
  const only = process.argv.slice(2).filter(arg => arg !== '--http')
  const counted = overHttp ? countOverHttp : count
  console.log(`instructions per request, ${overHttp ? 'over HTTP' : 'in process'}, ${N1.toLocaleString('en')} → ${N2.toLocaleString('en')} requests`)
  for (const [what, kind, url, headers, status = 200] of ROWS.filter(([what]) => only.length === 0 || only.some(o => what.includes(o)))) {
    const [few, many] = await Promise.all([counted(kind, url, headers, status, N1), counted(kind, url, headers, status, N2)])
    console.log(`${String(Math.round((many - few) / (N2 - N1))).padStart(7)}  ${what}`)
  }
}
