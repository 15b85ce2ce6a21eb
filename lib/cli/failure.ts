import { messageOf } from '../util/server-error.js'

/**
 * What stops the command with exit code 2: a message for stderr that names the flag or file at fault and says
 * what to do. `usage`: show the usage text after it.
 */
export class Failure extends Error {
  readonly usage: boolean

  constructor (message: string, usage = false) {
    super(message)
    this.usage = usage
  }
}

/**
 * What the app's code threw, as the command says it: an error's message, then its cause's, where the entries keep
 * what the app's own code threw ("transformObject threw for version 1.0" says where, its cause what).
 */
export function reasonOf (thrown: unknown): string {
  const cause = thrown instanceof Error ? thrown.cause : undefined
  return cause === undefined ? messageOf(thrown) : `${messageOf(thrown)}: ${messageOf(cause)}`
}
