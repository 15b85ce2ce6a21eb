import t from 'tap'
import { Type } from '@sinclair/typebox'
import { typesOf, typesText, within } from '../../lib/version-changes/json-types.js'

const none = (): undefined => undefined
const shared: Record<string, unknown> = { Text: { $id: 'Text', type: 'string' }, Loop: { $id: 'Loop', $ref: 'Loop' } }
const lookup = (id: string): unknown => shared[id]

t.test('the JSON types a schema admits, as its keywords say them', async t => {
  const rows: Array<[unknown, string[] | null]> = [
    [{ type: 'string' }, ['string']],
    [{ type: ['string', 'null', 1] }, ['string', 'null']],
    [{ const: 3 }, ['integer']],
    [{ const: 1.5 }, ['number']],
    [{ enum: ['a', null, [1], { b: 1 }, true] }, ['string', 'null', 'array', 'object', 'boolean']],
    [Type.Union([Type.Literal('open'), Type.Literal('shipped')]), ['string']],
    [{ oneOf: [{ type: 'integer' }, { type: 'string' }] }, ['integer', 'string']],
    [{ anyOf: [{ type: 'integer' }, {}] }, null],
    [{ $ref: 'Text' }, ['string']],
    [{ $ref: 'Nowhere' }, null],
    [{ $ref: 'Loop' }, null],
    [{ description: 'anything' }, null],
    [true, null],
    [false, []]
  ]
  for (const [schema, types] of rows) t.same(typesOf(schema, lookup) === null ? null : [...typesOf(schema, lookup) as Set<string>], types, JSON.stringify(schema))
  t.equal(typesOf({ $ref: 'Text' }, none), null, 'a shared schema not known')
})

t.test('whether one set of types is within another: an integer is a number; nothing said is any type', async t => {
  const set = (...types: string[]) => new Set(types)
  t.ok(within(set('integer'), set('number')))
  t.notOk(within(set('number'), set('integer')))
  t.ok(within(set('string'), null))
  t.notOk(within(null, set('string')))
  t.ok(within(set(), set('string')))
  t.notOk(within(set('string', 'null'), set('string')))
  t.equal(typesText(null), 'any type')
  t.equal(typesText(set('string', 'null')), 'string or null')
  t.equal(typesText(set()), 'no value')
})
