import t from 'tap'
import { decodes, pointer, pointerToken } from '../../lib/util/json-pointer.js'

// What every caller relies on: a pointer names what it leads to, or nothing; it never throws.
t.test('a JSON pointer names what it leads to, or nothing, and never throws', async t => {
  const document = { a: [{ 'b/c': 1, '~d': 2, é: 3 }] }
  t.equal(pointer(document, '/a/0/b~1c'), 1)
  t.equal(pointer(document, '/a/0/~0d'), 2)
  t.equal(pointer(document, '/a/0/%C3%A9'), 3, 'percent-encoded, as in a URI fragment')
  t.equal(pointer(document, ''), document)
  t.equal(pointer(document, 'a'), undefined, 'a plain name')
  t.equal(pointer(document, '/a/0/%ZZ'), undefined, 'a malformed escape')
  t.equal(pointer(document, '/a/0/%C3'), undefined, 'an escape that is no UTF-8')
  t.same([decodes('/a%20b'), decodes('/%'), decodes('/%E2%82')], [true, false, false])
})

t.test('a name written as a token names it again, whatever it holds', async t => {
  for (const name of ['plain', 'b/c', '~d', '~1', '100%', '%25', 'a%20b', 'é', '{id}', '']) t.equal(pointer({ [name]: 1 }, `/${pointerToken(name)}`), 1, name)
})
