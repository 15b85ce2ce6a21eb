import { messageOf, serverError } from '../util/server-error.js'
import { droppedPromise } from '../util/is-thenable.js'

/** How errors name the clock: what it decides as well as the option. */
export const NOW_OPTION = 'the now option (the clock of the version policies: enforced sunsets, deprecation dates)'

/**
 * Reads the app's clock (the `now` option), which may be the user's: the time in ms, or, for a clock that throws
 * or gives anything but a finite number, an error of the server that names the option (`prefix` names the entry).
 * A promise is such a value too (an async clock passes the start-up check only when it was not async then): its
 * rejection is handled, or it would end the process.
 */
export function readClock (now: () => number, prefix: string): number | Error {
  let time: unknown
  try {
    time = now()
  } catch (error) {
    return serverError('FST_API_VERSIONING_CLOCK_FAILED', `${prefix}: ${NOW_OPTION} threw`, error)
  }
  if (typeof time === 'number' && Number.isFinite(time)) return time
  if (droppedPromise(time)) return serverError('FST_API_VERSIONING_CLOCK_FAILED', `${prefix}: ${NOW_OPTION} returned a promise; it must return the time synchronously, as Date.now does`)
  const shown = typeof time === 'string' ? JSON.stringify(time.slice(0, 64)) : typeof time === 'bigint' ? `${time}n` : messageOf(time)
  return serverError('FST_API_VERSIONING_CLOCK_FAILED', `${prefix}: ${NOW_OPTION} returned ${shown}, not a time in ms since the epoch as Date.now gives`)
}
