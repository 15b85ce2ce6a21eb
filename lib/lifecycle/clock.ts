import { messageOf, serverError } from '../problems/server-error.js'

/**
 * Reads the app's clock (the `now` option), which may be the user's: the time in ms, or, for a clock that throws
 * or gives anything but a finite number, an error of the server that names the option (`prefix` names the entry).
 */
export function readClock (now: () => number, prefix: string): number | Error {
  let time: unknown
  try {
    time = now()
  } catch (error) {
    return serverError('FST_API_VERSIONING_CLOCK_FAILED', `${prefix}: the now option (the clock of enforced sunsets) threw`, error)
  }
  if (typeof time === 'number' && Number.isFinite(time)) return time
  const shown = typeof time === 'string' ? JSON.stringify(time.slice(0, 64)) : typeof time === 'bigint' ? `${time}n` : messageOf(time)
  return serverError('FST_API_VERSIONING_CLOCK_FAILED', `${prefix}: the now option (the clock of enforced sunsets) returned ${shown}, not a time in ms since the epoch as Date.now gives`)
}
