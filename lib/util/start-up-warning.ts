import type { FastifyBaseLogger } from 'fastify'

/**
 * Gives a start-up warning of the plugin: to the app's logger, or, where the app has none (Fastify's default,
 * `Fastify()`, whose logger has no level), to Node's process warnings, which print to stderr: a warning that routes
 * are silently unversioned or documents empty must not be silent because the app logs nothing. A logger whose level
 * leaves warnings out is the app's choice.
 */
export function warnAtStartUp (log: FastifyBaseLogger, message: string, code?: string): void {
  if (log.level !== undefined) {
    if (code === undefined) log.warn(message)
    else log.warn({ code }, message)
  } else {
    process.emitWarning(message, code === undefined ? {} : { code })
  }
}
