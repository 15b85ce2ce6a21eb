import type { IncomingMessage } from 'node:http'
import { droppedPromise } from '../util/is-thenable.js'
import { serverError } from '../util/server-error.js'
import { CUSTOM, type VersionOutcome } from './outcome.js'

/** The app's own reader (`versionReader.custom`): the request's version texts, or none. */
export type CustomReader = (request: IncomingMessage) => string | readonly string[] | undefined

/**
 * Adds the values of the app's reader to the outcome, as any reader's; false once the outcome is final. It is the
 * app's code, called while the router picks a route: what it throws, or gives other than a text, an array of texts,
 * undefined or null (none), is an error of the server for the request (the outcome's error: a 500, logged), never
 * a crash or a request read as if it had no version. A reader that never returns cannot be helped here.
 */
export function readCustom (req: IncomingMessage, custom: CustomReader, outcome: VersionOutcome): boolean {
  try {
    const given: unknown = custom(req)
    if (given === undefined || given === null) return true
    if (typeof given === 'string') return outcome.add(given, 'custom', CUSTOM)
    // Array.from makes the holes of a sparse array undefined, which the check refuses.
    const texts = Array.isArray(given) ? Array.from(given as unknown[]) : null
    if (texts !== null && texts.every(text => typeof text === 'string')) {
      for (const text of texts as string[]) if (!outcome.add(text, 'custom', CUSTOM)) return false
      return true
    }
    if (droppedPromise(given)) {
      outcome.error = serverError('FST_API_VERSIONING_CUSTOM_READER_FAILED', 'fastify-api-versioning: versionReader.custom returned a Promise; the router cannot wait for it: return the version synchronously, read from the request')
      return false
    }
    outcome.error = serverError('FST_API_VERSIONING_CUSTOM_READER_FAILED', `fastify-api-versioning: versionReader.custom returned ${shown(given)}, not a version text, an array of them or undefined`)
  } catch (error) {
    outcome.error = serverError('FST_API_VERSIONING_CUSTOM_READER_FAILED', 'fastify-api-versioning: versionReader.custom threw', error)
  }
  return false
}

function shown (value: unknown): string {
  if (Array.isArray(value)) return 'an array with other than texts'
  return typeof value === 'object' || typeof value === 'function' ? `a value of type ${typeof value}` : `the ${typeof value} ${String(value)}`
}
