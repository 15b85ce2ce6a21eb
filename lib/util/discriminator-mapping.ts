import { isObject } from './is-object.js'

/**
 * A discriminator with each ref of its `mapping` (a value → its schema's ref) given by `moved`, as a walk writes a
 * schema's `$ref`s (a component's name, which is no ref, is `moved`'s to leave): the discriminator itself where it has
 * no mapping or no ref moves.
 */
export function withMappedRefs<T> (discriminator: T, moved: (ref: string) => string): T {
  if (!isObject(discriminator) || !isObject(discriminator.mapping)) return discriminator
  const mapping = discriminator.mapping
  let copy: Record<string, unknown> | null = null
  for (const [value, ref] of Object.entries(mapping)) {
    const given = typeof ref === 'string' ? moved(ref) : ref
    if (given !== ref) (copy ??= { ...mapping })[value] = given
  }
  return copy === null ? discriminator : { ...discriminator, mapping: copy } as T
}
