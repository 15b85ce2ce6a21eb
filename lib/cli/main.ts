import { parseArguments, USAGE, type Run } from './arguments.js'
import { startWaits, TimedOut, within } from './bounded.js'
import { check } from './check.js'
import { Failure, reasonOf } from './failure.js'
import type { Io } from './io.js'
import { gateOf, loadApp, type App } from './load-app.js'
import { ownVersion } from './own-version.js'
import { guardProcess, type GuardedProcess } from './process-guard.js'
import { snapshot } from './snapshot.js'

export type { Io } from './io.js'
export type { GuardedProcess } from './process-guard.js'

/**
 * The `fastify-api-versioning` command (see USAGE): its exit code, its output written to `io`. 0: done, nothing
 * breaking; 1: `check` found breaking changes; 2: a usage error, or an error of the app, the folder or a file.
 * `proc`: the process the app runs in, guarded so that what the app does to it cannot decide the exit code.
 */
export async function main (argv: readonly string[], io: Io, proc: GuardedProcess): Promise<number> {
  let args
  try {
    args = parseArguments(argv)
  } catch (error) {
    return failed(io, error)
  }
  if (args.action === 'help') io.stdout.write(USAGE)
  if (args.action === 'version') io.stdout.write(`${ownVersion()}\n`)
  return args.action === 'run' ? await run(args, io, proc) : 0
}

// The verdict is written before the app closes, and stands whatever closing does (see close()).
async function run (args: Run, io: Io, proc: GuardedProcess): Promise<number> {
  const verdict = guardProcess(proc, io.stderr, args.app)
  const wait = startWaits(args.app, args.readyTimeout)
  let app: App | undefined
  let code: number
  // Fastify closes an app once it has started, so one that never became ready would never close either: the
  // process ends without it.
  let closes = true
  try {
    app = (await loadApp(args.app, io.cwd, wait)).app
    const gate = await gateOf(app, args.app, wait)
    code = await (args.command === 'snapshot' ? snapshot(gate, args.app, args.dir, io) : check(gate, args.dir, io, args.failOnUnjudged))
  } catch (error) {
    code = failed(io, error)
    closes = !(error instanceof TimedOut)
  }
  verdict(code)
  if (app === undefined || !closes) return code
  code = await close(app, args, io, code)
  verdict(code)
  return code
}

/**
 * Closes the app, so that what it holds (connections, timers) does not keep the process, within `--close-timeout`.
 * A close that fails or never ends turns "done" (0) into 2; breaking changes found stay exit 1.
 */
async function close (app: App, args: Run, io: Io, code: number): Promise<number> {
  try {
    await within((async () => await app.close())(), args.closeTimeout * 1000, () =>
      `--app ${args.app}: closing the app (close()) did not finish within ${args.closeTimeout} s: an onClose hook never ends; make it end, or give it longer with --close-timeout <seconds>`)
    return code
  } catch (error) {
    io.stderr.write(`fastify-api-versioning: ${error instanceof TimedOut ? error.message : `--app ${args.app}: closing the app failed: ${reasonOf(error)}`}\n`)
    return code === 0 ? 2 : code
  }
}

// What stopped the command, on stderr (with the usage, for a usage error): exit code 2.
function failed (io: Io, error: unknown): number {
  io.stderr.write(`fastify-api-versioning: ${reasonOf(error)}\n`)
  if (error instanceof Failure && error.usage) io.stderr.write(`\n${USAGE}`)
  return 2
}
