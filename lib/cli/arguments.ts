import { parseArgs } from 'node:util'
import { messageOf } from '../util/server-error.js'
import { Failure } from './failure.js'

export type Command = 'snapshot' | 'check'

/** A run of a command: what it does, on which app and folder, and how long it waits for the app. */
export interface Run {
  readonly action: 'run'
  readonly command: Command
  readonly app: string
  readonly dir: string
  /** Seconds the app has to load and become ready. */
  readonly readyTimeout: number
  /** Seconds the app has to close. */
  readonly closeTimeout: number
  /** `check`: a change no rule judges is exit 1 too. */
  readonly failOnUnjudged: boolean
}

/** What the command line asks: a run, the usage text or the package's version. */
export type Arguments = { readonly action: 'help' } | { readonly action: 'version' } | Run

const COMMANDS: readonly string[] = ['snapshot', 'check']
const DEFAULT_READY_TIMEOUT = 60
const DEFAULT_CLOSE_TIMEOUT = 10
// A day: past that no wait is one for an app to start, and a timer of more than 24.8 days would fire at once.
const MAX_TIMEOUT = 86_400

export const USAGE = `Usage: fastify-api-versioning <command> --app <module> --dir <folder> [options]

Commands:
  snapshot  write each API version's OpenAPI document to <folder>/<version>.json (when you release)
  check     compare each saved version's document with the app's now; exit 1 when one changed in a
            breaking way (a released version must not break its clients)

Options:
  --app <module>             a module whose default export (module.exports in CommonJS) is a Fastify instance, or
                             a function returning one, not listening, with fastify-api-versioning/openapi
                             registered (TypeScript: where Node loads it, see the docs)
  --dir <folder>             where the documents are saved
  --ready-timeout <seconds>  how long the app may take to load and become ready (default ${DEFAULT_READY_TIMEOUT})
  --close-timeout <seconds>  how long the app may take to close (default ${DEFAULT_CLOSE_TIMEOUT})
  --fail-on-unjudged         check: exit 1 on a change no rule judges too ("changed (not judged)"), which
                             otherwise is listed and exit 0
  -h, --help                 this text
  --version                  the package's version

Exit codes: 0 nothing breaking, 1 breaking changes (check), 2 an error (an app that does not become ready
or close in time is one). Breaking changes stay exit 1 whatever closing the app does.
`

const OPTIONS = '--app <module>, --dir <folder>, --ready-timeout <seconds>, --close-timeout <seconds>, --fail-on-unjudged, --help and --version'

/** Reads the command line (without `node` and the script): a usage error is a Failure that shows the usage. */
export function parseArguments (argv: readonly string[]): Arguments {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        app: { type: 'string' },
        dir: { type: 'string' },
        'ready-timeout': { type: 'string' },
        'close-timeout': { type: 'string' },
        'fail-on-unjudged': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' }
      }
    })
  } catch (error) {
    // Node's first sentence names the option ("Unknown option '--ap'"); its advice on positionals is not ours.
    throw new Failure(`${messageOf(error).split(/\.\s/)[0]}: the options are ${OPTIONS}`, true)
  }
  const { values, positionals } = parsed
  if (values.help === true) return { action: 'help' }
  if (values.version === true) return { action: 'version' }
  if (positionals.length !== 1 || !COMMANDS.includes(positionals[0])) {
    const got = positionals.length === 0 ? 'none' : positionals.map(word => JSON.stringify(word)).join(' ')
    throw new Failure(`expected one command, snapshot or check (got ${got})`, true)
  }
  if (values.app === undefined) throw new Failure('--app is missing: give the module that exports your app (--app ./app.js)', true)
  if (values.dir === undefined) throw new Failure('--dir is missing: give the folder of the saved documents (--dir openapi-versions)', true)
  const failOnUnjudged = values['fail-on-unjudged'] === true
  if (failOnUnjudged && positionals[0] !== 'check') throw new Failure('--fail-on-unjudged is an option of check (snapshot judges nothing)', true)
  return {
    action: 'run',
    command: positionals[0] as Command,
    app: values.app,
    dir: values.dir,
    readyTimeout: seconds('--ready-timeout', values['ready-timeout'], DEFAULT_READY_TIMEOUT),
    closeTimeout: seconds('--close-timeout', values['close-timeout'], DEFAULT_CLOSE_TIMEOUT),
    failOnUnjudged
  }
}

function seconds (option: string, given: string | undefined, fallback: number): number {
  if (given === undefined) return fallback
  const value = given.trim() === '' ? NaN : Number(given)
  if (!(value > 0 && value <= MAX_TIMEOUT)) {
    throw new Failure(`${option} must be a number of seconds above 0 and at most ${MAX_TIMEOUT} (got ${JSON.stringify(given)})`, true)
  }
  return value
}
