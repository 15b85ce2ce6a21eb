import { reasonOf } from './failure.js'

/** The process the command runs in, as far as it guards it: Node's, or a test's. */
export interface GuardedProcess {
  exitCode?: number | string | null | undefined
  on (event: 'exit', listener: (code: number) => void): unknown
  on (event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown
  exit (code: number): void
  readonly stdout: { on (event: 'error', listener: () => void): unknown }
  readonly stderr: { on (event: 'error', listener: () => void): unknown }
}

/** Tells the guard the exit code the command stands by: its verdict, then what closing the app made of it. */
export type Verdict = (code: number) => void

/**
 * Keeps the app from deciding the command's exit code: the app's code runs in the command's process, and may end
 * it (process.exit() in its module or a hook) or crash it (a rejection no one handles, a throw in a timer). Before
 * the verdict, either is exit 2, said on stderr: never 0, which would pass a check that never ran, nor Node's 1 for
 * a crash, which means breaking changes. After it, the verdict stands (0 becomes 2, as when closing fails).
 */
export function guardProcess (proc: GuardedProcess, stderr: { write (text: string): unknown }, specifier: string): Verdict {
  let verdict: number | undefined
  const say = (text: string): void => { stderr.write(`fastify-api-versioning: --app ${specifier}: ${text}\n`) }
  proc.on('exit', code => {
    if (verdict === undefined) {
      say(`the app ended the process (process.exit(${code})) before anything was checked: keep process.exit() out of its module and hooks (throw instead), so that the command can load it`)
      verdict = 2
    } else if (code !== verdict) {
      say(`the app ended the process (process.exit(${code})) as it closed: the exit code is the command's`)
      if (code !== 0 && verdict === 0) verdict = 2
    }
    proc.exitCode = verdict
  })
  const crashed = (error: unknown): void => {
    say(`the app failed where nothing catches it (a rejected promise no one awaits, a throw in a timer or callback): ${reasonOf(error)}: catch it in the app`)
    verdict = verdict === undefined || verdict === 0 ? 2 : verdict
    proc.exit(verdict)
  }
  proc.on('uncaughtException', crashed)
  proc.on('unhandledRejection', crashed)
  // A reader that stops early (`check ... | head`) closes the pipe: what is left to say is lost to it, but the exit
  // code still tells, and the app is still closed. Unheard, the error would crash the command.
  const unread = (): void => {}
  proc.stdout.on('error', unread)
  proc.stderr.on('error', unread)
  return code => { verdict = code }
}
