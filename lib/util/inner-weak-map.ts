/** The map `outer` keeps for `key`, empty the first time: a level of a cache keyed by several objects. */
export function innerWeakMap<K extends object, K2 extends object, V> (outer: WeakMap<K, WeakMap<K2, V>>, key: K): WeakMap<K2, V> {
  let inner = outer.get(key)
  if (inner === undefined) outer.set(key, inner = new WeakMap())
  return inner
}
