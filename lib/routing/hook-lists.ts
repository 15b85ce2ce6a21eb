/** A route's hooks of one kind, as route options give them: none, one, or an array. */
type Hooks<T> = T | T[] | undefined

/** A route's hooks of one kind as a list (the route's own, where it is one). */
export function toArray<T> (hooks: Hooks<T>): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]
}

/** The route's hooks with `hook` first. */
export function prepend<T> (hook: T, hooks: Hooks<T>): T[] {
  return [hook, ...toArray(hooks)]
}

/** The route's hooks with `added` after them, in order, each but null; unchanged where all are null. */
export function append<T> (hooks: Hooks<T>, ...added: Array<T | null>): Hooks<T> {
  const present = added.filter(hook => hook !== null)
  return present.length === 0 ? hooks : [...toArray(hooks), ...present]
}
