/** A change as a sentence, and whether a client of the earlier version can break on it. */
export interface Note {
  readonly text: string
  readonly breaking: boolean
}
