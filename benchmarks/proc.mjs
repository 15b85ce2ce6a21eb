// Process helpers shared by the benchmark runner and the soak: start a server, start the load process,
// read a process's CPU time from /proc.
import { execFileSync, spawn } from 'node:child_process'
import os from 'node:os'
import { readFileSync } from 'node:fs'
import { once } from 'node:events'

const here = new URL('.', import.meta.url)
// The server and the load generator each get a CPU of their own (when taskset and two CPUs are there), so they
// never compete for one and the figures do not depend on where the scheduler puts them.
const cpus = os.availableParallelism()
const pinning = cpus >= 2 && hasTaskset()
function hasTaskset () {
  try {
    execFileSync('taskset', ['-c', '0', 'true'])
    return true
  } catch {
    return false
  }
}
export const PINNED = pinning ? `server on CPU ${cpus - 1}, load on CPU 0 (taskset)` : 'not pinned (no taskset)'

function node (script, args, cpu, options) {
  const argv = [...(options.execArgv ?? []), new URL(script, here).pathname, ...args]
  const stdio = ['ignore', 'inherit', 'inherit', 'ipc']
  return pinning
    ? spawn('taskset', ['-c', String(cpu), process.execPath, ...argv], { ...options, stdio })
    : spawn(process.execPath, argv, { ...options, stdio })
}

// Clock ticks per second of /proc/PID/stat times (USER_HZ); 100 on every Linux this runs on.
const TICKS = 100

// V8 sizes the young generation by heuristics that depend on start-up history (how many modules were loaded,
// what survived early collections): two servers doing the same work could differ by 20% in CPU per request
// depending on where it settled. The benchmark fixes it for every server alike; see the notes in results.md.
export const SERVER_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--min-semi-space-size=16 --max-semi-space-size=16').split(' ').filter(Boolean)

/**
 * Starts `node <execArgv> <args>` in benchmarks/ and resolves when it sends its port: either the port itself or
 * `{ port, ...figures }` (the scale servers report their start-up figures with it), given back as `message`.
 */
export async function startServer (args, execArgv = SERVER_FLAGS) {
  const child = node(args[0], args.slice(1), cpus - 1, { cwd: here, execArgv, env: { ...process.env, NODE_ENV: 'production' } })
  const [message] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => { throw new Error(`${args.join(' ')} exited (${code}) before listening`) })
  ])
  return { child, port: typeof message === 'object' ? message.port : message, message }
}

export async function stop (child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

/** A load process; `run(options)` runs autocannon there and resolves with its summary. */
export function startLoad () {
  const child = node('load.mjs', [], 0, {})
  return {
    child,
    async run (options) {
      child.send(options)
      const [result] = await once(child, 'message')
      return result
    }
  }
}

/** User + system CPU time of a process so far, in microseconds. */
export function cpuMicros (pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name, which is in parentheses and may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * (1e6 / TICKS)
}
