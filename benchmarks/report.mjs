// Turns benchmark samples into figures, checks the targets, and renders results.md.
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { SCENARIOS } from './scenarios.mjs'

const VALID = ['query', 'header', 'segment']
const ERRORS = ['unsupported', 'invalid', 'ambiguous', 'none']
const PEERS = ['nest-header', 'nest-custom', 'hapi', 'express']

export function median (values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** Median figures of one row, or undefined when the server has no such row. */
function figures (samples, server, scenario, pipelining) {
  const list = samples.get(`${server}|${scenario}|${pipelining}`)
  if (list === undefined) return undefined
  const cpus = list.map(s => s.cpu)
  return {
    rps: median(list.map(s => s.rps)),
    p99: median(list.map(s => s.p99)),
    cpu: median(cpus),
    spread: Math.max(...cpus) - Math.min(...cpus),
    errors: list.reduce((a, s) => a + s.errors, 0),
    wrong: list.reduce((a, s) => a + s.wrong, 0)
  }
}

/** `list` rotated left by `n`: each round starts somewhere else, so order effects even out. */
export const rotate = (list, n) => list.slice(n % list.length).concat(list.slice(0, n % list.length))

const us = n => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(2)} µs`
const where = (scenario, p) => `${scenario}, pipelining ${p}`
// A comparison with a server BENCH_ONLY left out is undefined in every row: it says so rather than print a number.
const NOT_RUN = 'not run'
/** The row with the largest `key` among those that have it, or undefined. */
const largest = (rows, key) => rows.reduce((a, r) => r[key] !== undefined && (a === undefined || r[key] > a[key]) ? r : a, undefined)
const atWorst = (row, key) => row === undefined ? NOT_RUN : `at worst ${us(row[key])} (${row.at})`
export const NO_TARGETS = `${NOT_RUN}: the targets compare fastify-api-versioning (plugin, plugin-report) with the other servers, and neither ran`

export function evaluateTargets (samples, servers) {
  const ids = new Set(servers.map(s => s.id))
  const targets = []
  for (const [ours, suffix] of [['plugin', ''], ['plugin-report', ', with reportApiVersions']]) {
    if (ids.has(ours)) targets.push(...targetsOf(samples, ids, ours, suffix))
  }
  return targets
}

function targetsOf (samples, ids, ours, suffix) {
  const targets = []
  const rowsOf = (scenarios, fn) => {
    const out = []
    for (const p of [1, 10]) {
      for (const s of scenarios) {
        const plain = figures(samples, 'plain', s, p)
        const row = figures(samples, ours, s, p)
        if (plain && row) out.push(fn(row, plain, s, p))
      }
    }
    return out
  }

  // A valid version costs no more than a hand-written hook that does a fraction of the work.
  const limit = ours === 'plugin-report' ? 0.8 : 0.5
  // The plugin sends Vary (it reads a header) and the hook does not: the hook that also sends it is shown beside.
  const vsServer = (server, o, s, p) => {
    const theirs = figures(samples, server, s, p)
    return theirs && o.cpu - theirs.cpu
  }
  const valid = rowsOf(VALID, (o, b, s, p) => ({ delta: o.cpu - b.cpu, vsHook: vsServer('hook', o, s, p), vsVary: vsServer('hook-vary', o, s, p), at: where(s, p) }))
  const worstDelta = largest(valid, 'delta')
  const closestValid = largest(valid, 'vsHook')
  // Only the plugin as it comes is held to the hook; where the hook did not run, that part cannot be checked.
  const heldToHook = ours === 'plugin'
  targets.push({
    target: `valid version (query, header, path): at most +${limit} µs CPU per request over plain Fastify${heldToHook ? ', at or below the hand-written hook' : ''}, pipelining 1 and 10${suffix}`,
    measured: `worst ${us(worstDelta.delta)} (${worstDelta.at}); against the hook: ${atWorst(closestValid, 'vsHook')}; ` +
      `against the hook that also sends Vary: ${atWorst(largest(valid, 'vsVary'), 'vsVary')}`,
    holds: heldToHook && closestValid === undefined ? null : worstDelta.delta <= limit && (!heldToHook || closestValid.vsHook <= 0)
  })

  const errors = rowsOf(ERRORS, (o, b, s, p) => ({ delta: o.cpu - b.cpu, vsHook: vsServer('hook', o, s, p), at: where(s, p) }))
  const worstError = largest(errors, 'delta')
  const closestHook = largest(errors, 'vsHook')
  targets.push({
    target: `version errors (problem+json): at most +1.0 µs CPU per request, and below the hand-written hook in every row${suffix}`,
    measured: `worst ${us(worstError.delta)} (${worstError.at}); against the hook: ${atWorst(closestHook, 'vsHook')}`,
    holds: closestHook === undefined ? null : worstError.delta <= 1 && closestHook.vsHook < 0
  })

  // The hand-written hook server is plain Fastify on these two rows (its hook is on other routes), so its
  // difference to plain Fastify there is what two servers doing the same work differ by.
  const quiet = rowsOf(['unversioned', 'notFound'], (o, b, s, p) => {
    const same = figures(samples, 'hook', s, p)
    return { delta: o.cpu - b.cpu, noise: Math.max(0.5, b.spread, o.spread, same ? Math.abs(same.cpu - b.cpu) : 0), at: where(s, p) }
  })
  const loudest = quiet.reduce((a, r) => Math.abs(r.delta) - r.noise > Math.abs(a.delta) - a.noise ? r : a)
  targets.push({
    target: `unversioned route and 404 with the plugin active: within noise of plain Fastify${suffix} (noise: the largest of 0.5 µs, either side's spread over rounds, and the hand-written hook server's difference to plain Fastify on the same row, where its hook does not run)`,
    measured: `largest difference ${us(loudest.delta)} against noise ${loudest.noise.toFixed(2)} µs (${loudest.at})`,
    holds: quiet.every(r => Math.abs(r.delta) <= r.noise)
  })

  const leads = []
  for (const peer of PEERS.filter(id => ids.has(id))) {
    for (const p of [1, 10]) {
      for (const [s] of SCENARIOS) {
        const row = figures(samples, ours, s, p)
        const theirs = figures(samples, peer, s, p)
        if (row && theirs) leads.push({ lead: row.rps / theirs.rps, cpu: row.cpu < theirs.cpu, at: `${peer}, ${where(s, p)}` })
      }
    }
  }
  const smallest = leads.reduce((a, r) => a === undefined || r.lead < a.lead ? r : a, undefined)
  targets.push({
    target: `every row ahead of NestJS, hapi and express (more req/s and less CPU per request)${suffix}`,
    measured: smallest === undefined
      ? NOT_RUN
      : `smallest lead ${smallest.lead.toFixed(2)}× req/s (${smallest.at}); less CPU in ${leads.filter(l => l.cpu).length} of ${leads.length} rows`,
    holds: smallest === undefined ? null : leads.every(l => l.lead > 1 && l.cpu)
  })
  return targets
}

function version (name) {
  try {
    return JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, import.meta.url), 'utf8')).version
  } catch {
    return '?'
  }
}

export function describeMachine () {
  const cpus = os.cpus()
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
    `${os.type()} ${os.release()}, Node.js ${process.version}`
}

const PACKAGES = ['fastify', '@nestjs/core', '@nestjs/platform-fastify', '@hapi/hapi', 'hapi-api-version', 'express', 'express-routes-versioning', 'autocannon']

export function renderResults ({ machine, settings, servers, sets, micro, kept }) {
  const out = []
  out.push('# Benchmark results', '')
  out.push('Written by `npm run bench` (benchmarks/run.mjs); do not edit above the scale and notes markers, which the next run keeps.', '')
  out.push(`- Machine: ${machine}`)
  out.push(`- Run: ${new Date().toISOString().slice(0, 10)}, ${settings.rounds} interleaved rounds (server, Node flags and scenario order rotated, a fresh server process per server, flags and round), ` +
    `${settings.seconds} s per row, ${settings.connections} connections, pipelining ${settings.pipelining.join(' and ')}, loopback; ${settings.minutes.toFixed(1)} min in all; ${settings.pinned}`)
  const flagSets = sets.length === 1 ? `one set of Node flags: ${sets[0].label}` : `two sets of Node flags, in the same rounds: ${sets.map(set => set.label).join('; and ')}`
  out.push(`- Every server ran with ${flagSets}. Users run the defaults; ` +
    'the fixed young generation keeps V8\'s start-up heuristics from giving two servers doing the same work different costs (see the notes).')
  out.push(`- Versions: ${PACKAGES.map(p => `${p} ${version(p)}`).join(', ')}`)
  out.push('- Figures are medians over the rounds. CPU is the server process\'s user + system time from /proc/PID/stat divided by responses: ' +
    'it counts only the server\'s work, so it holds on a noisy host where req/s does not. Δ is against plain Fastify on the same scenario and flags.', '')
  for (const set of sets) {
    out.push(`## Targets, ${set.label}`, '')
    if (set.targets.length === 0) out.push(`${NO_TARGETS}.`)
    else out.push('| target | measured | holds |', '|---|---|---|')
    for (const t of set.targets) out.push(`| ${t.target} | ${t.measured} | ${t.holds === null ? 'not checked' : t.holds ? 'yes' : '**no**'} |`)
    out.push('')
  }
  for (const set of sets) {
    for (const p of settings.pipelining) {
      out.push(`## Pipelining ${p}, ${set.label}`, '', '| scenario | server | req/s | × plain | p99 ms | CPU µs/req | Δ CPU | responses |', '|---|---|---:|---:|---:|---:|---:|---|')
      for (const [s, label] of SCENARIOS) {
        const plain = figures(set.samples, 'plain', s, p)
        for (const server of servers) {
          const f = figures(set.samples, server.id, s, p)
          if (f === undefined) continue
          const expected = server.requests[s].status
          const check = f.errors + f.wrong === 0 ? `all ${expected}` : `**${f.wrong} not ${expected}, ${f.errors} socket errors**`
          out.push(`| ${label} | ${server.name} | ${Math.round(f.rps)} | ${plain ? (f.rps / plain.rps).toFixed(2) : ''} | ${f.p99} | ` +
            `${f.cpu.toFixed(2)} | ${plain && server.id !== 'plain' ? us(f.cpu - plain.cpu).replace(' µs', '') : ''} | ${check} |`)
        }
      }
      out.push('')
    }
  }
  out.push('Rows a server cannot express are left out (Fastify\'s constraint has no query reader; NestJS has no ambiguity check; ' +
    'hapi-api-version reads integer versions from a header or a /vN prefix and serves its default version for a missing or unreadable one).', '')
  out.push('## Micro-benchmarks (benchmarks/micro.mjs)', '')
  if (micro === null) out.push(`${NOT_RUN} (BENCH_MICRO=0).`)
  else out.push('| what | ns per call |', '|---|---:|', ...micro.map(([what, ns]) => `| ${what} | ${ns.toFixed(0)} |`))
  out.push('')
  out.push(kept || '<!-- notes -->\n')
  return out.join('\n')
}
