import t from 'tap'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type ApiVersioningOptions } from '../../lib/index.js'
import { holdsNamed } from '../../lib/version-changes/late-refs.js'

// What would be silently wrong is refused at start-up, naming the change, the version and the instruction.

const Order = Type.Object({ id: Type.Integer(), createdAt: Type.String() })
const renamed = versionChange({ description: "Orders have a 'createdAt' (it was 'created').", fields: [{ schema: Order, field: 'createdAt', renamedFrom: 'created' }] })
const list = (change = renamed): ApiVersioningOptions['versionChanges'] => [{ version: '2.0', changes: [change] }, { version: '1.0' }]

async function started (routes: (app: FastifyInstance) => void, versionChanges = list()): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges })
  routes(app)
  await app.ready()
  return app
}

t.test('a field instruction on a twin of the schema a route holds (the same shape, another object)', async t => {
  const Twin = Type.Object({ id: Type.Integer(), createdAt: Type.String() })
  await t.rejects(started(app => app.get('/orders', { versionChanges: true, schema: { response: { 200: Twin } } }, async () => ({}))), {
    code: 'FST_API_VERSIONING_INVALID_OPTION',
    message: /versionChanges: the change of 2\.0, fields\[0\], names a schema that no route declared with versionChanges: true holds, but a route holds one just like it: schemas are matched by identity, so its routes would serve every version the newest shape/
  })
  const app = await started(app => app.get('/orders', { versionChanges: true, schema: { response: { 200: Order } } }, async () => ({ id: 1, createdAt: 'x' })))
  t.same((await app.inject('/orders?api-version=1.0')).json(), { id: 1, created: 'x' }, 'the very object: served as its version has it')
})

t.test('a route without versionChanges: true that holds a changed schema, where it serves older versions the newest shape', async t => {
  const cases: Array<[string, (app: FastifyInstance) => void, RegExp]> = [
    ['unversioned', app => app.get('/admin/orders', { schema: { response: { 200: Order } } }, async () => ({})), /route GET \/admin\/orders holds a schema that the change of 2\.0, fields\[0\], changes, but declares no version, so serves every client the newest shape; declare it with versionChanges: true \(one handler for every version\), or with apiVersions: '2\.0' alone/],
    ['an older version', app => app.post('/orders', { apiVersions: ['1.0', '2.0'], schema: { body: Type.Object({ order: Order }) } }, async () => ({})), /route POST \/orders holds a schema .* but declares 1\.0, so serves 1\.0 the newest shape/],
    ['version-neutral', app => app.get('/any', { apiVersionNeutral: true, schema: { querystring: Order } }, async () => ({})), /route GET \/any holds .* but is version-neutral, so serves every version the newest shape/]
  ]
  for (const [name, routes, message] of cases) await t.rejects(started(routes), { code: 'FST_API_VERSIONING_INVALID_DECLARATION', message }, name)
  // Routes of the newest version alone, of versions the list has not, or holding nothing changed: as they are.
  const app = await started(app => {
    app.get('/newest', { apiVersions: '2.0', schema: { response: { 200: Order } } }, async () => ({ id: 1, createdAt: 'x' }))
    app.get('/other', { apiVersions: '9.0', schema: { response: { 200: Order } } }, async () => ({ id: 1, createdAt: 'x' }))
    app.get('/health', async () => 'ok')
  })
  t.equal((await app.inject('/health')).body, 'ok')
})

t.test('one change listed under two versions; an endpoint instruction naming a method no route declares', async t => {
  await t.rejects(started(() => {}, [{ version: '3.0', changes: [renamed] }, { version: '2.0', changes: [renamed] }, { version: '1.0' }]), {
    code: 'FST_API_VERSIONING_INVALID_OPTION',
    message: /versionChanges\[1\]\.changes\[0\] is the change listed at \[0\]\.changes\[0\] too: a change is what one version changed, so list it once/
  })
  const endpoints = versionChange({ description: 'x', endpoints: [{ method: ['GET', 'POST'], url: '/orders', added: true }] })
  await t.rejects(started(app => app.get('/orders', { versionChanges: true }, async () => 'ok'), list(endpoints)), {
    message: /the change of 2\.0, endpoints\[0\], names the endpoint POST \/orders, which no route declared with versionChanges: true is/
  })
})

t.test('a field a schema for convertToApiVersion alone needs converted: a response migration by that schema', async t => {
  const Event = Type.Object({ id: Type.Integer() })
  const gone = { schema: Event, field: 'kind', removed: { schema: { type: 'string' }, required: true } } as const
  await t.rejects(started(() => {}, list(versionChange({ description: 'x', fields: [gone] }))), {
    message: /the change of 2\.0, fields\[0\]: older versions require the field "kind", which this one no longer has, so convertToApiVersion needs a response migration by the schema \(no route holds it\)/
  })
  const app = await started(() => {}, list(versionChange({ description: 'x', fields: [gone], responses: [{ schema: Event, migrate: response => { (response.body as { kind: string }).kind = 'order' } }] })))
  t.same(await app.convertToApiVersion({ schema: Event, value: { id: 1 }, version: '1.0' }), { id: 1, kind: 'order' })
})

t.test('a schema held only where no value is converted, or copied with local refs that would resolve elsewhere, is refused', async t => {
  const Line = Type.Object({ sku: Type.String() })
  const change = versionChange({ description: 'x', fields: [{ schema: Line, field: 'sku', renamedFrom: 'code' }] })
  const held = { if: { type: 'object', if: Line, then: { required: ['sku'] } }, dependentSchemas: { type: 'object', dependentSchemas: { kind: Line } }, dependencies: { type: 'object', dependencies: { kind: Line, rush: ['kind'] } } }
  for (const [keyword, body] of Object.entries(held)) {
    await t.rejects(started(app => app.post('/lines', { versionChanges: true, schema: { body } }, async () => 'ok'), list(change)), {
      code: 'FST_API_VERSIONING_INVALID_DECLARATION',
      message: /route POST \/lines: the change of 2\.0, fields\[0\], changes a schema that its body holds only where no value is converted \(under not, if, then, else, contains, propertyNames, dependentSchemas or dependencies\)/
    }, keyword)
  }
  const Shared = { $id: 'Shared', type: 'object', definitions: { line: Line }, properties: { line: { $ref: '#/definitions/line' } } }
  await t.rejects(started(app => {
    app.addSchema(Shared)
    app.post('/shared', { versionChanges: true, schema: { body: { $ref: 'Shared#' } } }, async () => 'ok')
  }, list(versionChange({ description: 'x', fields: [{ schema: 'Shared', field: 'line', renamedFrom: 'item' }] }))), {
    message: /the changes of 2\.0 change the shared schema "Shared#", whose local \$refs \('#\/\.\.\.'\) would resolve elsewhere in the copy older versions need/
  })
  // Local definitions of the route's own schema: derived in its copy, and found through their refs.
  const seen: unknown[] = []
  const app = await started(app => app.post('/local', { versionChanges: true, schema: { body: { type: 'object', definitions: { line: Line }, properties: { lines: { type: 'array', items: { $ref: '#/definitions/line' } } } } } }, async request => { seen.push(request.body); return 'ok' }), list(change))
  t.equal((await app.inject({ method: 'POST', url: '/local?api-version=1.0', payload: { lines: [{ code: 'a' }] } })).statusCode, 200)
  t.same(seen, [{ lines: [{ sku: 'a' }] }])
})

t.test('a response migration by $id gives what a schema for convertToApiVersion alone needs', async t => {
  const Event = { $id: 'Event', type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }
  const change = versionChange({
    description: 'x',
    fields: [{ schema: 'Event', field: 'kind', removed: { schema: { type: 'string' }, required: true } }],
    responses: [{ schema: 'Event', migrate: response => { (response.body as { kind: string }).kind = 'order' } }]
  })
  const app = await started(app => app.addSchema(Event), list(change))
  t.same(await app.convertToApiVersion({ schema: 'Event', value: { id: 1 }, version: '1.0' }), { id: 1, kind: 'order' })
})

t.test('a field added to a request schema that requires it: older versions do not send it, so a request migration gives it, or a default', async t => {
  const NewOrder = Type.Object({ id: Type.Integer(), currency: Type.String() })
  const added = versionChange({ description: 'Orders have a currency.', fields: [{ schema: NewOrder, field: 'currency', added: true }] })
  await t.rejects(started(app => app.post('/orders', { versionChanges: true, schema: { body: NewOrder } }, async () => 'ok'), list(added)), {
    code: 'FST_API_VERSIONING_INVALID_DECLARATION',
    message: /older versions do not send the field "currency", which this one requires/
  })
  // Only in a response: the older versions' responses leave it out by themselves.
  await started(app => app.get('/orders', { versionChanges: true, schema: { response: { 200: NewOrder } } }, async () => ({ id: 1, currency: 'EUR' })), list(added))
  const Defaulted = Type.Object({ id: Type.Integer(), currency: Type.String({ default: 'EUR' }) })
  const app = await started(app => app.post('/orders', { versionChanges: true, schema: { body: Defaulted } }, async request => request.body), list(versionChange({ description: 'Orders have a currency.', fields: [{ schema: Defaulted, field: 'currency', added: true }] })))
  t.same((await app.inject({ method: 'POST', url: '/orders?api-version=1.0', payload: { id: 1 } })).json(), { id: 1, currency: 'EUR' }, 'a default: Fastify gives it as it validates the request converted up')
  const migrated = versionChange({ description: 'Orders have a currency.', fields: [{ schema: NewOrder, field: 'currency', added: true }], requests: [{ schema: NewOrder, migrate: request => { (request.body as { currency: string }).currency = 'USD' } }] })
  const withMigration = await started(app => app.post('/orders', { versionChanges: true, schema: { body: NewOrder } }, async request => request.body), list(migrated))
  t.same((await withMigration.inject({ method: 'POST', url: '/orders?api-version=1.0', payload: { id: 1 } })).json(), { id: 1, currency: 'USD' })
})

t.test('a shared schema a change changes, added after a route that refers to it: refused, as the route was planned without it', async t => {
  const Line = Type.Object({ sku: Type.String() })
  const sku = versionChange({ description: 'sku (was code).', fields: [{ schema: Line, field: 'sku', renamedFrom: 'code' }] })
  const byId = versionChange({ description: 'total (was sum).', fields: [{ schema: 'Cart', field: 'total', renamedFrom: 'sum' }] })
  const Cart = { $id: 'Cart', type: 'object', properties: { total: { type: 'number' } } }
  const Basket = { $id: 'Basket', type: 'object', properties: { line: Line } }
  const Wrapper = { $id: 'Wrapper', type: 'object', properties: { cart: { $ref: 'Cart#' } } }
  const reply = { response: { 200: { $ref: 'Cart#' } } }
  const cases: Array<[string, (app: FastifyInstance) => void, ReturnType<typeof versionChange>, RegExp]> = [
    ['by $id', app => {
      app.get('/cart', { versionChanges: true, schema: reply }, async () => ({ total: 1 }))
      app.addSchema(Cart)
    }, byId, /route GET \/cart: its schema refers to the shared schema 'Cart', which was added after the route, and the versionChanges option changes it; .* add the schema before the route \(app\.addSchema\)/],
    ['the same schema object on a route before and one after it', app => {
      app.get('/before', { versionChanges: true, schema: reply }, async () => ({ total: 1 }))
      app.addSchema(Cart)
      app.get('/after', { versionChanges: true, schema: reply }, async () => ({ total: 1 }))
    }, byId, /route GET \/before: its schema refers to the shared schema 'Cart'/],
    ['through a shared schema added before it', app => {
      app.addSchema(Wrapper)
      app.get('/wrapped', { versionChanges: true, schema: { response: { 200: { $ref: 'Wrapper#' } } } }, async () => ({ cart: { total: 1 } }))
      app.addSchema(Cart)
    }, byId, /route GET \/wrapped: its schema refers to the shared schema 'Cart'/],
    ['a nested schema an instruction names by object', app => {
      app.post('/basket', { versionChanges: true, schema: { body: { $ref: 'Basket#' } } }, async () => ({}))
      app.addSchema(Basket)
    }, sku, /route POST \/basket: its schema refers to the shared schema 'Basket'/],
    ['properties named as keywords of data are (default, enum): schemas all the same', app => {
      app.addSchema({ $id: 'Holder', type: 'object', properties: { enum: { $ref: 'Cart#' } } })
      app.get('/holder', { versionChanges: true, schema: { response: { 200: { type: 'object', properties: { default: { $ref: 'Holder#' } } } } } }, async () => ({}))
      app.addSchema(Cart)
    }, byId, /route GET \/holder: its schema refers to the shared schema 'Cart'/],
    ['a nested schema an instruction names by object, as a property named default', app => {
      app.post('/defaults', { versionChanges: true, schema: { body: { $ref: 'Defaults#' } } }, async () => ({}))
      app.addSchema({ $id: 'Defaults', type: 'object', properties: { default: Line } })
    }, sku, /route POST \/defaults: its schema refers to the shared schema 'Defaults'/]
  ]
  for (const [name, routes, change, message] of cases) await t.rejects(started(routes, list(change)), { code: 'FST_API_VERSIONING_LATE_SCHEMA', message }, name)
  // Where nothing older can get the newest shape: a route of the newest version alone, a pointer into a part no
  // change changes, a reference in an example (data).
  const Item = { $id: 'Item', type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } }
  const itemName = versionChange({ description: 'name (was title).', fields: [{ schema: 'Item', field: 'name', renamedFrom: 'title' }] })
  for (const [name, routes, versionChanges] of [
    ['a route of the newest version alone', (app: FastifyInstance) => {
      app.get('/new', { versionChanges: true, schema: { response: { 200: { $ref: 'Item#' } } } }, async () => ({ name: 'n' }))
      app.addSchema(Item)
    }, [{ version: '3.0', changes: [versionChange({ description: 'New.', endpoints: [{ method: 'GET', url: '/new', added: true }] })] }, { version: '2.0', changes: [itemName] }, { version: '1.0' }]],
    ['a pointer into a part no change changes', (app: FastifyInstance) => {
      app.get('/tags', { versionChanges: true, schema: { response: { 200: { $ref: 'Item#/properties/tags' } } } }, async () => [])
      app.addSchema(Item)
    }, list(itemName)],
    ['a reference in an example', (app: FastifyInstance) => {
      app.addSchema(Item)
      app.get('/items', { versionChanges: true, schema: { response: { 200: { type: 'object', properties: { item: { $ref: 'Item#' } }, examples: [{ $ref: 'Later#' }] } } } }, async () => ({}))
      app.addSchema({ $id: 'Later', type: 'object', properties: { item: { $ref: 'Item#' } } })
    }, list(itemName)]
  ] as const) {
    await t.resolves(started(routes, versionChanges as never), name)
  }
  // One that no change changes may come later.
  const app = await started(app => {
    app.addSchema(Cart)
    app.get('/cart', { versionChanges: true, schema: { response: { 200: { $ref: 'Plain#' } } } }, async () => ({ total: 1 }))
    app.addSchema({ $id: 'Plain', type: 'object', properties: { total: { type: 'number' } } })
  }, list(byId))
  t.same((await app.inject('/cart?api-version=1.0')).json(), { total: 1 }, 'a late schema nothing changes: served')
})

t.test('whether a shared schema holds one a change names: through its references, each object once', async t => {
  const Money = { type: 'number', default: null }
  const schemas: Record<string, unknown> = { Invoice: { type: 'object', properties: { net: Money, gross: Money, payee: { $ref: 'Payee#' }, lost: { $ref: 'Nowhere#' }, tags: { type: 'array', items: [{ type: 'string' }] } } }, Payee: { $id: 'Payee', type: 'object', properties: { name: { type: 'string' } } } }
  const shared = (id: string): unknown => schemas[id]
  t.notOk(holdsNamed('Invoice', [{ schema: Order, id: null }], shared), 'none named')
  t.ok(holdsNamed('Invoice', [{ schema: 'Payee', id: 'Payee' }], shared), 'one it refers to, named by $id')
  t.ok(holdsNamed('Invoice', [{ schema: Money, id: null }], shared), 'one it holds twice')
})

t.test('a $id no route holds and no shared schema has: a warning, as it converts only what convertToApiVersion is given (or is mistyped)', async t => {
  const Customer = { $id: 'Customer', type: 'object', properties: { name: { type: 'string' } } }
  for (const change of [
    versionChange({ description: 'x', fields: [{ schema: 'Custmer', field: 'name', renamedFrom: 'nm' }] }),
    versionChange({ description: 'x', responses: [{ schema: 'Custmer', migrate: () => {} }] })
  ]) {
    const warnings: string[] = []
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { warnings.push(JSON.parse(line).msg) } } } })
    await app.register(apiVersioning, { versionChanges: list(change) })
    app.addSchema(Customer)
    app.get('/customers', { versionChanges: true, schema: { response: { 200: { $ref: 'Customer#' } } } }, async () => ({ name: 'n' }))
    await app.ready()
    t.match(warnings, [/^fastify-api-versioning: versionChanges: the change of 2\.0, (fields|responses)\[0\], names the schema 'Custmer', which no route holds and app\.addSchema did not add: it converts only what convertToApiVersion is given with a schema of that \$id; if it is meant for a route's, name it by the \$id it was added with$/])
  }
  // One a route holds in a scope of its own (its instance has it, the plugin's does not): no warning, converted.
  const warnings: string[] = []
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { warnings.push(JSON.parse(line).msg) } } } })
  await app.register(apiVersioning, { versionChanges: list(versionChange({ description: 'x', fields: [{ schema: 'Customer', field: 'name', renamedFrom: 'nm' }] })) })
  app.register(async scope => {
    scope.addSchema(Customer)
    scope.get('/customers', { versionChanges: true, schema: { response: { 200: { $ref: 'Customer#' } } } }, async () => ({ name: 'n' }))
  })
  await app.ready()
  t.same(warnings, [])
  t.same((await app.inject('/customers?api-version=1.0')).json(), { nm: 'n' })
})

t.test("a validation library's schema (zod, valibot: a Standard Schema), which a type provider compiles, is no JSON Schema: refused where named", async t => {
  // As zod writes one (4.x; before 3.24, `_def` alone): an object of its own class, none of JSON Schema's keywords.
  const standard = { '~standard': { version: 1, vendor: 'zod', validate: (value: unknown) => ({ value }) }, _def: { type: 'object' } }
  const older = { _def: { typeName: 'ZodObject' } }
  // ArkType's: a function that validates, with its Standard Schema.
  const arktype = Object.assign((value: unknown) => value, { '~standard': standard['~standard'] })
  for (const schema of [standard, older, arktype]) {
    // As a plain JS app gives it (TypeScript refuses it, where the schema has no such property).
    t.throws(() => (versionChange as (options: unknown) => unknown)({ description: 'x', fields: [{ schema, field: 'createdAt', renamedFrom: 'created' }] }), {
      code: 'FST_API_VERSIONING_INVALID_OPTION',
      message: 'fastify-api-versioning: versionChange: fields[0].schema is a schema of a validation library (zod, valibot: a Standard Schema), not a JSON Schema: version changes derive older versions\' schemas from JSON Schemas; write the route\'s schemas, and name them here, in TypeBox or plain JSON Schema'
    })
  }
  const provider = (app: FastifyInstance) => {
    // A type provider's compilers take its own schemas.
    app.setValidatorCompiler(() => () => true)
    app.setSerializerCompiler(() => data => JSON.stringify(data))
  }
  for (const [schema, part] of [[{ body: standard }, 'body'], [{ body: arktype }, 'body'], [{ body: { content: { 'application/json': { schema: standard } } } }, 'body application/json'], [{ response: { 200: Order, 201: { content: { 'text/csv': { schema: Type.String() }, 'application/json': { schema: older } } } } }, 'response 201 application/json'], [{ querystring: Order, response: { 200: Order, 201: older } }, 'response 201']] as const) {
    await t.rejects(started(app => {
      provider(app)
      app.post('/orders', { versionChanges: true, schema: schema as never }, async () => ({}))
    }), { code: 'FST_API_VERSIONING_INVALID_DECLARATION', message: new RegExp(`^fastify-api-versioning: route POST /orders: versionChanges: true derives its older versions' schemas from its JSON Schemas, but its ${part} schema is a schema of a validation library \\(zod, valibot: a Standard Schema\\), which a type provider compiles; write the route's schemas in TypeBox or plain JSON Schema, or declare the route without versionChanges$`) }, part)
  }
})

t.test('a schema TypeBox made from one an instruction names (Partial, Pick, Omit) is another schema: a warning saying to name it too', async t => {
  const Line = Type.Object({ sku: Type.String() })
  const Order3 = Type.Object({ id: Type.Integer(), createdAt: Type.String(), note: Type.String(), lines: Type.Array(Line) })
  const rename = (...schemas: object[]) => versionChange({ description: 'x', fields: schemas.map(schema => ({ schema: schema as typeof Order3, field: 'createdAt' as const, renamedFrom: 'created' })) })
  const warned = async (schema: object, change = rename(Order3)) => {
    const warnings: string[] = []
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => { warnings.push(JSON.parse(line).msg) } } } })
    await app.register(apiVersioning, { versionChanges: list(change) })
    app.get('/orders', { versionChanges: true, schema: { response: { 200: Order3 } } }, async () => ({ id: 1, createdAt: 'now', note: 'n', lines: [] }))
    app.patch('/orders', { versionChanges: true, schema: { body: schema } }, async request => request.body)
    await app.ready()
    return { app, warnings }
  }
  const message = (properties: string) => `fastify-api-versioning: versionChanges: the change of 2.0, fields[0], names a schema whose properties a route's schema has too (${properties}), in another object (as TypeBox's Type.Partial, Pick, Omit and Composite make one, or its properties spread): that schema is not converted, so older versions get its newest names; if it is made from the named one, name it in an instruction too (fields: [{ schema: <that schema>, field: 'createdAt', ... }])`
  t.same((await warned(Type.Partial(Order3))).warnings, [message('id, createdAt, note, lines')], 'Partial: all its properties, each a copy')
  t.same((await warned(Type.Omit(Order3, ['note']))).warnings, [message('id, createdAt, lines')], 'Omit: its very property schemas')
  t.same((await warned(Type.Pick(Order3, ['createdAt']))).warnings, [message('createdAt')], 'Pick')
  t.same((await warned(Type.Omit(Type.Partial(Order3), ['note']))).warnings, [message('id, createdAt, lines')], 'copies of its properties that hold their objects (the lines\' items)')
  // All its properties and more: TypeBox's Composite (copies of its properties), its properties spread in an object.
  t.same((await warned(Type.Composite([Order3, Type.Object({ total: Type.Number() })]))).warnings, [message('id, createdAt, note, lines, total')], 'Composite')
  t.same((await warned(Type.Object({ ...Order3.properties, total: Type.Number() }))).warnings, [message('id, createdAt, note, lines, total')], 'spread')
  // So is a Composite of scalars alone: nothing tells it from a schema of its own (an id and a creation time first).
  t.same((await warned(Type.Object({ id: Type.Integer(), createdAt: Type.String(), note: Type.String(), total: Type.Number() }))).warnings, [], 'scalars alike, and more: a schema of its own')
  // A schema of its own whose scalar properties look alike (a customer's id and creation time), or that takes any
  // value there: no warning.
  t.same((await warned(Type.Object({ id: Type.Integer(), createdAt: Type.String() }))).warnings, [])
  t.same((await warned({ type: 'object', properties: { createdAt: true } })).warnings, [])
  // Named too: converted, and no warning.
  const Patch = Type.Partial(Order3)
  const { app, warnings } = await warned(Patch, rename(Order3, Patch))
  t.same(warnings, [])
  // The handler gets the newest name (its answer has no schema, so is sent as it is).
  t.same((await app.inject({ method: 'PATCH', url: '/orders?api-version=1.0', payload: { created: 'then' } })).json(), { createdAt: 'then' })
})
