import t from 'tap'
import type { FastifySchema, HTTPMethods } from 'fastify'
import { Type, type TSchema } from '@sinclair/typebox'
import { allProblems, buildDocs } from './openapi-helpers.js'
import { compareVersions } from '../../lib/changes/compare-versions.js'
import type { ChangesContext } from '../../lib/changes/changes-context.js'
import type { OpenApiDocument } from '../../lib/changes/document.js'

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
const text = (constraints: Record<string, unknown>) => ({ type: 'string', ...constraints })
const number = (constraints: Record<string, unknown>) => ({ type: 'integer', ...constraints })
const closed = (schema: object) => ({ ...schema, additionalProperties: false })
// TypeBox's enum: a union of literals (`{ anyOf: [{ const: 'a', type: 'string' }, ...] }`).
const literals = (...values: string[]) => Type.Union(values.map(value => Type.Literal(value)))
const secured = (...security: Array<Record<string, string[]>>): Side => ({ schema: { security } })
const withHeaders = (headers: Record<string, unknown>, schema: object = string) => ({ ...schema, headers })
// A map of stock by warehouse (TypeBox's Record: `patternProperties`, documented as `additionalProperties`).
const stock = (...names: string[]) => object({ stock: Type.Record(Type.String(), Type.Object(Object.fromEntries(names.map(name => [name, Type.Integer()])))) })
const tuple = (...items: TSchema[]) => object({ t: Type.Tuple(items) })
// A schema with a definition of its own, an object of one property `v`.
const withDefs = (v: object, properties: Record<string, unknown>) => ({ ...object(properties), $defs: { Amount: object({ v }) } })

const rows: Row[] = [
  // Parameters: what a client of 1.0 sends.
  { rule: 'a required parameter added', v1: query({}), v2: query({ q: string }, ['q']), breaking: true, changes: ['required query parameter `q` added'] },
  { rule: 'an optional parameter added', v1: query({}), v2: query({ q: string }), breaking: false, changes: ['query parameter `q` added'] },
  { rule: 'a parameter removed (the server now ignores or refuses it)', v1: query({ q: string }), v2: query({}), breaking: true, changes: ['query parameter `q` removed'] },
  { rule: 'a parameter newly required', v1: query({ q: string }), v2: query({ q: string }, ['q']), breaking: true, changes: ['query parameter `q` newly required'] },
  { rule: 'a parameter no longer required', v1: query({ q: string }, ['q']), v2: query({ q: string }), breaking: false, changes: ['query parameter `q` no longer required'] },
  { rule: "a parameter's type changed", v1: query({ q: integer }), v2: query({ q: { type: 'array', items: integer } }), breaking: true, changes: ['query parameter `q`: type changed from `integer` to `array`'] },
  { rule: 'a parameter that takes more: any text where a number was (its value is text)', v1: query({ q: integer }), v2: query({ q: string }), breaking: false, changes: ['query parameter `q`: type changed from `integer` to `string`'] },
  { rule: 'a parameter made a text of some texts only (an enum, a format, a pattern): another type', v1: query({ a: integer, b: integer, c: integer }), v2: query({ a: { type: 'string', enum: ['x'] }, b: { type: 'string', format: 'uuid' }, c: text({ pattern: '^[a-z]+$' }) }), breaking: true, changes: ['query parameter `a`: type changed from `integer` to `string`', 'query parameter `b`: type changed from `integer` to `string`', 'query parameter `c`: type changed from `integer` to `string`'], details: [true, true, true] },
  { rule: 'a parameter that takes fewer: a number where any text was', v1: query({ q: string }), v2: query({ q: { type: 'number' } }), breaking: true, changes: ['query parameter `q`: type changed from `string` to `number`'] },
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

  // Maps: the schema of their values (`additionalProperties`) is compared as a property's, at `name.*`.
  { rule: "a property removed from a response map's values (TypeBox Record)", v1: ok200(stock('onHand', 'reserved')), v2: ok200(stock('onHand')), breaking: true, changes: ['response 200: property `stock.*.reserved` removed'] },
  { rule: "a property removed from a request map's values", v1: body(stock('onHand', 'reserved')), v2: body(stock('onHand')), breaking: true, changes: ['request body: property `stock.*.reserved` removed'] },
  { rule: "a property added to a response map's values", v1: ok200(stock('onHand')), v2: ok200(stock('onHand', 'reserved')), breaking: false, changes: ['response 200: required property `stock.*.reserved` added'] },
  { rule: "a response map's values may be more (integer to number)", v1: ok200(Type.Record(Type.String(), Type.Integer())), v2: ok200(Type.Record(Type.String(), Type.Number())), breaking: true, changes: ['response 200: type of `*` changed from `integer` to `number`'] },
  { rule: "a request map's values typed where any were taken", v1: body(object({ m: { type: 'object' } })), v2: body(object({ m: { type: 'object', additionalProperties: integer } })), breaking: true, changes: ['request body: type of `m.*` changed from any to `integer`'] },
  { rule: "a response map's values no longer typed", v1: ok200(object({ m: { type: 'object', additionalProperties: integer } })), v2: ok200(object({ m: { type: 'object' } })), breaking: true, changes: ['response 200: type of `m.*` changed from `integer` to any'] },
  { rule: 'a response map closed: no values, which is a constraint', v1: ok200(object({ m: { type: 'object', additionalProperties: integer } })), v2: ok200(object({ m: closed({ type: 'object' }) })), breaking: false, changes: ['response 200: `additionalProperties` of `m` set to `false`'] },

  // Tuples (TypeBox's Tuple: `items` as a list, `additionalItems: false`): each item by its position, at `name[i]`.
  { rule: "a response tuple's item of another type", v1: ok200(tuple(Type.String(), Type.Integer())), v2: ok200(tuple(Type.String(), Type.String())), breaking: true, changes: ['response 200: type of `t[1]` changed from `integer` to `string`'] },
  { rule: "a request tuple's item of another type", v1: body(tuple(Type.String(), Type.Integer())), v2: body(tuple(Type.String(), Type.String())), breaking: true, changes: ['request body: type of `t[1]` changed from `integer` to `string`'] },
  {
    rule: 'a response tuple gains an item: longer than it promised',
    v1: ok200(tuple(Type.String(), Type.Integer())),
    v2: ok200(tuple(Type.String(), Type.Integer(), Type.Boolean())),
    breaking: true,
    changes: ['response 200: `maxItems` of `t` raised from `2` to `3`', 'response 200: item `t[2]` added', 'response 200: `minItems` of `t` raised from `2` to `3`'],
    details: [true, true, false]
  },
  {
    rule: 'a request tuple gains an item, required (minItems)',
    v1: body(tuple(Type.String(), Type.Integer())),
    v2: body(tuple(Type.String(), Type.Integer(), Type.Boolean())),
    breaking: true,
    changes: ['request body: `minItems` of `t` raised from `2` to `3`', 'request body: `maxItems` of `t` raised from `2` to `3`', 'request body: item `t[2]` added'],
    details: [true, false, false]
  },
  { rule: 'a request tuple gains an optional item', v1: body(object({ t: { type: 'array', items: [string], additionalItems: false } })), v2: body(object({ t: { type: 'array', items: [string, integer], additionalItems: false } })), breaking: false, changes: ['request body: item `t[1]` added'] },
  {
    rule: 'a request tuple loses an item: the client still sends it',
    v1: body(tuple(Type.String(), Type.Integer())),
    v2: body(tuple(Type.String())),
    breaking: true,
    changes: ['request body: `maxItems` of `t` lowered from `2` to `1`', 'request body: item `t[1]` removed', 'request body: `minItems` of `t` lowered from `2` to `1`'],
    details: [true, true, false]
  },
  { rule: 'a response tuple open to more items', v1: ok200(object({ t: { type: 'array', items: [string], additionalItems: false } })), v2: ok200(object({ t: { type: 'array', items: [string] } })), breaking: true, changes: ['response 200: item `t[]` added'] },
  { rule: 'a request tuple closed to more items', v1: body(object({ t: { type: 'array', items: [string], additionalItems: integer } })), v2: body(object({ t: { type: 'array', items: [string], additionalItems: false } })), breaking: true, changes: ['request body: item `t[]` removed'] },
  { rule: 'a tuple in an allOf part', v1: ok200(object({ t: { allOf: [Type.Tuple([Type.String(), Type.Integer()])] } })), v2: ok200(object({ t: { allOf: [Type.Tuple([Type.String(), Type.String()])] } })), breaking: true, changes: ['response 200: type of `t[1]` changed from `integer` to `string`'] },
  { rule: 'an array of items of one schema made a tuple', v1: body(object({ t: { type: 'array', items: string } })), v2: body(object({ t: { type: 'array', items: [string, integer] } })), breaking: true, changes: ['request body: type of `t[1]` changed from `string` to `integer`', 'request body: type of `t[]` changed from `string` to any'], details: [true, false] },

  // A `default` response: what Fastify answers any status without its own schema with, 200 too.
  { rule: 'a default response where no 2xx is documented is the success response: its property removed', v1: { schema: { response: { default: object({ id: integer, email: string }) } } }, v2: { schema: { response: { default: object({ id: integer }) } } }, breaking: true, changes: ['response default: property `email` removed'] },
  { rule: 'a default response beside a 2xx answers errors: its property removed', v1: { schema: { response: { 200: string, default: object({ why: string }) } } }, v2: { schema: { response: { 200: string, default: object({}) } } }, breaking: false, changes: ['response default: property `why` removed'] },
  {
    rule: 'a 2xx given a schema of its own where the default answered it: compared with that default',
    v1: { schema: { response: { default: object({ id: integer, email: string }) } } },
    v2: { schema: { response: { 200: object({ id: integer }), default: object({ id: integer, email: string }) } } },
    breaking: true,
    changes: ['response 200: property `email` removed', 'response 200 added'],
    details: [true, false]
  },
  { rule: "a 2xx range (Fastify's `2xx`, OpenAPI's `2XX`) is a success response", v1: { schema: { response: { '2xx': object({ total: integer }) } } }, v2: { schema: { response: { '2xx': object({}) } } }, breaking: true, changes: ['response 2XX: property `total` removed'] },

  // What two allOf parts both say: both hold.
  { rule: 'one property in two allOf parts: both compared', v1: ok200({ allOf: [object({ s: text({ maxLength: 10 }) }), object({ s: string })] }), v2: ok200({ allOf: [object({ s: text({ maxLength: 20 }) }), object({ s: string })] }), breaking: true, changes: ['response 200: `maxLength` of `s` raised from `10` to `20`'] },
  { rule: 'two allOf parts with an enum each: the values both allow', v1: body(object({ s: { allOf: [{ type: 'string', enum: ['a', 'b', 'c'] }, { enum: ['b', 'c'] }] } })), v2: body(object({ s: { allOf: [{ type: 'string', enum: ['a', 'b', 'c'] }, { enum: ['c'] }] } })), breaking: true, changes: ['request body: value `"b"` removed from the enum of `s`'] },
  { rule: 'two allOf parts with a union each: the second said, not judged', v1: ok200({ allOf: [{ anyOf: [object({ a: string }), object({ b: string })] }, { anyOf: [object({ c: string }), object({ d: string })] }] }), v2: ok200({ allOf: [{ anyOf: [object({ a: string }), object({ b: string })] }, { anyOf: [object({ c: string }), object({ d: integer })] }] }), breaking: false, changes: ['response 200: changed (not judged): `allOf`'] },
  { rule: 'two tuples in allOf parts: each position both, past one\'s own its further items', v1: ok200(object({ t: { allOf: [{ type: 'array', items: [string, integer], additionalItems: false }, { type: 'array', items: [string], additionalItems: integer }] } })), v2: ok200(object({ t: { allOf: [{ type: 'array', items: [string, integer] }, { type: 'array', items: [string], additionalItems: number({ maximum: 5 }) }] } })), breaking: true, changes: ['response 200: item `t[]` added', 'response 200: `maximum` of `t[1]` set to `5`'], details: [true, false] },
  { rule: 'two tuples in allOf parts, the longer second', v1: ok200(object({ t: { allOf: [{ type: 'array', items: [string], additionalItems: integer }, { type: 'array', items: [string, integer], additionalItems: false }] } })), v2: ok200(object({ t: { allOf: [{ type: 'array', items: [string], additionalItems: number({ maximum: 5 }) }, { type: 'array', items: [string, integer] }] } })), breaking: true, changes: ['response 200: item `t[]` added', 'response 200: `maximum` of `t[1]` set to `5`'], details: [true, false] },
  { rule: 'map values in two allOf parts', v1: body({ allOf: [{ type: 'object', additionalProperties: object({ a: integer }) }, { type: 'object', additionalProperties: object({ b: integer }) }] }), v2: body({ allOf: [{ type: 'object', additionalProperties: object({ a: integer }) }, { type: 'object', additionalProperties: object({}) }] }), breaking: true, changes: ['request body: property `*.b` removed'] },

  // Properties beside a union: compared as any schema's.
  { rule: 'a response property removed beside a union', v1: ok200({ type: 'object', properties: { a: string, total: integer }, anyOf: [{ required: ['a'] }, { required: ['total'] }] }), v2: ok200({ type: 'object', properties: { a: string }, anyOf: [{ required: ['a'] }, { required: ['total'] }] }), breaking: true, changes: ['response 200: property `total` removed'] },

  // Other responses: said, never breaking.
  { rule: 'an error status removed', v1: { schema: { response: { 200: string, 409: object({ why: string }) } } }, v2: ok200(string), breaking: true, changes: ['response 409 removed'] },
  { rule: 'an error status changed (404 to 410): the client handles 404', v1: { schema: { response: { 200: string, 404: object({ why: string }) } } }, v2: { schema: { response: { 200: string, 410: object({ why: string }) } } }, breaking: true, changes: ['response 404 removed', 'response 410 added'], details: [true, false] },
  { rule: "an error response's property removed", v1: { schema: { response: { 200: string, 409: object({ why: string }) } } }, v2: { schema: { response: { 200: string, 409: object({}) } } }, breaking: false, changes: ['response 409: property `why` removed'] },
  { rule: "an error response's media type removed", v1: { schema: { response: { 409: { content: { 'application/json': { schema: string }, 'text/plain': { schema: string } } } } } }, v2: { schema: { response: { 409: { content: { 'application/json': { schema: string } } } } } }, breaking: false, changes: ['response 409: media type `text/plain` removed'] },

  // TypeBox enums: a union of single values of one type is an enum, compared value by value.
  { rule: 'a value added to a request enum of TypeBox literals', v1: body(object({ s: literals('a', 'b') })), v2: body(object({ s: literals('a', 'b', 'c') })), breaking: false, changes: ['request body: value `"c"` added to the enum of `s`'] },
  { rule: 'a value removed from a request enum of TypeBox literals', v1: body(object({ s: literals('a', 'b') })), v2: body(object({ s: literals('a') })), breaking: true, changes: ['request body: value `"b"` removed from the enum of `s`'] },
  { rule: 'a value added to a response enum of TypeBox literals', v1: ok200(object({ s: literals('open') })), v2: ok200(object({ s: literals('open', 'held') })), breaking: true, changes: ['response 200: value `"held"` added to the enum of `s`'] },
  { rule: 'a response enum of TypeBox literals that may now be null', v1: ok200(object({ s: literals('a', 'b') })), v2: ok200(object({ s: Type.Union([Type.Literal('a'), Type.Literal('b'), Type.Null()]) })), breaking: true, changes: ['response 200: type of `s` changed from `string` to `string | null`'] },
  { rule: 'TypeBox literals and an enum of the same values: the same', v1: ok200(object({ s: literals('a', 'b') })), v2: ok200(object({ s: { type: 'string', enum: ['b', 'a'] } })), changes: [] },
  { rule: 'literals of several types stay a union', v1: body(object({ s: Type.Union([Type.Literal('a'), Type.Literal(1)]) })), v2: body(object({ s: Type.Union([Type.Literal('a'), Type.Literal(1), Type.Literal(2)]) })), breaking: true, changes: ['request body: schema of `s` changed'] },

  // Constraints: a request's tightened breaks a client sending what it took; a success response's loosened, one
  // reading what it promised.
  { rule: "a request property's maxLength lowered", v1: body(object({ name: text({ maxLength: 100 }) })), v2: body(object({ name: text({ maxLength: 50 }) })), breaking: true, changes: ['request body: `maxLength` of `name` lowered from `100` to `50`'] },
  { rule: "a request property's maxLength raised", v1: body(object({ name: text({ maxLength: 50 }) })), v2: body(object({ name: text({ maxLength: 100 }) })), breaking: false, changes: ['request body: `maxLength` of `name` raised from `50` to `100`'] },
  { rule: "a parameter's minLength set", v1: query({ q: string }), v2: query({ q: text({ minLength: 3 }) }), breaking: true, changes: ['query parameter `q`: `minLength` set to `3`'] },
  { rule: "a parameter's minimum removed", v1: query({ n: number({ minimum: 1 }) }), v2: query({ n: integer }), breaking: false, changes: ['query parameter `n`: `minimum` removed (was `1`)'] },
  { rule: "a parameter's minimum raised", v1: query({ n: number({ minimum: 1 }) }), v2: query({ n: number({ minimum: 2 }) }), breaking: true, changes: ['query parameter `n`: `minimum` raised from `1` to `2`'] },
  { rule: 'exclusive bounds, as numbers (OpenAPI 3.1)', v1: body(object({ n: number({ exclusiveMinimum: 0, exclusiveMaximum: 10 }) })), v2: body(object({ n: number({ exclusiveMinimum: 1, exclusiveMaximum: 20 }) })), breaking: true, changes: ['request body: `exclusiveMinimum` of `n` raised from `0` to `1`', 'request body: `exclusiveMaximum` of `n` raised from `10` to `20`'], details: [true, false] },
  { rule: "a request property's pattern set", v1: body(object({ code: string })), v2: body(object({ code: text({ pattern: '^[a-z]+$' }) })), breaking: true, changes: ['request body: `pattern` of `code` set to `^[a-z]+$`'] },
  { rule: "a request property's pattern changed: tighter or looser cannot be told", v1: body(object({ code: text({ pattern: '^[a-z]+$' }) })), v2: body(object({ code: text({ pattern: '^[a-z0-9]+$' }) })), breaking: true, changes: ['request body: `pattern` of `code` changed from `^[a-z]+$` to `^[a-z0-9]+$`'] },
  { rule: "a request property's pattern removed", v1: body(object({ code: text({ pattern: '^[a-z]+$' }) })), v2: body(object({ code: string })), breaking: false, changes: ['request body: `pattern` of `code` removed (was `^[a-z]+$`)'] },
  { rule: "a request property's format set", v1: body(object({ email: string })), v2: body(object({ email: text({ format: 'email' }) })), breaking: true, changes: ['request body: `format` of `email` set to `email`'] },
  { rule: "a request property's format changed", v1: body(object({ at: text({ format: 'date' }) })), v2: body(object({ at: text({ format: 'date-time' }) })), breaking: true, changes: ['request body: `format` of `at` changed from `date` to `date-time`'] },
  { rule: "a request property's multipleOf changed", v1: body(object({ n: number({ multipleOf: 2 }) })), v2: body(object({ n: number({ multipleOf: 3 }) })), breaking: true, changes: ['request body: `multipleOf` of `n` changed from `2` to `3`'] },
  { rule: "a request array's minItems raised and its items made unique", v1: body(object({ tags: { type: 'array', items: string, minItems: 1 } })), v2: body(object({ tags: { type: 'array', items: string, minItems: 2, uniqueItems: true } })), breaking: true, changes: ['request body: `minItems` of `tags` raised from `1` to `2`', 'request body: `uniqueItems` of `tags` set to `true`'], details: [true, true] },
  { rule: "a request object's minProperties set, maxProperties lowered", v1: body(object({ meta: { type: 'object', maxProperties: 10 } })), v2: body(object({ meta: { type: 'object', maxProperties: 5, minProperties: 1 } })), breaking: true, changes: ['request body: `minProperties` of `meta` set to `1`', 'request body: `maxProperties` of `meta` lowered from `10` to `5`'], details: [true, true] },
  { rule: 'two allOf parts bound one keyword: the tighter holds', v1: body(object({ name: { allOf: [text({ minLength: 1, maxLength: 10 }), text({ minLength: 2, maxLength: 8 })] } })), v2: body(object({ name: { allOf: [text({ minLength: 1, maxLength: 10 }), text({ minLength: 3, maxLength: 6 })] } })), breaking: true, changes: ['request body: `minLength` of `name` raised from `2` to `3`', 'request body: `maxLength` of `name` lowered from `8` to `6`'], details: [true, true] },
  { rule: 'two allOf parts with a pattern each: both, as a whole', v1: ok200(object({ code: { allOf: [text({ pattern: '^a', format: 'email' }), text({ pattern: 'b$', format: 'email' })] } })), v2: ok200(object({ code: { allOf: [text({ pattern: '^a', format: 'email' }), text({ pattern: 'c$', format: 'email' })] } })), breaking: true, changes: ['response 200: `pattern` of `code` changed from `["^a","b$"]` to `["^a","c$"]`'] },
  { rule: 'a keyword no rule reads, in two allOf parts', v1: body(object({ code: { allOf: [text({ not: { const: 'x' } }), text({ not: { const: 'y' } })] } })), v2: body(object({ code: { allOf: [text({ not: { const: 'x' } }), text({ not: { const: 'z' } })] } })), breaking: false, changes: ['request body: changed (not judged): `not` of `code`'] },
  { rule: "a union's own constraint", v1: ok200(object({ x: { anyOf: [object({ a: string }), object({ b: string })], maxProperties: 3 } })), v2: ok200(object({ x: { anyOf: [object({ a: string }), object({ b: string })], maxProperties: 5 } })), breaking: true, changes: ['response 200: `maxProperties` of `x` raised from `3` to `5`'] },
  { rule: 'a name required without a schema of its own', v1: body({ type: 'object' }), v2: body({ type: 'object', required: ['token'] }), breaking: true, changes: ['request body: property `token` newly required'] },
  { rule: 'a constraint of an allOf part', v1: body(object({ name: { allOf: [string, text({ maxLength: 10 })] } })), v2: body(object({ name: { allOf: [string, text({ maxLength: 5 })] } })), breaking: true, changes: ['request body: `maxLength` of `name` lowered from `10` to `5`'] },
  { rule: "a response property's maxLength raised (it may be longer)", v1: ok200(object({ name: text({ maxLength: 50 }) })), v2: ok200(object({ name: text({ maxLength: 100 }) })), breaking: true, changes: ['response 200: `maxLength` of `name` raised from `50` to `100`'] },
  { rule: "a response property's maxLength lowered", v1: ok200(object({ name: text({ maxLength: 100 }) })), v2: ok200(object({ name: text({ maxLength: 50 }) })), breaking: false, changes: ['response 200: `maxLength` of `name` lowered from `100` to `50`'] },
  { rule: "a response property's format removed", v1: ok200(object({ at: text({ format: 'date-time' }) })), v2: ok200(object({ at: string })), breaking: true, changes: ['response 200: `format` of `at` removed (was `date-time`)'] },
  { rule: "a response property's format set", v1: ok200(object({ at: string })), v2: ok200(object({ at: text({ format: 'date-time' }) })), breaking: false, changes: ['response 200: `format` of `at` set to `date-time`'] },
  { rule: "a response property's pattern changed", v1: ok200(object({ code: text({ pattern: '^a' }) })), v2: ok200(object({ code: text({ pattern: '^b' }) })), breaking: true, changes: ['response 200: `pattern` of `code` changed from `^a` to `^b`'] },
  { rule: "a response array's items no longer unique", v1: ok200({ type: 'array', items: string, uniqueItems: true }), v2: ok200({ type: 'array', items: string }), breaking: true, changes: ['response 200: `uniqueItems` removed (was `true`)'] },
  { rule: "an error response's constraint loosened", v1: { schema: { response: { 200: string, 409: object({ why: text({ maxLength: 10 }) }) } } }, v2: { schema: { response: { 200: string, 409: object({ why: text({ maxLength: 20 }) }) } } }, breaking: false, changes: ['response 409: `maxLength` of `why` raised from `10` to `20`'] },
  { rule: "an array's items typed where any were taken", v1: body(object({ tags: { type: 'array' } })), v2: body(object({ tags: { type: 'array', items: string } })), breaking: true, changes: ['request body: type of `tags[]` changed from any to `string`'] },

  // Closed bodies: `additionalProperties: false`.
  { rule: 'a request body closed (other properties are dropped, or refused)', v1: body(object({ n: integer })), v2: body(closed(object({ n: integer }))), breaking: true, changes: ['request body: `additionalProperties` set to `false`'] },
  { rule: 'a request body opened', v1: body(closed(object({ n: integer }))), v2: body(object({ n: integer })), breaking: false, changes: ['request body: `additionalProperties` removed (was `false`)'] },
  { rule: 'a request object closed inside the body (TypeBox)', v1: body(Type.Object({ address: Type.Object({ city: Type.String() }) })), v2: body(Type.Object({ address: Type.Object({ city: Type.String() }, { additionalProperties: false }) })), breaking: true, changes: ['request body: `additionalProperties` of `address` set to `false`'] },
  { rule: 'a success body closed: it sends no more than it listed', v1: ok200(object({ n: integer })), v2: ok200(closed(object({ n: integer }))), breaking: false, changes: ['response 200: `additionalProperties` set to `false`'] },
  { rule: 'a success body opened: it may send what it promised not to', v1: ok200(closed(object({ n: integer }))), v2: ok200(object({ n: integer })), breaking: true, changes: ['response 200: `additionalProperties` removed (was `false`)'] },

  // Security requirements: what a client of 1.0 sends to be let in.
  { rule: 'a security requirement where there was none', v1: {}, v2: secured({ bearer: [] }), breaking: true, changes: ['security requirement `bearer` added'] },
  { rule: 'security requirements removed', v1: secured({ bearer: [] }), v2: {}, breaking: false, changes: ['security requirement `bearer` removed'] },
  { rule: 'a security requirement replaced', v1: secured({ bearer: [] }), v2: secured({ apiKey: [] }), breaking: true, changes: ['security requirement `bearer` removed', 'security requirement `apiKey` added'], details: [true, false] },
  { rule: 'another security requirement that will do', v1: secured({ bearer: [] }), v2: secured({ bearer: [] }, { apiKey: [] }), breaking: false, changes: ['security requirement `apiKey` added'] },
  { rule: 'two schemes needed where one was', v1: secured({ bearer: [] }), v2: secured({ bearer: [], apiKey: [] }), breaking: true, changes: ['security requirement `bearer` removed', 'security requirement `apiKey + bearer` added'], details: [true, false] },
  { rule: 'more scopes needed', v1: secured({ oauth: ['read'] }), v2: secured({ oauth: ['write', 'read'] }), breaking: true, changes: ['security requirement `oauth (read)` removed', 'security requirement `oauth (read, write)` added'], details: [true, false] },
  { rule: 'no credentials no longer enough', v1: secured({}, { bearer: [] }), v2: secured({ bearer: [] }), breaking: true, changes: ['security requirement `{}` removed'] },
  { rule: 'the same requirements in another order', v1: secured({ bearer: [] }, { oauth: ['a', 'b'] }), v2: secured({ oauth: ['b', 'a'] }, { bearer: [] }), changes: [] },

  // Response headers.
  { rule: "a success response's header removed", v1: ok200(withHeaders({ 'X-Rate': integer })), v2: ok200(string), breaking: true, changes: ['response 200: header `X-Rate` removed'] },
  { rule: "a success response's header added", v1: ok200(string), v2: ok200(withHeaders({ 'X-Rate': integer })), breaking: false, changes: ['response 200: header `X-Rate` added'] },
  { rule: "a success response's header of another type, its name in any case", v1: ok200(withHeaders({ 'X-Rate': integer })), v2: ok200(withHeaders({ 'x-rate': string })), breaking: true, changes: ['response 200: header `x-rate`: type changed from `integer` to `string`'] },
  { rule: "a success response's header may be longer", v1: ok200(withHeaders({ 'X-Id': text({ maxLength: 8 }) })), v2: ok200(withHeaders({ 'X-Id': text({ maxLength: 16 }) })), breaking: true, changes: ['response 200: header `X-Id`: `maxLength` raised from `8` to `16`'] },
  { rule: "an error response's header removed", v1: { schema: { response: { 200: string, 409: withHeaders({ 'X-Why': string }) } } }, v2: { schema: { response: { 200: string, 409: string } } }, breaking: false, changes: ['response 409: header `X-Why` removed'] },

  // What no rule judges is said all the same; what only documents is no change.
  { rule: 'a default changed: said, not judged', v1: query({ page: number({ default: 1 }) }), v2: query({ page: number({ default: 0 }) }), breaking: false, changes: ['query parameter `page`: changed (not judged): `default`'] },
  { rule: 'keywords no rule reads, beside one it does', v1: ok200(object({ s: { type: 'string', not: { enum: ['x'] } }, t: string })), v2: ok200(object({ s: { type: 'string', not: { enum: ['y'] }, readOnly: true } })), breaking: true, changes: ['response 200: property `t` removed', 'response 200: changed (not judged): `not`, `readOnly` of `s`'], details: [true, false] },
  {
    rule: 'documentation only: summaries, descriptions, examples, operationIds, tags',
    v1: { schema: { summary: 'One', description: 'The first', operationId: 'one', tags: ['a'], querystring: object({ q: { type: 'string', description: 'A query', examples: ['x'] } }), response: { 200: { description: 'It', type: 'string', title: 'It', examples: ['a'] } } } },
    v2: { schema: { summary: 'Two', description: 'The second', operationId: 'two', tags: ['b'], querystring: object({ q: { type: 'string', description: 'The query', examples: ['y'] } }), response: { 200: { description: 'That', type: 'string', title: 'That', examples: ['b'] } } } },
    changes: []
  },

  // A schema's own definitions, which its `$ref`s name from its root (as Fastify validates it), where the document
  // keeps them: in a property, in an item, and draft-07's `definitions`.
  { rule: 'a definition a request names from its root, changed', v1: body(withDefs(string, { a: { $ref: '#/$defs/Amount' } })), v2: body(withDefs(integer, { a: { $ref: '#/$defs/Amount' } })), breaking: true, changes: ['request body: type of `a.v` changed from `string` to `integer`'] },
  { rule: "a definition a response's items name, changed", v1: ok200({ type: 'array', definitions: { Line: object({ sku: string }) }, items: { $ref: '#/definitions/Line' } }), v2: ok200({ type: 'array', definitions: { Line: object({}) }, items: { $ref: '#/definitions/Line' } }), breaking: true, changes: ['response 200: property `[].sku` removed'] },
  // A property whose schema is `false` takes no value: a property no client may send, and no server sends.
  { rule: 'a request property that takes no value any more', v1: body(object({ note: string })), v2: body(object({ note: false })), breaking: true, changes: ['request body: property `note` removed'] },
  { rule: 'a response property an allOf part gives no value', v1: ok200(object({ password: string })), v2: ok200({ allOf: [object({ password: string }), { properties: { password: false } }] }), breaking: true, changes: ['response 200: property `password` removed'] },
  { rule: 'a response property that takes a value now', v1: ok200(object({ note: false })), v2: ok200(object({ note: string })), breaking: false, changes: ['response 200: property `note` added'] },

  // Unions and parts.
  { rule: 'a union of plain types narrowed', v1: ok200(object({ id: { anyOf: [integer, string] } })), v2: ok200(object({ id: { oneOf: [string] } })), breaking: false, changes: ['response 200: type of `id` changed from `integer | string` to `string`'] },
  { rule: 'a union of objects, compared alternative by alternative', v1: ok200({ anyOf: [object({ a: string }), object({ b: string })] }), v2: ok200({ anyOf: [object({ a: string }), object({ b: integer })] }), breaking: true, changes: ['response 200: type of `b` changed from `string` to `integer`'] },
  { rule: 'a union with another number of alternatives', v1: ok200(object({ x: { oneOf: [object({ a: string }), object({ b: string })] } })), v2: ok200(object({ x: object({ a: string }) })), breaking: true, changes: ['response 200: schema of `x` changed'] },
  { rule: 'allOf parts of two types: the values both take', v1: body(object({ n: { type: ['string', 'null'] } })), v2: body(object({ n: { allOf: [{ type: ['string', 'null'] }, string] } })), breaking: true, changes: ['request body: type of `n` changed from `string | null` to `string`'] },
  { rule: 'allOf parts of a number and an integer: an integer', v1: body(object({ n: integer })), v2: body(object({ n: { allOf: [{ type: 'number' }, integer] } })), changes: [] },
  { rule: 'allOf parts of types no value has both: no value (a client sending one is refused)', v1: body(object({ n: string })), v2: body(object({ n: { allOf: [string, integer] } })), breaking: true, changes: ['request body: type of `n` changed from `string` to `never`'] },
  { rule: 'a type beside a union of types: the values both take', v1: body(object({ n: string })), v2: body(object({ n: { type: 'string', anyOf: [string, integer] } })), changes: [] },
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
  const securitySchemes = { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' }, oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://example.com/token', scopes: { read: 'Read', write: 'Write', a: 'A', b: 'B' } } } } }
  const app = await buildDocs({ problemDetails: true }, { openapi: { openapi: '3.1.0', components: { securitySchemes } } }, app => {
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

t.test('JSON Schema 2020-12 forms a transformObject writes: patternProperties by pattern, prefixItems by position; schemas no rule reads said', async t => {
  // Fastify's own schemas are draft-07 (and @fastify/swagger writes a Record's pattern as additionalProperties).
  const schemas = (version: string) => version === '1.0'
    ? {
        m: { type: 'object', patternProperties: { '^[a-z]+$': object({ a: integer, b: integer }), '^x-': string } },
        n: { allOf: [{ type: 'object', patternProperties: { '^a': object({ a: integer }) } }, { patternProperties: { '^a': object({ b: integer }) } }] },
        p: { type: 'array', prefixItems: [string, integer], items: false },
        q: { type: 'array', contains: string, not: string, if: string, then: string, else: integer, propertyNames: string, dependentSchemas: { a: string }, unevaluatedItems: string, unevaluatedProperties: string }
      }
    : {
        m: { type: 'object', patternProperties: { '^[a-z]+$': object({ a: integer }), '^y-': string } },
        n: { allOf: [{ type: 'object', patternProperties: { '^a': object({ a: integer }) } }, { patternProperties: { '^a': object({}) } }] },
        p: { type: 'array', prefixItems: [string, string, { type: 'boolean' }], items: false },
        q: { type: 'array', contains: integer, not: integer, if: integer, then: integer, else: string, propertyNames: integer, dependentSchemas: { a: integer }, unevaluatedItems: integer, unevaluatedProperties: integer }
      }
  const app = await buildDocs({ problemDetails: true }, {
    openapi: { openapi: '3.1.0' },
    transformObject: ({ document, version }) => {
      const responses = { 200: { description: 'Forms', content: { 'application/json': { schema: object(schemas(version)) } } } }
      return { ...document, paths: { ...document.paths, '/forms': { get: { responses } } } }
    }
  }, app => { app.get('/a', { apiVersions: ['1.0', '2.0'] }, async () => null) })
  const [changes] = app.apiVersionChanges()
  const found = changes.changed.find(c => c.operation === 'GET /forms')
  t.same(found?.details, [
    { change: 'response 200: property `m./^[a-z]+$/.b` removed', breaking: true },
    { change: 'response 200: pattern property `m./^x-/` removed', breaking: true },
    { change: 'response 200: pattern property `m./^y-/` added', breaking: true },
    { change: 'response 200: property `n./^a/.b` removed', breaking: true },
    { change: 'response 200: type of `p[1]` changed from `integer` to `string`', breaking: true },
    { change: 'response 200: item `p[2]` added', breaking: true },
    { change: 'response 200: changed (not judged): `contains`, `dependentSchemas`, `else`, `if`, `not`, `propertyNames`, `then`, `unevaluatedItems`, `unevaluatedProperties` of `q`', breaking: false }
  ])
})

t.test("OpenAPI 3.0's nullable adds null to the types a schema names; alone (an allOf part) it names none, and adds nothing", async t => {
  const context: ChangesContext = { versionParameters: new Set(), versionHeaders: new Set(), mediaType: null, templates: [], segmentName: null, renames: [], hidden: [] }
  const documentOf = (schema: unknown): OpenApiDocument => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'A', content: { 'application/json': { schema } } } } } } } })
  const changes = (v1: unknown, v2: unknown) => compareVersions([{ version: '1.0', deprecated: false, document: documentOf(v1) }, { version: '2.0', deprecated: false, document: documentOf(v2) }], context, true)[0].changed.flatMap(c => c.notes.map(n => n.text))
  const order = object({ a: string })
  t.same(changes(order, { allOf: [order, { nullable: true }] }), [], 'an allOf part')
  t.same(changes(order, { allOf: [order], nullable: true }), ['response 200: type changed from `object` to `object | null`'], "beside allOf, its parts' types")
})
