import t from 'tap'
import { Type } from '@sinclair/typebox'
import { versionChange } from '../../lib/index.js'
import { rulesOf } from '../../lib/version-changes/version-change.js'

const Order = Type.Object({ id: Type.Integer(), createdAt: Type.String() }, { $id: 'Order' })
const migrate = (): void => {}

t.test('versionChange() keeps the description and its instructions, checked and frozen', async t => {
  const change = versionChange({
    description: "Orders call their creation time 'createdAt'.",
    endpoints: [
      { method: ['get', 'HEAD'], url: '/orders/:id/lines', added: true }, { method: 'DELETE', url: '/orders/:id', removed: true },
      { method: 'GET', url: '/orders/:id', changed: { summary: 'An order', tags: ['orders'] } }, { method: 'PUT', url: '/orders/:id', deprecated: true }
    ],
    fields: [
      { schema: Order, field: 'createdAt', renamedFrom: 'created' },
      { schema: 'Order', field: 'id', added: true },
      { schema: Order, field: 'legacy', removed: { schema: { type: 'string' }, required: true } },
      { schema: Order, field: 'id', changed: { schema: Type.String() } },
      { schema: Order, field: 'id', changed: { required: false } }
    ],
    requests: [{ route: 'post /orders', migrate }, { schema: Order, migrate }],
    responses: [{ route: 'GET /orders/:id', migrate }, { schema: 'Order', errors: true, migrate }]
  })
  t.same(Object.keys(change), ['description'], 'what users see: the description')
  t.equal(typeof change.isAppliedTo, 'function', 'and isAppliedTo, not enumerable')
  t.same({ ...change }, { description: "Orders call their creation time 'createdAt'." })
  t.equal(change.description, "Orders call their creation time 'createdAt'.")
  t.ok(Object.isFrozen(change))
  const rules = rulesOf(change)
  t.ok(rules !== null && Object.isFrozen(rules) && Object.isFrozen(rules.fields))
  t.same(rules?.endpoints, [
    { methods: ['GET', 'HEAD'], url: '/orders/:id/lines', kind: 'added', docs: null, status: null, olderUrl: null, deprecation: null, at: 'endpoints[0]' },
    { methods: ['DELETE'], url: '/orders/:id', kind: 'removed', docs: null, status: null, olderUrl: null, deprecation: null, at: 'endpoints[1]' },
    { methods: ['GET'], url: '/orders/:id', kind: 'changed', docs: { summary: 'An order', tags: ['orders'] }, status: null, olderUrl: null, deprecation: null, at: 'endpoints[2]' },
    { methods: ['PUT'], url: '/orders/:id', kind: 'deprecated', docs: null, status: null, olderUrl: null, deprecation: null, at: 'endpoints[3]' }
  ])
  t.ok(Object.isFrozen(rules?.endpoints[2].docs) && Object.isFrozen(rules?.endpoints[2].docs?.tags))
  t.same(rules?.fields.map(rule => [rule.kind, rule.field, rule.id, rule.renamedFrom, rule.older, rule.required, rule.at]), [
    ['renamed', 'createdAt', 'Order', 'created', null, null, 'fields[0]'],
    ['added', 'id', 'Order', null, null, null, 'fields[1]'],
    ['removed', 'legacy', 'Order', null, { type: 'string' }, true, 'fields[2]'],
    ['changed', 'id', 'Order', null, Type.String(), null, 'fields[3]'],
    ['changed', 'id', 'Order', null, null, false, 'fields[4]']
  ])
  t.same(rules?.requests.map(rule => [rule.route, rule.id]), [['POST /orders', null], [null, 'Order']])
  t.same(rules?.responses.map(rule => [rule.route, rule.errors]), [['GET /orders/:id', false], [null, true]])
  const behaviour = rulesOf(versionChange({ description: 'Searches match whole words.' }))
  t.same([behaviour?.endpoints, behaviour?.fields, behaviour?.requests, behaviour?.responses, behaviour?.schemas], [[], [], [], [], []], 'a change of behaviour alone: its description, no instruction')
  t.same(rulesOf(versionChange({ description: 'Bills are orders.', schemas: [{ schema: 'Order', renamedFrom: 'Bill' }, { schema: { $id: 'Line' }, renamedFrom: 'Item' }] }))?.schemas, [{ id: 'Order', renamedFrom: 'Bill', at: 'schemas[0]' }, { id: 'Line', renamedFrom: 'Item', at: 'schemas[1]' }])
  t.equal(rulesOf({ description: 'a lookalike' }), null, 'only what versionChange() made')
  t.equal(rulesOf('text'), null)
  // Either build of the package reads the other's changes: the rules are under a registry symbol.
  t.equal((change as unknown as Record<symbol, unknown>)[Symbol.for('fastify-api-versioning.versionChange')], rules)
})

t.test('versionChange() refuses what it cannot carry out, naming the instruction', async t => {
  const cases: Array<[unknown, RegExp]> = [
    [undefined, /needs \{ description, endpoints\?, enums\?, fields\?, requests\?, responses\?, schemas\?, webhooks\? \} \(got undefined\)/],
    [{ description: 'x', field: [] }, /unknown option "field"; a change has description, endpoints, enums, fields, requests, responses, schemas and webhooks/],
    [{ description: 'x', schemas: ['Order'] }, /schemas\[0\] must be \{ schema, renamedFrom \}/],
    [{ description: 'x', schemas: [{ schema: 'Order', renamedfrom: 'Bill' }] }, /schemas\[0\] has the unknown key "renamedfrom"; its keys are schema, renamedFrom/],
    [{ description: 'x', schemas: [{ schema: { type: 'object' }, renamedFrom: 'Bill' }] }, /schemas\[0\]\.schema has no \$id: a document names a shared schema \(app\.addSchema\) by its \$id, so name it by that, or give the object its \$id/],
    [{ description: 'x', schemas: [{ schema: 'Order', renamedFrom: 'a bill' }] }, /schemas\[0\]\.renamedFrom must be the name older versions' documents give the schema: letters, digits, '\.', '_' and '-' \(got a bill\)/],
    [{ description: 'x', schemas: [{ schema: 'Order' }] }, /schemas\[0\]\.renamedFrom must be the name/],
    [{ description: 'x', schemas: [{ schema: { $id: 'Order' }, renamedFrom: 'Order' }] }, /schemas\[0\]\.renamedFrom is the schema's own name, "Order": nothing was renamed/],
    [{ fields: [] }, /description must be a sentence for clients, saying what changed/],
    [{ description: '  ' }, /description must be a sentence/],
    [{ description: 'x', fields: [{ schema: {}, field: 'a', renamedfrom: 'b' }] }, /fields\[0\] has the unknown key "renamedfrom"; its keys are schema, field, renamedFrom, added, removed, changed/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', add: true }] }, /endpoints\[0\] has the unknown key "add"; its keys are method, url, added, removed/],
    [{ description: 'x', requests: [{ route: 'GET /a', migrate () {}, errors: true }] }, /requests\[0\] has the unknown key "errors"; its keys are route, schema, migrate/],
    [{ description: 'x', responses: [{ route: 'GET /a', migrate () {}, error: true }] }, /responses\[0\] has the unknown key "error"; its keys are route, schema, errors, migrate/],
    [{ description: 'x', endpoints: {} }, /endpoints must be an array \(got \[object Object\]\)/],
    [{ description: 'x', endpoints: [null] }, /endpoints\[0\] must be \{ method, url \} with added: true, removed: true, changed: \{ \.\.\. \}, deprecated: true or hidden: true/],
    [{ description: 'x', endpoints: [{ method: 'G T', url: '/a', added: true }] }, /endpoints\[0\]\.method must be an HTTP method or an array of them/],
    [{ description: 'x', endpoints: [{ method: [], url: '/a', added: true }] }, /endpoints\[0\]\.method must be/],
    [{ description: 'x', endpoints: [{ method: 7, url: '/a', added: true }] }, /endpoints\[0\]\.method must be/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: 'a', added: true }] }, /endpoints\[0\]\.url must be the route's URL as declared, prefix included/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a' }] }, /endpoints\[0\] must say one of added: true, removed: true, changed: \{ \.\.\. \}, deprecated: true and hidden: true \(got none\)/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', added: true, removed: true }] }, /endpoints\[0\] must say one of .* \(got added, removed\)/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', deprecated: 'yes' }] }, /endpoints\[0\]\.deprecated must be true or \{ date\?, link\? \}/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', hidden: 1 }] }, /endpoints\[0\]\.hidden must be true/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', changed: 'x' }] }, /endpoints\[0\]\.changed must be \{ summary\?, description\?, tags\?, operationId\?, status\?, url\? \}: what older versions had otherwise/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', changed: {} }] }, /endpoints\[0\]\.changed must say what older versions had otherwise: summary, description, tags, operationId, status or url/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', changed: { title: 'x' } }] }, /endpoints\[0\]\.changed has the unknown key "title"; its keys are summary, description, operationId, tags/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', changed: { summary: '' } }] }, /endpoints\[0\]\.changed\.summary must be a text \(got \)/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', changed: { operationId: 7 } }] }, /endpoints\[0\]\.changed\.operationId must be a text \(got 7\)/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', changed: { tags: 'orders' } }] }, /endpoints\[0\]\.changed\.tags must be an array of texts/],
    [{ description: 'x', endpoints: [{ method: 'GET', url: '/a', changed: { tags: [''] } }] }, /endpoints\[0\]\.changed\.tags must be an array of texts/],
    [{ description: 'x', fields: [7] }, /fields\[0\] must be \{ schema, field, renamedFrom \| added \| removed \| changed \}/],
    [{ description: 'x', fields: [{ schema: 7, field: 'a', added: true }] }, /fields\[0\]\.schema must be a schema object or the \$id of a shared schema \(got 7\)/],
    [{ description: 'x', fields: [{ schema: '', field: 'a', added: true }] }, /fields\[0\]\.schema must be/],
    [{ description: 'x', fields: [{ schema: Order, field: '', added: true }] }, /fields\[0\]\.field must be the field's name, as this version names it/],
    [{ description: 'x', fields: [{ schema: Order, field: 'id' }] }, /fields\[0\] must say one of renamedFrom, added, removed and changed \(got none\)/],
    [{ description: 'x', fields: [{ schema: Order, field: 'id', added: true, renamedFrom: 'x' }] }, /\(got renamedFrom, added\)/],
    [{ description: 'x', fields: [{ schema: Order, field: 'id', renamedFrom: 7 }] }, /fields\[0\]\.renamedFrom must be the name older versions give the field/],
    [{ description: 'x', fields: [{ schema: Order, field: 'id', renamedFrom: 'id' }] }, /fields\[0\]\.renamedFrom is the field's own name, "id": nothing was renamed/],
    [{ description: 'x', fields: [{ schema: Order, field: 'id', added: false }] }, /fields\[0\]\.added must be true/],
    [{ description: 'x', fields: [{ schema: Order, field: 'old', removed: true }] }, /fields\[0\]\.removed must be \{ schema, required\? \}: the schema older versions gave the field/],
    [{ description: 'x', fields: [{ schema: Order, field: 'old', removed: { schema: 'string' } }] }, /fields\[0\]\.removed must be/],
    [{ description: 'x', fields: [{ schema: Order, field: 'old', removed: { schema: {}, required: 'yes' } }] }, /fields\[0\]\.removed\.required must be a boolean/],
    [{ description: 'x', fields: [{ schema: Order, field: 'id', changed: {} }] }, /fields\[0\]\.changed must be \{ schema\?, required\? \} with one of them at least/],
    [{ description: 'x', fields: [{ schema: Order, field: 'id', changed: { schema: 'integer' } }] }, /fields\[0\]\.changed\.schema must be a schema/],
    [{ description: 'x', fields: [{ schema: Order, field: 'id', changed: { required: 1 } }] }, /fields\[0\]\.changed\.required must be a boolean/],
    [{ description: 'x', requests: [{ migrate }] }, /requests\[0\] must name a route \('POST \/orders'\) or a schema, one of them/],
    [{ description: 'x', requests: [{ route: 'POST /a', schema: Order, migrate }] }, /requests\[0\] must name a route/],
    [{ description: 'x', requests: [{ route: 'POST /a' }] }, /requests\[0\]\.migrate must be a function \(got undefined\)/],
    [{ description: 'x', requests: ['POST /a'] }, /requests\[0\] must be \{ route or schema, migrate \}/],
    [{ description: 'x', requests: [{ route: '/a', migrate }] }, /requests\[0\]\.route must be a method and the route's URL as declared, such as 'POST \/orders' \(got \/a\)/],
    [{ description: 'x', responses: [{ route: 'GET a', migrate }] }, /responses\[0\]\.route must be a method and the route's URL/],
    [{ description: 'x', responses: [{ route: 7, migrate }] }, /responses\[0\]\.route must be a method and the route's URL as declared, such as 'POST \/orders' \(got 7\)/],
    [{ description: 'x', responses: [{ schema: Order, migrate: 'x' }] }, /responses\[0\]\.migrate must be a function \(got x\)/],
    [{ description: 'x', responses: [{ schema: Order, errors: 1, migrate }] }, /responses\[0\]\.errors must be a boolean/],
    // eslint-disable-next-line no-sparse-arrays
    [{ description: 'x', fields: [, { schema: Order, field: 'id', added: true }] }, /fields\[0\] must be/]
  ]
  for (const [options, message] of cases) {
    t.throws(() => versionChange(options as never), { name: 'TypeError', code: 'FST_API_VERSIONING_INVALID_OPTION', message }, String(message))
  }
})
