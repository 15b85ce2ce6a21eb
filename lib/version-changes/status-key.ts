/**
 * The key of a status as Fastify picks a response schema: the status, then its class (`2xx`, `2XX`), then
 * `default`. Read for every response of an older version: no list to make.
 */
export function keyFor (byStatus: ReadonlyMap<string, unknown>, status: number): string | undefined {
  const text = String(status)
  if (byStatus.has(text)) return text
  const lower = `${text[0]}xx`
  if (byStatus.has(lower)) return lower
  const upper = `${text[0]}XX`
  if (byStatus.has(upper)) return upper
  return byStatus.has('default') ? 'default' : undefined
}

/** What a map holds for a status, as Fastify picks a response schema (see keyFor). */
export function forStatus<T> (byStatus: ReadonlyMap<string, T>, status: number): T | undefined {
  const key = keyFor(byStatus, status)
  return key === undefined ? undefined : byStatus.get(key)
}

/** Whether an endpoint's status change (`changed: { status }`) moves a response declared under a key: a success one, never a 204, which has no content to answer with another status. */
export function movesWithStatus (key: string): boolean {
  return key.startsWith('2') && key !== '204'
}
