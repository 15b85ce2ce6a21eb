import type { ApiVersioningErrorCode } from '../errors.js'

/**
 * An error of the server that the app's code caused (a writer, the clock): `message` says what failed; what was
 * thrown goes with it as its cause when it is an error, whose message and stack loggers show after ours (pino
 * does), else as text in the message. Its status is 500 whatever the reply's status was when it failed.
 */
export function serverError (code: ApiVersioningErrorCode, message: string, ...thrown: [unknown?]): Error & { statusCode: 500, code: ApiVersioningErrorCode } {
  // By the count of arguments: `throw undefined` is something thrown too.
  const error = thrown.length === 0
    ? new Error(message)
    : isErrorLike(thrown[0]) ? new Error(message, { cause: thrown[0] }) : new Error(`${message}: ${messageOf(thrown[0])}`)
  return Object.assign(error, { statusCode: 500 as const, code })
}

/** What was thrown, as text, whatever it is: a Proxy, or an object whose `toString` throws, gives a fixed text. */
export function messageOf (thrown: unknown): string {
  try {
    return thrown instanceof Error ? thrown.message : String(thrown)
  } catch {
    return 'a value that cannot be read'
  }
}

function isErrorLike (thrown: unknown): boolean {
  try {
    return typeof (thrown as { message?: unknown } | null)?.message === 'string'
  } catch {
    return false
  }
}
