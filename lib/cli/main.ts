import { parseArguments, USAGE, type Arguments } from './arguments.js'
import { check } from './check.js'
import { messageOf } from '../problems/server-error.js'
import { Failure } from './failure.js'
import type { Io } from './io.js'
import { gateOf, loadApp } from './load-app.js'
import { snapshot } from './snapshot.js'

export type { Io } from './io.js'

/**
 * The `fastify-api-versioning` command (see USAGE): its exit code, its output written to `io`. 0: done, nothing
 * breaking; 1: `check` found breaking changes; 2: a usage error, or an error of the app, the folder or a file.
 */
export async function main (argv: readonly string[], io: Io): Promise<number> {
  try {
    const args = parseArguments(argv)
    if (args.help) {
      io.stdout.write(USAGE)
      return 0
    }
    return await run(args, io)
  } catch (error) {
    io.stderr.write(`fastify-api-versioning: ${messageOf(error)}\n`)
    if (error instanceof Failure && error.usage) io.stderr.write(`\n${USAGE}`)
    return 2
  }
}

// The app is closed whatever happens, so that what it holds (connections, timers) does not keep the process.
async function run (args: Exclude<Arguments, { help: true }>, io: Io): Promise<number> {
  const { app } = await loadApp(args.app, io.cwd)
  let code = 2
  try {
    const gate = await gateOf(app, args.app)
    code = await (args.command === 'snapshot' ? snapshot : check)(gate, args.dir, io)
  } finally {
    try {
      await app.close()
    } catch (error) {
      io.stderr.write(`fastify-api-versioning: --app ${args.app}: closing the app failed: ${messageOf(error)}\n`)
      code = 2
    }
  }
  return code
}
