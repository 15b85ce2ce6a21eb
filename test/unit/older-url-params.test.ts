import t from 'tap'
import { withOlderParams } from '../../lib/routing/older-url-params.js'

t.test("a route's schema as its older URL documents it: its params under the older names, the rest as it is", async t => {
  const renames = [['id', 'orderId'], ['n', 'n']] as const
  t.same(withOlderParams({ params: { type: 'object', properties: { orderId: { type: 'integer' }, n: {}, other: {} }, required: ['orderId', 'n'] } }, renames), { params: { type: 'object', properties: { id: { type: 'integer' }, n: {}, other: {} }, required: ['id', 'n'] } })
  t.same(withOlderParams({ params: { properties: { orderId: {} } } }, renames), { params: { properties: { id: {} } } }, 'none required')
  for (const schema of [{}, { params: { type: 'object' } }, { body: {} }]) t.equal(withOlderParams(schema, renames), schema, 'no params to rename')
})
