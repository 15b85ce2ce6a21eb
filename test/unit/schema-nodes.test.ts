import t from 'tap'
import { someNode } from '../../lib/util/schema-nodes.js'

t.test('the schema nodes of a value: each object once, outer first, data and the names of maps passed by', async t => {
  const Line: Record<string, unknown> = { type: 'object', properties: { sku: { type: 'string' } } }
  Line.properties = { ...Line.properties as object, next: Line }
  const schema = {
    $id: 'Order',
    properties: { default: { type: 'integer' }, line: Line, again: Line },
    anyOf: [{ $ref: 'A' }, { skipped: true, properties: { inner: { $ref: 'B' } } }],
    default: { $ref: 'data' },
    examples: [{ properties: {} }]
  }
  const seen: unknown[] = []
  t.equal(someNode(schema, node => { seen.push(node.$ref ?? node.$id ?? node.type); return node.skipped === true ? 'skip' : undefined }), false)
  t.same(seen.sort(), ['A', 'Order', 'integer', 'object', 'string', undefined].sort(), "a property named default is a node; the default's value and the skipped node's own are not; a cycle ends")
  t.equal(someNode(schema, node => node.$ref === 'A'), true, 'ended by the visit')
  t.equal(someNode(7, () => true), false, 'no object')
})
