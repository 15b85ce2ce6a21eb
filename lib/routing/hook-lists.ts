/** A route's hooks of one kind, as route options give them: none, one, or an array. */
type Hooks<T> = T | T[] | undefined

function toArray<T> (hooks: Hooks<T>): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]
}

/** The route's hooks with `hook` first. */
export function prepend<T> (hook: T, hooks: Hooks<T>): T[] {
  return [hook, ...toArray(hooks)]
}

/** The route's hooks with `hook` last; unchanged for none. */
export function append<T> (hooks: Hooks<T>, hook: T | null): Hooks<T> {
  return hook === null ? hooks : [...toArray(hooks), hook]
}
