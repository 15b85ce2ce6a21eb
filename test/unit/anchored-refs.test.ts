import t from 'tap'
import Fastify from 'fastify'
import apiVersioning from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'
import { allProblems } from './openapi-helpers.js'
import { anchored } from '../../lib/changes/anchored-refs.js'
import { compareVersions } from '../../lib/changes/compare-versions.js'
import type { ChangesContext } from '../../lib/changes/changes-context.js'
import type { OpenApiDocument } from '../../lib/changes/document.js'
import { withOwnDefinitions as withDefs } from '../../lib/openapi/own-definitions.js'

const MEDIA = ['paths', '/a', 'get', 'responses', '200', 'content', 'application/json', 'schema']
const AT = '#/paths/~1a/get/responses/200/content/application~1json/schema'
const documentOf = (schema: unknown, schemas: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: { '/a': { get: { responses: { 200: { description: 'A', content: { 'application/json': { schema } } } } } } },
  components: { schemas }
})
const anchoredDocument = (document: OpenApiDocument): OpenApiDocument => anchored(document).document
const at = (document: unknown, keys: readonly string[]): any => keys.reduce<any>((node, key) => node[key], document)

// Each row: a response schema, and the refs it has once anchored, by where they are in it.
const rows: Array<{ rule: string, schema: unknown, schemas?: Record<string, unknown>, refs: Record<string, string> }> = [
  { rule: "a ref to the schema's own $defs", schema: { $defs: { A: { type: 'string' } }, properties: { a: { $ref: '#/$defs/A' } } }, refs: { 'properties/a': `${AT}/$defs/A` } },
  { rule: 'a ref to the schema itself (a recursive schema)', schema: { properties: { next: { $ref: '#' } } }, refs: { 'properties/next': AT } },
  { rule: 'a ref in a list (items of anyOf)', schema: { $defs: { A: {} }, anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] }, refs: { 'anyOf/0': `${AT}/$defs/A` } },
  { rule: 'a ref from the root of a subschema with an $id of its own', schema: { properties: { b: { $id: 'B', $defs: { C: {} }, items: { $ref: '#/$defs/C' } } } }, refs: { 'properties/b/items': `${AT}/properties/b/$defs/C` } },
  { rule: 'a ref the document resolves: as it is', schema: { $ref: '#/components/schemas/Order' }, schemas: { Order: {} }, refs: { '': '#/components/schemas/Order' } },
  { rule: 'a ref neither resolves: as it is', schema: { properties: { a: { $ref: '#/$defs/Missing' } } }, refs: { 'properties/a': '#/$defs/Missing' } },
  { rule: "another document's ref: as it is", schema: { properties: { a: { $ref: 'other.json#/A' } } }, refs: { 'properties/a': 'other.json#/A' } },
  { rule: 'a $ref in data (an enum, a default, examples): a value', schema: { $defs: { A: {} }, enum: [{ $ref: '#/$defs/A' }], default: { $ref: '#/$defs/A' } }, refs: { 'enum/0': '#/$defs/A', default: '#/$defs/A' } },
  { rule: 'a property named as a keyword of data is (default, enum, const, example): a schema', schema: { $defs: { A: {} }, properties: { default: { $ref: '#/$defs/A' }, enum: { $ref: '#/$defs/A' }, const: { properties: { example: { $ref: '#/$defs/A' } } } } }, refs: { 'properties/default': `${AT}/$defs/A`, 'properties/enum': `${AT}/$defs/A`, 'properties/const/properties/example': `${AT}/$defs/A` } }
]

t.test("a schema's refs to its own places, written from the document's root", async t => {
  for (const row of rows) {
    const given = documentOf(row.schema, row.schemas)
    const before = structuredClone(given)
    const anchored = anchoredDocument(given)
    const refs = Object.fromEntries(Object.keys(row.refs).map(path => [path, at(anchored, [...MEDIA, ...path.split('/').filter(Boolean)]).$ref]))
    t.same(refs, row.refs, row.rule)
    t.same(given, before, `${row.rule}: the document given is left as it is`)
  }
  const plain = documentOf({ type: 'string' })
  t.equal(anchoredDocument(plain), plain, 'nothing to anchor: the document itself')
  // A components schema is a schema of its own.
  const component = anchoredDocument(documentOf({ $ref: '#/components/schemas/Order' }, { Order: { $defs: { L: {} }, items: { $ref: '#/$defs/L' } } }))
  t.equal((component.components?.schemas?.Order as any).items.$ref, '#/components/schemas/Order/$defs/L')
})

t.test("the catch-all response (`default`) is a response: its schema's refs anchored, its dangling ones found", async t => {
  const withDefault = (schema: unknown, schemas: Record<string, unknown> = {}): OpenApiDocument => ({ ...documentOf({}, schemas), paths: { '/a': { get: { responses: { default: { description: 'A', content: { 'application/json': { schema } } } } } } } })
  const result = anchored(withDefault({ $defs: { A: {} }, properties: { a: { $ref: '#/$defs/A' } } }))
  t.equal(at(result.document, ['paths', '/a', 'get', 'responses', 'default', 'content', 'application/json', 'schema', 'properties', 'a']).$ref, '#/paths/~1a/get/responses/default/content/application~1json/schema/$defs/A')
  t.same(anchored(withDefault({ $ref: '#/components/schemas/Missing' })).dangling, ['#/components/schemas/Missing'])
  // A webhook, a response header, a component named as a keyword of data is.
  const hooked: OpenApiDocument = { ...documentOf({}), webhooks: { example: { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Hook' } } } } } } } }
  t.same(anchored(hooked).dangling, ['#/components/schemas/Hook'])
  const headed = withDefault({}, {})
  ;(headed.paths['/a'].get as any).responses.default.headers = { enum: { schema: { $ref: '#/components/schemas/Header' } } }
  t.same(anchored(headed).dangling, ['#/components/schemas/Header'])
  t.same(anchored(withDefault({ $ref: '#/components/schemas/default' }, { default: { items: { $ref: '#/components/schemas/Gone' } } })).dangling, ['#/components/schemas/Gone'])
})

t.test('a document deeper than the call stack goes is anchored all the same', async t => {
  let schema: Record<string, unknown> = { $ref: '#/$defs/A' }
  for (let i = 0; i < 20_000; i++) schema = { items: schema }
  const anchored = anchoredDocument(documentOf({ ...schema, $defs: { A: {} } }))
  let node = at(anchored, MEDIA)
  while (node.items !== undefined) node = node.items
  t.equal(node.$ref, `${AT}/$defs/A`)
})

t.test("a saved document with a schema's own refs compares with today's, anchored, as the same", async t => {
  const context: ChangesContext = { versionParameters: new Set(), versionHeaders: new Set(), mediaType: null, templates: [], segmentName: null, renames: [], hidden: [] }
  const saved = documentOf({ $defs: { A: { type: 'string' } }, properties: { a: { $ref: '#/$defs/A' } } })
  const served = (type: string) => anchoredDocument(documentOf({ $defs: { A: { type } }, properties: { a: { $ref: '#/$defs/A' } } }))
  const changes = (now: OpenApiDocument) => compareVersions([{ version: '1.0', deprecated: false, document: saved }, { version: '1.0', deprecated: false, document: now }], context, true)[0].changed
  t.same(changes(served('string')), [])
  t.same(changes(served('integer')).map(c => c.notes.map(n => [n.text, n.breaking])), [[['response 200: type of `a` changed from `string` to `integer`', true]]])
})

t.test("draft-07's definitions, as $defs, for @fastify/swagger to keep", async t => {
  const plain = { body: { type: 'object', $defs: { A: {} } } }
  t.equal(withDefs(plain), plain, 'none: the schema itself')
  const given = {
    body: { type: 'object', definitions: { Line: { type: 'string' } }, $defs: { Other: {} }, properties: { l: { $ref: '#/definitions/Line' }, o: { $ref: '#/$defs/Other' } }, enum: [{ definitions: {} }] },
    response: { 200: { type: 'array', items: [{ $ref: '#/definitions/Line' }], definitions: { Line: { type: 'integer' } } } }
  }
  const before = structuredClone(given)
  t.same(withDefs(given), {
    body: { type: 'object', $defs: { Line: { type: 'string' }, Other: {} }, properties: { l: { $ref: '#/$defs/Line' }, o: { $ref: '#/$defs/Other' } }, enum: [{ definitions: {} }] },
    response: { 200: { type: 'array', items: [{ $ref: '#/$defs/Line' }], $defs: { Line: { type: 'integer' } } } }
  })
  t.same(given, before, "the route's own schema is left as it is")
  const named = { body: { type: 'object', properties: { definitions: { type: 'array', definitions: { S: {} }, items: { $ref: '#/definitions/S' } } }, required: ['definitions'] }, response: { default: { definitions: { E: {} }, $ref: '#/definitions/E' } } }
  t.same(withDefs(named), {
    body: { type: 'object', properties: { definitions: { type: 'array', $defs: { S: {} }, items: { $ref: '#/$defs/S' } } }, required: ['definitions'] },
    response: { default: { $defs: { E: {} }, allOf: [{ $ref: '#/$defs/E' }] } }
  }, 'a property named definitions is a property; the catch-all response is a response')
  const shared: Record<string, unknown> = { type: 'string' }
  const twice = { querystring: { properties: { a: shared, b: shared } }, body: { definitions: { X: {} } } }
  t.same(withDefs(twice).querystring, { properties: { a: { type: 'string' }, b: { type: 'string' } } }, 'a schema used twice is read twice')
})

t.test("a subschema with an $id of its own whose refs name its own places: documented in place, its refs from the body's or response's root", async t => {
  const own = { $id: 'http://example.com/b', type: 'object', $defs: { C: { type: 'string' } }, properties: { c: { $ref: '#/$defs/C' }, self: { $ref: '#' } } }
  const given = { body: { type: 'object', properties: { b: own, plain: { $id: 'Plain', type: 'string' } } }, response: { 200: { content: { 'application/json': { schema: { type: 'array', items: own } } } } } }
  const before = structuredClone(given)
  const documented = { type: 'object', $defs: { C: { type: 'string' } }, properties: { c: { $ref: '#/properties/b/$defs/C' }, self: { $ref: '#/properties/b' } } }
  t.same(withDefs(given), {
    body: { type: 'object', properties: { b: documented, plain: { $id: 'Plain', type: 'string' } } },
    response: { 200: { content: { 'application/json': { schema: { type: 'array', items: { ...documented, properties: { c: { $ref: '#/items/$defs/C' }, self: { $ref: '#/items' } } } } } } } }
  }, 'its $id left out (@fastify/swagger would make it a component without its $defs); one without refs of its own as it is')
  t.same(given, before, "the route's own schema is left as it is")
  const nested = { body: { properties: { a: { $id: 'A', properties: { b: { $id: 'B', $defs: { X: {} }, items: { $ref: '#/$defs/X' } } }, items: { $ref: 'A#/properties/b' } } } } }
  t.same(withDefs(nested), { body: { properties: { a: { $id: 'A', properties: { b: { $defs: { X: {} }, items: { $ref: '#/properties/a/properties/b/$defs/X' } } }, items: { $ref: 'A#/properties/b' } } } } }, "an $id inside another's: its own refs from the root; the outer one's refs name no place of its own")
  const root = { body: { $id: 'Root', $defs: { X: {} }, items: { $ref: '#/$defs/X' } }, response: { 200: { content: { 'text/plain': { schema: { type: 'string' } }, 'text/csv': 'not a media type' } }, 201: 'not a schema' } }
  t.equal(withDefs(root), root, 'an $id at the root: its refs are read from the root already')
  const inList = { body: { items: { $id: 'L', anyOf: [{ $ref: '#/$defs/X' }, { type: 'null' }], $defs: { X: {} } } } }
  t.same(withDefs(inList), { body: { items: { anyOf: [{ $ref: '#/items/$defs/X' }, { type: 'null' }], $defs: { X: {} } } } }, 'its refs in a list')
  t.equal(withDefs('no schema'), 'no schema')
})

t.test("such a subschema's refs that name no place of its own, or a subschema another ref names by its $id, as they are; a query string's from each property", async t => {
  const own = (extra: Record<string, unknown>) => ({ $id: 'B', $defs: { C: {} }, properties: { c: { $ref: '#/$defs/C' }, ...extra } })
  t.same(withDefs({ body: { properties: { b: own({ anchor: { $ref: '#c' }, order: { $ref: '#/components/schemas/Order' } }) } } }), {
    body: { properties: { b: { $defs: { C: {} }, properties: { c: { $ref: '#/properties/b/$defs/C' }, anchor: { $ref: '#c' }, order: { $ref: '#/components/schemas/Order' } } } } }
  }, 'an anchor, a component')
  const byId = { body: { properties: { b: own({}), again: { $ref: 'B' } } } }
  t.equal(withDefs(byId), byId, 'named by its $id elsewhere: kept, as a ref to it would name nothing')
  t.same(withDefs({ querystring: { type: 'object', properties: { f: own({}), g: { properties: { h: own({}) } } } } }), {
    querystring: { type: 'object', properties: { f: { $id: 'B', $defs: { C: {} }, properties: { c: { $ref: '#/$defs/C' } } }, g: { properties: { h: { $defs: { C: {} }, properties: { c: { $ref: '#/properties/h/$defs/C' } } } } } } }
  }, "a query string's property is a parameter's schema, the root of its refs")
  const plain = { params: { type: 'string' }, headers: { properties: { a: { type: 'string' } } } }
  t.equal(withDefs(plain), plain)
})

t.test('an app whose body has such a subschema: no dangling ref, and a change of its definitions is one', async t => {
  for (const openapi of ['3.0.3', '3.1.0']) {
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { warnings.push(JSON.parse(line).msg) } } } })
    const warnings: string[] = []
    await app.register(apiVersioning)
    await app.register(apiVersioningOpenApi, { openapi: { openapi } })
    const body = (type: string) => ({ type: 'object', properties: { b: { $id: 'http://example.com/b', type: 'object', $defs: { C: { type } }, properties: { c: { $ref: '#/$defs/C' } } } } })
    app.post('/b', { apiVersions: '1.0', schema: { body: body('string') } }, async () => null)
    app.post('/b', { apiVersions: '2.0', schema: { body: body('integer') } }, async () => null)
    await app.ready()
    t.same(app.apiVersionChanges()[0].changed.map(c => c.changes), [['request body: type of `b.c` changed from `string` to `integer`']], openapi)
    t.same(warnings, [], openapi)
    t.same(await allProblems(app), [], `${openapi}: valid`)
  }
})

t.test("a discriminator's mapping names its schemas by ref: written as the schema's refs are, in 3.0 and 3.1 documents", async t => {
  for (const openapi of ['3.0.3', '3.1.0']) {
    const warnings: string[] = []
    // Ajv's own discriminator takes no mapping: the keyword is the documents' alone.
    const app = Fastify({ ajv: { customOptions: { keywords: ['discriminator'] } }, logger: { level: 'warn', stream: { write: (line: string) => { warnings.push(JSON.parse(line).msg) } } } })
    await app.register(apiVersioning)
    await app.register(apiVersioningOpenApi, { openapi: { openapi } })
    const pet = (keyword: string) => ({
      type: 'object',
      [keyword]: { Dog: { type: 'object', properties: { kind: { const: 'dog' } } }, Cat: { type: 'object', properties: { kind: { const: 'cat' } } } },
      properties: {
        pet: { oneOf: [{ $ref: `#/${keyword}/Dog` }, { $ref: `#/${keyword}/Cat` }], discriminator: { propertyName: 'kind', mapping: { dog: `#/${keyword}/Dog`, cat: `#/${keyword}/Cat` } } },
        // A property so named is a schema, not a discriminator.
        discriminator: { type: 'object', properties: { mapping: { type: 'string' } } }
      }
    })
    app.post('/pets', { apiVersions: '1.0', schema: { body: pet('definitions'), response: { 200: pet('$defs') } } }, async () => null)
    await app.ready()
    const operation = (app.apiVersionDocuments()[0].document.paths['/pets'] as any).post
    for (const schema of [operation.requestBody.content['application/json'].schema, operation.responses[200].content['application/json'].schema]) {
      const { oneOf, discriminator } = schema.properties.pet
      t.same(Object.values(discriminator.mapping), oneOf.map((member: { $ref: string }) => member.$ref), openapi)
      t.same(schema.properties.discriminator, { type: 'object', properties: { mapping: { type: 'string' } } })
    }
    t.same(warnings, [], openapi)
    t.same(await allProblems(app), [], `${openapi}: valid`)
  }
})

t.test("a root that is a ref into its own definitions (zod-to-json-schema's named output): the ref one member of an allOf, so that @fastify/swagger keeps the definitions", async t => {
  const named = { $ref: '#/definitions/Order', definitions: { Order: { type: 'object', properties: { line: { $ref: '#/definitions/Line' } } }, Line: { type: 'string' } } }
  t.same(withDefs({ body: named }).body, { $defs: { Order: { type: 'object', properties: { line: { $ref: '#/$defs/Line' } } }, Line: { type: 'string' } }, allOf: [{ $ref: '#/$defs/Order' }] })
  t.same(withDefs({ body: { ...named, allOf: [{ type: 'object' }] } }).body.allOf, [{ type: 'object' }, { $ref: '#/$defs/Order' }], 'beside an allOf of its own')
  const elsewhere = { $ref: '#/components/schemas/Order', $defs: {} }
  t.equal(withDefs({ body: elsewhere }).body, elsewhere, 'a ref elsewhere: as it is')
  for (const openapi of ['3.0.3', '3.1.0']) {
    const warnings: string[] = []
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { warnings.push(JSON.parse(line).msg) } } } })
    await app.register(apiVersioning)
    await app.register(apiVersioningOpenApi, { openapi: { openapi } })
    app.post('/orders', { apiVersions: '1.0', schema: { body: named, response: { 200: named } } }, async () => null)
    await app.ready()
    t.same(warnings, [], `${openapi}: no dangling ref`)
    t.same(await allProblems(app), [], `${openapi}: valid`)
  }
})
