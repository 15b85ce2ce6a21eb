/**
 * Whether a value the app's code gave is a promise or any thenable. Where the plugin needs a value synchronously, it
 * must still handle such a value's rejection: unhandled, it would end the process.
 */
export function isThenable (value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function'
}

/** For a value needed synchronously: true, with its rejection handled and what it settles to dropped, for a promise. */
export function droppedPromise (value: unknown): boolean {
  if (!isThenable(value)) return false
  Promise.resolve(value).catch(() => {})
  return true
}

/** Whether a function of the app's code is `async`: it can never give a value synchronously. */
export function isAsyncFunction (value: unknown): boolean {
  return Object.prototype.toString.call(value) === '[object AsyncFunction]'
}
