import t from 'tap'
import type { OpenApiDocument } from '../../lib/changes/document.js'
import { hoistedDefinitions } from '../../lib/openapi/hoisted-definitions.js'

const AT = '#/paths/~1a/get/responses/200/content/application~1json/schema'
const documentOf = (openapi: string, schema: unknown, schemas?: Record<string, unknown>): OpenApiDocument => ({
  openapi,
  info: { title: 't', version: '1' },
  paths: { '/a': { get: { responses: { 200: { description: 'A', content: { 'application/json': { schema } } } } } } },
  ...schemas === undefined ? {} : { components: { schemas } }
})
const schemaOf = (document: OpenApiDocument): any => (document.paths['/a'].get as any).responses[200].content['application/json'].schema

t.test("an OpenAPI 3.0 document's schemas with $defs: each definition a component, the refs to and into it written so", async t => {
  const schema = {
    type: 'object',
    $defs: { Line: { type: 'object', $defs: { Sku: { type: 'string' } }, properties: { sku: { $ref: `${AT}/$defs/Line/$defs/Sku` } } }, Order: { type: 'integer' } },
    properties: { other: { $ref: '#/components/schemas/Order' }, line: { $ref: `${AT}/$defs/Line` }, sku: { $ref: `${AT}/$defs/Line/properties/sku` }, order: { $ref: `${AT}/$defs/Order` }, both: { allOf: [{ $ref: `${AT}/$defs/Order` }] }, $defs: { type: 'string' } },
    example: { $defs: { kept: 'data' } }
  }
  const given = documentOf('3.0.3', schema, { Order: { type: 'string' } })
  const before = structuredClone(given)
  const hoisted = hoistedDefinitions(given)
  t.same(schemaOf(hoisted), {
    type: 'object',
    properties: { other: { $ref: '#/components/schemas/Order' }, line: { $ref: '#/components/schemas/Line' }, sku: { $ref: '#/components/schemas/Line/properties/sku' }, order: { $ref: '#/components/schemas/Order2' }, both: { allOf: [{ $ref: '#/components/schemas/Order2' }] }, $defs: { type: 'string' } },
    example: { $defs: { kept: 'data' } }
  }, 'a property named $defs, and data, as they are')
  t.same(hoisted.components?.schemas, {
    Order: { type: 'string' },
    Line: { type: 'object', properties: { sku: { $ref: '#/components/schemas/Sku' } } },
    Order2: { type: 'integer' },
    Sku: { type: 'string' }
  }, "a name a component has already: a number added; a definition's own definitions, components too")
  t.same(given, before, 'the document given is left as it is')
})

t.test("a component's own definitions, names a 3.0 component may not have, and refs written percent-encoded", async t => {
  const node = { type: 'object', $defs: { 'Order line': { type: 'object', properties: { 'unit price': { type: 'number' } } } }, properties: { line: { $ref: '#/components/schemas/Node/$defs/Order%20line' }, price: { $ref: '#/components/schemas/Node/$defs/Order%20line/properties/unit%20price' } } }
  const hoisted = hoistedDefinitions(documentOf('3.0.3', { $ref: '#/components/schemas/Node' }, { Node: node }))
  t.same(hoisted.components?.schemas, {
    Node: { type: 'object', properties: { line: { $ref: '#/components/schemas/Order_line' }, price: { $ref: '#/components/schemas/Order_line/properties/unit%20price' } } },
    Order_line: { type: 'object', properties: { 'unit price': { type: 'number' } } }
  })
  const odd = documentOf('3.0.3', { $defs: { A: {} }, properties: { a: { $ref: '#/$defs/%ZZ' }, b: { $ref: 'other.json#/$defs/A' } } })
  t.same(schemaOf(hoistedDefinitions(odd)).properties, { a: { $ref: '#/$defs/%ZZ' }, b: { $ref: 'other.json#/$defs/A' } }, 'a malformed one, or another document\'s, as it is')
})

t.test('a document of OpenAPI 3.1, or without $defs, as it is', async t => {
  const withDefs = documentOf('3.1.0', { $defs: { A: {} }, items: { $ref: `${AT}/$defs/A` } })
  t.equal(hoistedDefinitions(withDefs), withDefs)
  const plain = documentOf('3.0.3', { type: 'string' })
  t.equal(hoistedDefinitions(plain), plain)
  t.same(hoistedDefinitions(documentOf('3.0.3', { $defs: { A: {} } })).components, { schemas: { A: {} } }, 'a document without components gets them')
})

t.test("a discriminator's mapping: its refs into definitions written as the refs are, anything else as it is", async t => {
  const schema = { $defs: { Dog: { type: 'object' } }, oneOf: [{ $ref: `${AT}/$defs/Dog` }], discriminator: { propertyName: 'kind', mapping: { dog: `${AT}/$defs/Dog`, odd: 7 } } }
  t.same(schemaOf(hoistedDefinitions(documentOf('3.0.3', schema))), { oneOf: [{ $ref: '#/components/schemas/Dog' }], discriminator: { propertyName: 'kind', mapping: { dog: '#/components/schemas/Dog', odd: 7 } } })
})
