import { parseArgs } from 'node:util'
import { messageOf } from '../problems/server-error.js'
import { Failure } from './failure.js'

export type Command = 'snapshot' | 'check'

/** What the command line asks: a command and its two flags, or the usage text. */
export type Arguments = { readonly help: true } | { readonly help: false, readonly command: Command, readonly app: string, readonly dir: string }

const COMMANDS: readonly string[] = ['snapshot', 'check']

export const USAGE = `Usage: fastify-api-versioning <command> --app <module> --dir <folder>

Commands:
  snapshot  write each API version's OpenAPI document to <folder>/<version>.json (when you release)
  check     compare each saved version's document with the app's now; exit 1 when one changed in a
            breaking way (a released version must not break its clients)

Options:
  --app <module>  a module whose default export (module.exports in CommonJS) is a Fastify instance, or a
                  function returning one, not listening, with fastify-api-versioning/openapi registered
  --dir <folder>  where the documents are saved
  -h, --help      this text

Exit codes: 0 nothing breaking, 1 breaking changes (check), 2 an error.
`

/** Reads the command line (without `node` and the script): a usage error is a Failure that shows the usage. */
export function parseArguments (argv: readonly string[]): Arguments {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { app: { type: 'string' }, dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } }
    })
  } catch (error) {
    // Node's first sentence names the option ("Unknown option '--ap'"); its advice on positionals is not ours.
    throw new Failure(`${messageOf(error).split('. ')[0]}: the options are --app <module>, --dir <folder> and --help`, true)
  }
  const { values, positionals } = parsed
  if (values.help === true) return { help: true }
  if (positionals.length !== 1 || !COMMANDS.includes(positionals[0])) {
    const got = positionals.length === 0 ? 'none' : positionals.map(word => JSON.stringify(word)).join(' ')
    throw new Failure(`expected one command, snapshot or check (got ${got})`, true)
  }
  if (values.app === undefined) throw new Failure('--app is missing: give the module that exports your app (--app ./app.js)', true)
  if (values.dir === undefined) throw new Failure('--dir is missing: give the folder of the saved documents (--dir openapi-versions)', true)
  return { help: false, command: positionals[0] as Command, app: values.app, dir: values.dir }
}
