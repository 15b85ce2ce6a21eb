/** A place of a walk over a document: the place it is in, and its key there (the walk's start has none). */
export interface WalkPlace { readonly parent: WalkPlace | null, readonly key: string }

/** The keys from the walk's start to a place: kept by a walk as links to the parent, built only where needed. */
export function pathOf (place: WalkPlace): string[] {
  const keys: string[] = []
  for (let at: WalkPlace = place; at.parent !== null; at = at.parent) keys.push(at.key)
  return keys.reverse()
}
