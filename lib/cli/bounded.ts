import { Failure } from './failure.js'

/** A wait that did not end in time: its message names what did not finish and the option that bounds it. */
export class TimedOut extends Failure {}

/**
 * What `work` gives, or a TimedOut with `message` once `ms` have passed without it settling: no wait of the
 * command is unbounded. The timer ends with the wait, so that it holds nothing once the work settles.
 */
export async function within<T> (work: PromiseLike<T>, ms: number, message: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimedOut(message())), ms)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Waits for a step of the app's start (`what`: "the app did not become ready (ready())"). */
export type StartWait = <T>(work: PromiseLike<T>, what: string) => Promise<T>

/**
 * The waits of an app's start, which share one bound: loading its module, building it and making it ready all
 * end within `seconds` of the call, or the step that was waiting is named.
 */
export function startWaits (specifier: string, seconds: number): StartWait {
  const until = Date.now() + seconds * 1000
  return async (work, what) => await within(work, until - Date.now(), () =>
    `--app ${specifier}: ${what} within ${seconds} s: it waits for something that never comes (a connection, a plugin or hook that never ends); make it end, or give it longer with --ready-timeout <seconds>`)
}
