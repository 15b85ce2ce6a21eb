import t from 'tap'
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import apiVersioning, { versionChange, type FieldInstruction, type VersionChangesEntry } from '../../lib/index.js'
import apiVersioningOpenApi from '../../lib/openapi/index.js'

// Shared schemas (app.addSchema, which deep-copies what it is given, and $ref) are converted as inline ones are.

t.test('a shared schema named by its $id or by the object: requests renamed up, added fields dropped, in the body and the query string', async t => {
  for (const byObject of [false, true]) {
    const Thing = { $id: 'Thing', type: 'object', properties: { bee: { type: 'string' }, email: { type: 'string' } } }
    const named = byObject ? Thing : 'Thing'
    const change = versionChange({ description: 'Renamed bea; added email.', fields: [{ schema: named, field: 'bee', renamedFrom: 'bea' }, { schema: named, field: 'email', added: true }] })
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
    app.addSchema(Thing)
    const seen: unknown[] = []
    app.post('/things', { versionChanges: true, schema: { body: { $ref: 'Thing#' }, querystring: { $ref: 'Thing#' }, response: { 200: { $ref: 'Thing#' } } } }, async request => {
      const { 'api-version': _version, ...query } = request.query as Record<string, unknown>
      seen.push([request.body, { ...query }])
      return { bee: 'B', email: 'e' }
    })
    const old = await app.inject({ method: 'POST', url: '/things?api-version=1.0&bea=q&email=z', payload: { bea: 'B', email: 'x' } })
    t.same([old.statusCode, old.json()], [200, { bea: 'B' }], `${byObject ? 'object' : '$id'}: the response renamed down, the added field dropped`)
    t.same(seen.shift(), [{ bee: 'B' }, { bee: 'q' }], 'the 1.0 request renamed up; the field 2.0 added, sent anyway, dropped')
    const now = await app.inject({ method: 'POST', url: '/things?api-version=2.0&bee=q&email=z', payload: { bee: 'B', email: 'x' } })
    t.same([now.statusCode, now.json()], [200, { bee: 'B', email: 'e' }])
    t.same(seen.shift(), [{ bee: 'B', email: 'x' }, { bee: 'q', email: 'z' }])
  }
})

t.test('a shared schema changed in several versions keeps every change: responses, requests, schemas, documents, changes', async t => {
  const Customer = { $id: 'Customer', type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' }, phone: { type: 'string' } }, required: ['name'] }
  const v3 = versionChange({ description: 'Renamed nom to name; phones are new.', fields: [{ schema: 'Customer', field: 'name', renamedFrom: 'nom' }, { schema: 'Customer', field: 'phone', added: true }] })
  const v2 = versionChange({ description: 'Renamed handle to nom; emails are new; fax is gone.', fields: [{ schema: 'Customer', field: 'nom' as never, renamedFrom: 'handle' }, { schema: 'Customer', field: 'email', added: true }, { schema: 'Customer', field: 'fax', removed: { schema: { type: 'string' } } }] })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '3.0', changes: [v3] }, { version: '2.0', changes: [v2] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, { openapi: { info: { title: 'Customers' } } })
  app.addSchema(Customer)
  const seen: unknown[] = []
  app.post('/customers', { versionChanges: true, schema: { body: { $ref: 'Customer#' }, response: { 200: { $ref: 'Customer#' } } } }, async request => {
    seen.push(request.body)
    return { name: 'Ada', email: 'a@x', phone: '1' }
  })
  await app.ready()
  const post = async (version: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url: `/customers?api-version=${version}`, payload })
    return [res.statusCode, res.json(), seen.pop()]
  }
  t.same(await post('3.0', { name: 'Z', email: 'z', phone: '2' }), [200, { name: 'Ada', email: 'a@x', phone: '1' }, { name: 'Z', email: 'z', phone: '2' }])
  t.same(await post('2.0', { nom: 'Z', email: 'z', phone: '2' }), [200, { nom: 'Ada', email: 'a@x' }, { name: 'Z', email: 'z' }])
  t.same(await post('1.0', { handle: 'Z', email: 'z', phone: '2', fax: 'f' }), [200, { handle: 'Ada' }, { name: 'Z' }], 'both steps, both ways')
  t.equal((await post('1.0', { name: 'Z' }))[0], 400, '1.0 requires its own name of the field')
  // The documents, and what changed between them.
  const documents = app.apiVersionDocuments()
  const body = (version: string): Record<string, any> => {
    const document = documents.find(entry => entry.version === version)?.document as Record<string, any>
    const schema = document.paths['/customers'].post.requestBody.content['application/json'].schema
    return schema.$ref === undefined ? schema : document.components.schemas[schema.$ref.split('/').at(-1)]
  }
  t.same(Object.keys(body('3.0').properties), ['name', 'email', 'phone'])
  t.same(Object.keys(body('2.0').properties), ['nom', 'email'])
  t.same(Object.keys(body('1.0').properties), ['handle', 'fax'])
  t.same(body('1.0').required, ['handle'])
  const changes = app.apiVersionChanges()
  const from1 = changes.find(entry => entry.from === '1.0' && entry.to === '2.0')
  t.ok(from1 !== undefined && from1.changed.length > 0, '1.0 to 2.0 shows what the documents changed')
  t.match(JSON.stringify(from1), /email/)
})

t.test('a schema nested in a shared one (TypeBox, deep-copied by addSchema) is still the schema its instructions name', async t => {
  const Line = Type.Object({ sku: Type.String(), quantity: Type.Integer() })
  const Order = Type.Object({ id: Type.Integer(), lines: Type.Array(Line) }, { $id: 'Order' })
  const change = versionChange({ description: "A line's count is 'quantity' (it was 'qty').", fields: [{ schema: Line, field: 'quantity', renamedFrom: 'qty' }] })
  const app = Fastify()
  await app.register(apiVersioning, { versionChanges: [{ version: '2.0', changes: [change] }, { version: '1.0' }] })
  await app.register(apiVersioningOpenApi, { openapi: { info: { title: 'Orders' } } })
  app.addSchema(Order)
  const seen: unknown[] = []
  app.post('/orders', { versionChanges: true, schema: { body: Type.Ref(Order), response: { 200: Type.Ref(Order) } } }, async request => {
    seen.push(request.body)
    return { id: 1, lines: [{ sku: 'tea', quantity: 2 }] }
  })
  await app.ready()
  const old = await app.inject({ method: 'POST', url: '/orders?api-version=1.0', payload: { id: 1, lines: [{ sku: 'jam', qty: 3 }] } })
  t.same([old.statusCode, old.json()], [200, { id: 1, lines: [{ sku: 'tea', qty: 2 }] }])
  t.same(seen.pop(), { id: 1, lines: [{ sku: 'jam', quantity: 3 }] })
  const document = app.apiVersionDocuments().find(entry => entry.version === '1.0')?.document as Record<string, any>
  t.match(JSON.stringify(document), /"qty"/, "1.0's document has the older name")
  t.notMatch(JSON.stringify(document), /"quantity"/)
})

// The same changes, declared on inline schemas and on shared ones (by $id and by object, nested and top-level), give
// the same answers to the same random requests, in every version.
t.test('a property: changes declared inline and on shared schemas give the same answers', async t => {
  type Variant = 'inline' | 'by-id' | 'by-object' | 'line-shared'
  interface Plan { versions: Array<{ order: Step[], line: Step[] }> }
  type Step = { kind: 'renamed', field: string, from: string } | { kind: 'added', field: string } | { kind: 'removed', field: string }

  // Random steps that fit: each version's step names fields as that version has them.
  const plans = fc.integer({ min: 3, max: 5 }).chain(count => fc.array(fc.tuple(fc.array(fc.nat(), { maxLength: 3 }), fc.array(fc.nat(), { maxLength: 2 })), { minLength: count, maxLength: count })).map(picks => {
    let order = ['id', 'name', 'total', 'note']
    let line = ['sku', 'qty']
    let fresh = 0
    const steps = (fields: string[], picked: number[], fixed: string): [Step[], string[]] => {
      const out: Step[] = []
      let now = [...fields]
      const touched = new Set<string>()
      for (const pick of picked) {
        const choices = now.filter(field => field !== fixed && !touched.has(field))
        const kind = (['renamed', 'added', 'removed'] as const)[pick % 3]
        if (kind === 'removed') {
          const field = `r${fresh++}`
          out.push({ kind, field })
          touched.add(field)
          now = [...now, field]
          continue
        }
        if (choices.length === 0) continue
        const field = choices[pick % choices.length]
        touched.add(field)
        if (kind === 'renamed') {
          const from = `o${fresh++}`
          out.push({ kind, field, from })
          now = now.map(name => name === field ? from : name)
          touched.add(from)
        } else {
          out.push({ kind, field })
          now = now.filter(name => name !== field)
        }
      }
      return [out, now]
    }
    const versions = picks.map(([orderPicks, linePicks]) => {
      const [orderSteps, olderOrder] = steps(order, orderPicks, 'lines')
      const [lineSteps, olderLine] = steps(line, linePicks, '')
      order = olderOrder
      line = olderLine
      return { order: orderSteps, line: lineSteps }
    })
    return { versions } as Plan
  })

  async function appOf (plan: Plan, variant: Variant, seen: unknown[]): Promise<FastifyInstance> {
    const Line = { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } }
    const LineShared = { $id: 'Line', ...Line }
    const Order = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, total: { type: 'number' }, note: { type: 'string' }, lines: { type: 'array', items: variant === 'line-shared' ? { $ref: 'Line#' } : Line } } }
    const OrderShared = { $id: 'Order', ...Order }
    const orderTarget = variant === 'inline' ? Order : variant === 'by-object' ? OrderShared : 'Order'
    const lineTarget = variant === 'line-shared' ? 'Line' : Line
    const instruction = (schema: object | string, step: Step): FieldInstruction => step.kind === 'renamed'
      ? { schema, field: step.field, renamedFrom: step.from }
      : step.kind === 'added' ? { schema, field: step.field, added: true } : { schema, field: step.field, removed: { schema: { type: 'string' } } }
    const entries: VersionChangesEntry[] = plan.versions.map(({ order, line }, i) => ({
      version: `${plan.versions.length + 1 - i}.0`,
      changes: [versionChange({ description: `Version ${i}.`, fields: [...order.map(step => instruction(orderTarget, step)), ...line.map(step => instruction(lineTarget, step))] as never })]
    }))
    const app = Fastify()
    await app.register(apiVersioning, { versionChanges: [...entries, { version: '1.0' }] })
    if (variant === 'line-shared') app.addSchema(LineShared)
    if (variant !== 'inline') app.addSchema(variant === 'line-shared' ? { $id: 'Order', ...Order } : OrderShared)
    const schema = variant === 'inline' ? Order : { $ref: 'Order#' }
    app.post('/orders', { versionChanges: true, schema: { body: schema, response: { 200: schema } } }, async request => {
      seen.push(request.body)
      return { id: 7, name: 'n', total: 1.5, note: 'x', lines: [{ sku: 's', qty: 2 }, { sku: 't', qty: 3 }] }
    })
    await app.ready()
    return app
  }

  const value = fc.record({ id: fc.integer(), name: fc.string({ maxLength: 3 }), total: fc.double({ noNaN: true, noDefaultInfinity: true }), note: fc.string({ maxLength: 3 }), lines: fc.array(fc.record({ sku: fc.string({ maxLength: 3 }), qty: fc.integer() }), { maxLength: 3 }) })
  let runs = 0
  await fc.assert(fc.asyncProperty(plans, fc.array(value, { minLength: 1, maxLength: 3 }), async (plan, values) => {
    runs++
    const versions = ['1.0', ...plan.versions.map((_, i) => `${i + 2}.0`)]
    const answers = new Map<Variant, unknown[]>()
    for (const variant of ['inline', 'by-id', 'by-object', 'line-shared'] as const) {
      const seen: unknown[] = []
      const app = await appOf(plan, variant, seen)
      const got: unknown[] = []
      for (const version of versions) {
        const served = await app.inject({ method: 'POST', url: `/orders?api-version=${version}`, payload: values[0] })
        got.push(served.statusCode, served.json())
        // What the version serves, sent back in that version: up to the newest for the handler.
        for (const given of [served.json(), ...values.slice(1)]) {
          const res = await app.inject({ method: 'POST', url: `/orders?api-version=${version}`, payload: given })
          got.push(res.statusCode, seen.at(-1))
        }
      }
      await app.close()
      answers.set(variant, got)
    }
    const inline = answers.get('inline')
    return [...answers.values()].every(got => isDeepStrictEqual(got, inline))
  }), { numRuns: 12 })
  t.equal(runs, 12)
})
