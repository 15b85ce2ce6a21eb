/**
 * Whether a body is no JSON value but bytes or a stream, as Fastify sends them as they are: a Buffer or another
 * typed array, an ArrayBuffer, a Node stream, a web ReadableStream, a Blob or a Response. A conversion gives it as
 * it is: a Buffer's toJSON (`{ type: 'Buffer', data }`), or a copy of a stream's properties, is no data of the app's.
 */
export function isOpaqueBody (value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  // Parsed JSON, what nearly every request and response holds, is told apart at once.
  const prototype = Object.getPrototypeOf(value) as unknown
  if (prototype === Object.prototype || prototype === Array.prototype) return false
  return ArrayBuffer.isView(value) || value instanceof ArrayBuffer || typeof (value as { pipe?: unknown }).pipe === 'function' ||
    typeof (value as { getReader?: unknown }).getReader === 'function' || value instanceof Blob || value instanceof Response
}
