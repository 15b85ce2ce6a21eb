import type { FastifyBaseLogger } from 'fastify'

/**
 * Logs the failures of one piece of the app's code that any client can make happen again (a selector, a counter,
 * a clock read after the response was decided): the first at `level`, each later one at debug with the count so
 * far, so that no client can flood the log. The logger is the app's code too: what it throws stays here.
 */
export function failureLog (level: 'error' | 'warn', message: string): (log: FastifyBaseLogger, error: unknown) => void {
  let failures = 0
  return function logFailure (log, error) {
    failures++
    logSafely(() => {
      if (failures === 1) log[level]({ err: error }, `${message} (logged once; later failures at debug level, counted)`)
      else log.debug({ err: error, failures }, message)
    })
  }
}

/**
 * Runs a log call of the plugin's at request time: a logger that throws must neither fail the request nor end the
 * process from a callback. What it throws has nowhere else to go.
 */
export function logSafely (write: () => void): void {
  try {
    write()
  } catch {}
}
