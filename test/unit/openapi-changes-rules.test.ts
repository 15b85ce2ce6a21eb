import t from 'tap'
import type { FastifySchema, HTTPMethods } from 'fastify'
import { allProblems, buildDocs } from './openapi-helpers.js'

// The rules of apiVersionChanges(), one row each: a route in version 1.0 and its successor in 2.0, and what a
// client of 1.0 is told. A row's `breaking` is whether that client can break; `changes` are the sentences, and
// `details` the verdict of each where there are several (one change's is the row's).
interface Side { schema?: FastifySchema, method?: HTTPMethods, url?: string }
interface Row { rule: string, v1: Side, v2: Side, breaking?: boolean, changes: string[], details?: boolean[] }

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required })
const body = (schema: unknown): Side => ({ method: 'POST', schema: { body: schema } })
const query = (properties: Record<string, unknown>, required: string[] = []): Side => ({ schema: { querystring: object(properties, required) } })
const ok200 = (schema: unknown): Side => ({ schema: { response: { 200: schema } } })
const string = { type: 'string' }
const integer = { type: 'integer' }

const rows: Row[] = [
  // Parameters: what a client of 1.0 sends.
  { rule: 'a required parameter added', v1: query({}), v2: query({ q: string }, ['q']), breaking: true, changes: ['required query parameter `q` added'] },
  { rule: 'an optional parameter added', v1: query({}), v2: query({ q: string }), breaking: false, changes: ['query parameter `q` added'] },
  { rule: 'a parameter removed (the server now ignores or refuses it)', v1: query({ q: string }), v2: query({}), breaking: true, changes: ['query parameter `q` removed'] },
  { rule: 'a parameter newly required', v1: query({ q: string }), v2: query({ q: string }, ['q']), breaking: true, changes: ['query parameter `q` newly required'] },
  { rule: 'a parameter no longer required', v1: query({ q: string }, ['q']), v2: query({ q: string }), breaking: false, changes: ['query parameter `q` no longer required'] },
  { rule: "a parameter's type changed", v1: query({ q: integer }), v2: query({ q: string }), breaking: true, changes: ['query parameter `q`: type changed from `integer` to `string`'] },
  { rule: "a parameter's enum value removed", v1: query({ q: { type: 'string', enum: ['a', 'b'] } }), v2: query({ q: { type: 'string', enum: ['a'] } }), breaking: true, changes: ['query parameter `q`: value `"b"` removed from the enum'] },
  { rule: "a parameter's enum value added", v1: query({ q: { type: 'string', enum: ['a'] } }), v2: query({ q: { type: 'string', enum: ['a', 'c'] } }), breaking: false, changes: ['query parameter `q`: value `"c"` added to the enum'] },
  { rule: 'a header parameter, by its name in any case', v1: { schema: { headers: object({ 'X-Tenant': string }) } }, v2: { schema: { headers: object({ 'x-tenant': integer }) } }, breaking: true, changes: ['header parameter `x-tenant`: type changed from `string` to `integer`'] },
  { rule: 'a path parameter renamed (the path is the same)', v1: { url: '/items/:id' }, v2: { url: '/items/:itemId' }, breaking: false, changes: ['path parameter `id` renamed to `itemId`'] },

  // A request body: what a client of 1.0 sends.
  // A body validates: Fastify's validation error is documented as the 400 it can answer, or is no longer.
  { rule: 'a required request body added', v1: { method: 'POST' }, v2: body(object({ n: integer })), breaking: true, changes: ['required request body added', 'response 400: media type `application/json` added'], details: [true, false] },
  { rule: 'a request body removed', v1: body(object({ n: integer })), v2: { method: 'POST' }, breaking: true, changes: ['request body removed', 'response 400: media type `application/json` removed'], details: [true, false] },
  { rule: 'a required request property added', v1: body(object({})), v2: body(object({ note: string }, ['note'])), breaking: true, changes: ['request body: required property `note` added'] },
  { rule: 'an optional request property added', v1: body(object({})), v2: body(object({ note: string })), breaking: false, changes: ['request body: property `note` added'] },
  { rule: 'a request property removed (the server now ignores or refuses it)', v1: body(object({ note: string })), v2: body(object({})), breaking: true, changes: ['request body: property `note` removed'] },
  { rule: 'a request property newly required', v1: body(object({ note: string })), v2: body(object({ note: string }, ['note'])), breaking: true, changes: ['request body: property `note` newly required'] },
  { rule: 'a request property no longer required', v1: body(object({ note: string }, ['note'])), v2: body(object({ note: string })), breaking: false, changes: ['request body: property `note` no longer required'] },
  { rule: "a request property's type changed", v1: body(object({ n: integer })), v2: body(object({ n: string })), breaking: true, changes: ['request body: type of `n` changed from `integer` to `string`'] },
  { rule: 'a request property takes more (integer to number)', v1: body(object({ n: integer })), v2: body(object({ n: { type: 'number' } })), breaking: false, changes: ['request body: type of `n` changed from `integer` to `number`'] },
  { rule: 'a request property takes fewer types', v1: body(object({ n: { type: 'number' } })), v2: body(object({ n: integer })), breaking: true, changes: ['request body: type of `n` changed from `number` to `integer`'] },
  { rule: 'a request property takes null too (a union with null)', v1: body(object({ n: string })), v2: body(object({ n: { anyOf: [string, { type: 'null' }] } })), breaking: false, changes: ['request body: type of `n` changed from `string` to `string | null`'] },
  { rule: 'a request property of any type now typed', v1: body(object({ n: {} })), v2: body(object({ n: string })), breaking: true, changes: ['request body: type of `n` changed from any to `string`'] },
  { rule: "a request property's enum value removed (a client sending it breaks)", v1: body(object({ s: { type: 'string', enum: ['new', 'old'] } })), v2: body(object({ s: { type: 'string', enum: ['new'] } })), breaking: true, changes: ['request body: value `"old"` removed from the enum of `s`'] },
  { rule: "a request property's enum value added", v1: body(object({ s: { type: 'string', enum: ['new'] } })), v2: body(object({ s: { type: 'string', enum: ['new', 'rush'] } })), breaking: false, changes: ['request body: value `"rush"` added to the enum of `s`'] },
  { rule: 'a request property restricted to values', v1: body(object({ s: string })), v2: body(object({ s: { type: 'string', enum: ['a', 'b'] } })), breaking: true, changes: ['request body: values of `s` restricted to `"a"`, `"b"`'] },
  { rule: 'a request property no longer restricted to values', v1: body(object({ s: { type: 'string', enum: ['a'] } })), v2: body(object({ s: string })), breaking: false, changes: ['request body: values of `s` no longer restricted'] },
  {
    rule: 'a request media type added, one changed: the media type named where there are several',
    v1: body({ content: { 'application/json': { schema: object({ n: integer }) } } }),
    v2: body({ content: { 'application/json': { schema: object({ n: string }) }, 'text/plain': { schema: string } } }),
    breaking: true,
    changes: ['request body (`application/json`): type of `n` changed from `integer` to `string`', 'request body: media type `text/plain` added'],
    details: [true, false]
  },
  { rule: 'a request media type removed', v1: body({ content: { 'application/json': { schema: object({}) }, 'text/plain': { schema: string } } }), v2: body({ content: { 'application/json': { schema: object({}) } } }), breaking: true, changes: ['request body: media type `text/plain` removed'] },

  // A success response: what a client of 1.0 reads.
  { rule: 'a response property removed', v1: ok200(object({ total: integer })), v2: ok200(object({})), breaking: true, changes: ['response 200: property `total` removed'] },
  { rule: 'a response property added', v1: ok200(object({})), v2: ok200(object({ total: integer })), breaking: false, changes: ['response 200: property `total` added'] },
  { rule: 'a required response property added', v1: ok200(object({})), v2: ok200(object({ total: integer }, ['total'])), breaking: false, changes: ['response 200: required property `total` added'] },
  { rule: 'a response property no longer required (it may be absent)', v1: ok200(object({ total: integer }, ['total'])), v2: ok200(object({ total: integer })), breaking: true, changes: ['response 200: property `total` no longer required'] },
  { rule: 'a response property newly required', v1: ok200(object({ total: integer })), v2: ok200(object({ total: integer }, ['total'])), breaking: false, changes: ['response 200: property `total` newly required'] },
  { rule: "a response property's type changed", v1: ok200(object({ total: integer })), v2: ok200(object({ total: string })), breaking: true, changes: ['response 200: type of `total` changed from `integer` to `string`'] },
  { rule: 'a response property may be more (integer to number)', v1: ok200(object({ total: integer })), v2: ok200(object({ total: { type: 'number' } })), breaking: true, changes: ['response 200: type of `total` changed from `integer` to `number`'] },
  { rule: 'a response property is never null any more', v1: ok200(object({ total: { type: ['integer', 'null'] } })), v2: ok200(object({ total: integer })), breaking: false, changes: ['response 200: type of `total` changed from `integer | null` to `integer`'] },
  { rule: 'a response property of another kind: nothing said of what it held', v1: ok200(object({ a: object({ b: string }) })), v2: ok200(object({ a: string })), breaking: true, changes: ['response 200: type of `a` changed from `object` to `string`'] },
  { rule: "a response property's enum value added (a client may not expect it)", v1: ok200(object({ s: { type: 'string', enum: ['open'] } })), v2: ok200(object({ s: { type: 'string', enum: ['open', 'held'] } })), breaking: true, changes: ['response 200: value `"held"` added to the enum of `s`'] },
  { rule: "a response property's enum value removed", v1: ok200(object({ s: { type: 'string', enum: ['open', 'held'] } })), v2: ok200(object({ s: { type: 'string', enum: ['open'] } })), breaking: false, changes: ['response 200: value `"held"` removed from the enum of `s`'] },
  { rule: 'a response property restricted to values', v1: ok200(object({ s: string })), v2: ok200(object({ s: { type: 'string', enum: ['open'] } })), breaking: false, changes: ['response 200: values of `s` restricted to `"open"`'] },
  { rule: 'a response property no longer restricted to values', v1: ok200(object({ s: { type: 'string', enum: ['open'] } })), v2: ok200(object({ s: string })), breaking: true, changes: ['response 200: values of `s` no longer restricted'] },
  { rule: "a response constant changed (TypeBox's Literal)", v1: ok200(object({ status: { type: 'string', const: 'ok' } })), v2: ok200(object({ status: { type: 'string', const: 'fine' } })), breaking: true, changes: ['response 200: value `"fine"` added to the enum of `status`', 'response 200: value `"ok"` removed from the enum of `status`'], details: [true, false] },
  { rule: 'a property deep in arrays: its path with dots and []', v1: ok200(object({ items: { type: 'array', items: object({ total: integer, n: integer }) } })), v2: ok200(object({ items: { type: 'array', items: object({ n: integer }) } })), breaking: true, changes: ['response 200: property `items[].total` removed'] },
  { rule: 'the items of a top-level array', v1: ok200({ type: 'array', items: string }), v2: ok200({ type: 'array', items: object({ id: integer }) }), breaking: true, changes: ['response 200: type of `[]` changed from `string` to `object`'] },
  { rule: 'a response body of another type', v1: ok200(string), v2: ok200(integer), breaking: true, changes: ['response 200: type changed from `string` to `integer`'] },
  { rule: 'a success status added', v1: ok200(string), v2: { schema: { response: { 200: string, 202: string } } }, breaking: false, changes: ['response 202 added'] },
  { rule: 'a success status removed', v1: { schema: { response: { 200: string, 202: string } } }, v2: ok200(string), breaking: true, changes: ['response 202 removed'] },
  { rule: 'a success media type removed', v1: ok200({ content: { 'application/json': { schema: string }, 'text/csv': { schema: string } } }), v2: ok200({ content: { 'application/json': { schema: string } } }), breaking: true, changes: ['response 200: media type `text/csv` removed'] },
  { rule: 'a success media type added', v1: ok200({ content: { 'application/json': { schema: string } } }), v2: ok200({ content: { 'application/json': { schema: string }, 'text/csv': { schema: string } } }), breaking: false, changes: ['response 200: media type `text/csv` added'] },

  // Other responses: said, never breaking.
  { rule: 'an error status removed', v1: { schema: { response: { 200: string, 409: object({ why: string }) } } }, v2: ok200(string), breaking: false, changes: ['response 409 removed'] },
  { rule: "an error response's property removed", v1: { schema: { response: { 200: string, 409: object({ why: string }) } } }, v2: { schema: { response: { 200: string, 409: object({}) } } }, breaking: false, changes: ['response 409: property `why` removed'] },
  { rule: "an error response's media type removed", v1: { schema: { response: { 409: { content: { 'application/json': { schema: string }, 'text/plain': { schema: string } } } } } }, v2: { schema: { response: { 409: { content: { 'application/json': { schema: string } } } } } }, breaking: false, changes: ['response 409: media type `text/plain` removed'] },

  // Unions and parts.
  { rule: 'a union of plain types narrowed', v1: ok200(object({ id: { anyOf: [integer, string] } })), v2: ok200(object({ id: { oneOf: [string] } })), breaking: false, changes: ['response 200: type of `id` changed from `integer | string` to `string`'] },
  { rule: 'a union of objects, compared alternative by alternative', v1: ok200({ anyOf: [object({ a: string }), object({ b: string })] }), v2: ok200({ anyOf: [object({ a: string }), object({ b: integer })] }), breaking: true, changes: ['response 200: type of `b` changed from `string` to `integer`'] },
  { rule: 'a union with another number of alternatives', v1: ok200(object({ x: { oneOf: [object({ a: string }), object({ b: string })] } })), v2: ok200(object({ x: object({ a: string }) })), breaking: true, changes: ['response 200: schema of `x` changed'] },
  { rule: 'parts of an allOf, added up', v1: ok200({ allOf: [object({ a: string }), object({ total: integer }, ['total'])] }), v2: ok200({ allOf: [object({ a: string })] }), breaking: true, changes: ['response 200: property `total` removed'] },

  // Names as the schemas have them, written as code whatever they hold.
  { rule: 'names with backticks', v1: ok200(object({ 'we`ird': string })), v2: ok200(object({ '`edge': string })), breaking: true, changes: ['response 200: property ``we`ird`` removed', 'response 200: property `` `edge `` added'], details: [true, false] },
  { rule: 'names with control characters, which would end a list item', v1: ok200(object({})), v2: ok200(object({ 'two\nlines\t': string })), breaking: false, changes: ['response 200: property `two\\nlines\\t` added'] },

  // The same route in both versions: no change.
  { rule: 'no change', v1: { method: 'POST', schema: { querystring: object({ q: string }), body: object({ n: integer }), response: { 200: object({ a: { type: 'array', items: string } }) } } }, v2: { method: 'POST', schema: { querystring: object({ q: string }), body: object({ n: integer }), response: { 200: object({ a: { type: 'array', items: string } }) } } }, changes: [] }
]

t.test('a row of several changes gives the verdict of each', async t => {
  for (const row of rows.filter(row => row.changes.length > 1)) t.equal(row.details?.length, row.changes.length, row.rule)
})

t.test('each rule of apiVersionChanges(): what changed from 1.0 to 2.0, and whether a client of 1.0 can break', async t => {
  const app = await buildDocs({ problemDetails: true }, { openapi: { openapi: '3.1.0' } }, app => {
    rows.forEach((row, i) => {
      for (const [version, side] of [['1.0', row.v1], ['2.0', row.v2]] as const) {
        app.route({ method: side.method ?? 'GET', url: `/rule${i}${side.url ?? ''}`, apiVersions: version, schema: side.schema, handler: async () => null })
      }
    })
  })
  const [changes] = app.apiVersionChanges()
  t.same([changes.from, changes.to, changes.added, changes.removed, changes.deprecated], ['1.0', '2.0', [], [], []])
  rows.forEach((row, i) => {
    const operation = `${row.v2.method ?? 'GET'} /rule${i}${(row.v2.url ?? '').replace(/:(\w+)/g, '{$1}')}`
    const found = changes.changed.find(c => c.operation === operation)
    const details = row.changes.map((change, i) => ({ change, breaking: row.details?.[i] ?? row.breaking }))
    t.same(found, row.changes.length === 0 ? undefined : { operation, breaking: row.breaking, changes: row.changes, details }, row.rule)
  })
  t.equal(changes.changed.length, rows.filter(row => row.changes.length > 0).length, 'no other operation changed')
  t.same(await allProblems(app), [], 'the documents stay valid')
})
