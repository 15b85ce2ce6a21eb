import type { FastifyBaseLogger } from 'fastify'

/**
 * Gives a start-up warning of the plugin: to the app's logger, or, where the app has none (Fastify's default,
 * `Fastify()`, whose logger is abstract-logging's: no level, `noop` functions), to Node's process warnings, which
 * print to stderr: a warning that routes are silently unversioned or documents empty must not be silent because the
 * app logs nothing. A logger of the app's own (a `loggerInstance`, with a level or not) gets it, and its level is
 * the app's choice (pino's levels below it are `noop` too).
 */
export function warnAtStartUp (log: FastifyBaseLogger, message: string, code?: string): void {
  if (log.level !== undefined || log.warn.name !== 'noop') {
    if (code === undefined) log.warn(message)
    else log.warn({ code }, message)
  } else {
    process.emitWarning(message, code === undefined ? {} : { code })
  }
}
