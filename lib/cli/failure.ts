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
