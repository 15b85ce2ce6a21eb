/**
 * Whether a value the app's code gave is a promise or any thenable. Where the plugin needs a value synchronously, it
 * must still handle such a value's rejection: unhandled, it would end the process.
 */
export function isThenable (value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function'
}
