import t from 'tap'
import { Readable } from 'node:stream'
import { isOpaqueBody } from '../../lib/util/opaque-body.js'

t.test('bytes and streams are opaque bodies; JSON values, and objects of the app with a toJSON, are not', async t => {
  const opaque = [Buffer.from('a'), new Uint8Array(1), new DataView(new ArrayBuffer(1)), new ArrayBuffer(1), Readable.from([]), new ReadableStream(), new Blob(['a']), new Response('a')]
  for (const value of opaque) t.equal(isOpaqueBody(value), true, Object.prototype.toString.call(value))
  for (const value of [null, undefined, 'text', 1, {}, [], { pipe: 'not a function' }, { toJSON: () => 'x' }, new Date()]) t.equal(isOpaqueBody(value), false, String(value))
})
