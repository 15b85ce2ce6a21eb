// The apps of benchmarks/scale-changes.mjs: one API of orders, served by plain Fastify, by hand (a route per path
// that dispatches on the version, or a route per version), by this plugin's ordinary versioned routes and by its
// `versionChanges` routes, at any number of paths and versions.
//
// The API: GET /r<i>/orders/:id answers an order of 10 fields (id, 8 scalars, and `lines`: 10 lines of 5 fields);
// POST /r<i>/orders takes a new order (the 8 scalars and 10 lines) and answers 201 `{ id }`; with `lines`, GET
// /r0/orders/:id/lines answers 10,000 lines. Versions are `1.0` (oldest) to `<versions>.0` (newest). A version
// that *touches* the routes renames one field of the order (and of the new order) and one field of every line, in
// turn, so its older neighbour names them `<name>_<t>` (t counts the touching versions from the newest); with
// `every` = 4 only every 4th version touches them (1.0 is the oldest; 5.0, 9.0, ... touch), the others change
// behaviour only (a change with a description and no instruction), so 25 versions touching each and 100 versions
// every 4th touching have the same 25 shapes.
//
// The hand-written conversions name every field (or use rest/spread, for the rows that show that style); they are
// generated as source text with the literal names, which is what a person writing them out would have.
import Fastify from 'fastify'
import AjvCompiler from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

/* eslint-disable no-new-func -- the hand-written converters are written out as source text with literal names */

export const KINDS = {
  plain: 'plain Fastify, newest schemas, no versions',
  dispatch: 'by hand: one route per method and path, dispatching on the version',
  routes: 'by hand: a route per version (a router constraint on the api-version header)',
  ordinary: 'this plugin, an ordinary versioned route (apiVersions: the newest) per method and path',
  changes: 'this plugin, versionChanges: true',
  'hand-named': 'by hand (the plugin\'s apiVersions, a route per version): one converter naming every field',
  'hand-named-chain': 'by hand (the plugin\'s apiVersions, a route per version): a converter naming every field per step, chained',
  'hand-spread': 'by hand (the plugin\'s apiVersions, a route per version): one rest/spread converter',
  'hand-spread-chain': 'by hand (the plugin\'s apiVersions, a route per version): a rest/spread converter per step, chained'
}

const ORDER_FIELDS = ['number', 'status', 'currency', 'total', 'customer', 'note', 'createdAt', 'updatedAt']
const ORDER_TYPES = ['string', 'string', 'string', 'number', 'string', 'string', 'string', 'string']
const LINE_FIELDS = ['sku', 'name', 'quantity', 'price', 'discount']
const LINE_TYPES = ['string', 'string', 'integer', 'number', 'number']
export const LINES_PER_ORDER = 10
export const LINES_ROUTE_ITEMS = 10_000
export const HEADER = 'api-version'

/**
 * The versions and what each calls the fields: `versions` newest first (`'N.0'` … `'1.0'`), `names[k]` the order's
 * and the line's field names in versions[k], `touches[k]` whether versions[k]'s change renames (the oldest: none).
 */
export function plan ({ versions: count, every = 1 }) {
  const versions = Array.from({ length: count }, (_, k) => `${count - k}.0`)
  const touches = versions.map((_, k) => k < count - 1 && (count - k - 1) % every === 0)
  const names = [{ order: [...ORDER_FIELDS], line: [...LINE_FIELDS] }]
  const renames = [] // renames[k]: what versions[k]'s change renamed, as { order: [newer, older], line: [newer, older] }
  let t = 0
  for (let k = 0; k < count - 1; k++) {
    const newer = names[k]
    if (!touches[k]) {
      names.push(newer)
      renames.push(null)
      continue
    }
    const o = t % ORDER_FIELDS.length
    const l = t % LINE_FIELDS.length
    t++
    const order = [...newer.order]
    const line = [...newer.line]
    order[o] = `${ORDER_FIELDS[o]}_${t}`
    line[l] = `${LINE_FIELDS[l]}_${t}`
    renames.push({ order: [newer.order[o], order[o]], line: [newer.line[l], line[l]] })
    names.push({ order, line })
  }
  renames.push(null)
  return { versions, touches, names, renames, shapes: t + 1 }
}

// The schemas of one version, from its names; the same Line object inside Order and NewOrder, as the plugin's
// instructions match schemas by identity.
function schemasOf ({ order, line }) {
  const Line = { type: 'object', properties: Object.fromEntries(line.map((n, i) => [n, { type: LINE_TYPES[i] }])), required: [...line] }
  const scalars = Object.fromEntries(order.map((n, i) => [n, { type: ORDER_TYPES[i] }]))
  const lines = { type: 'array', items: Line }
  const Order = { type: 'object', properties: { id: { type: 'integer' }, ...scalars, lines }, required: ['id', ...order, 'lines'] }
  const NewOrder = { type: 'object', properties: { ...scalars, lines: { type: 'array', items: Line } }, required: [...order, 'lines'] }
  return { Line, Order, NewOrder, Lines: { type: 'array', items: Line } }
}
const Params = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }
const Created = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }

// The data, in the newest version's names (which are the base names: the handlers are written for the newest).
const VALUES = ['SO-1001', 'open', 'EUR', 123.45, 'Ada Lovelace', 'leave it at the door', '2024-01-02T03:04:05Z', '2024-01-03T03:04:05Z']
const lineValues = i => [`SKU-${1000 + i}`, `Item number ${i}`, i + 1, 9.99 + i, 0.5]
function getOrder (id) {
  const lines = new Array(LINES_PER_ORDER)
  for (let i = 0; i < LINES_PER_ORDER; i++) lines[i] = { sku: `SKU-${1000 + i}`, name: 'Item', quantity: i + 1, price: 9.99, discount: 0.5 }
  return { id, number: 'SO-1001', status: 'open', currency: 'EUR', total: 123.45, customer: 'Ada Lovelace', note: 'leave it at the door', createdAt: '2024-01-02T03:04:05Z', updatedAt: '2024-01-03T03:04:05Z', lines }
}
// A new order arrives in the newest names: the handler reads it as the newest version's code would.
const placeOrder = body => ({ id: body.lines.length + body.number.length })
const LINES = Array.from({ length: LINES_ROUTE_ITEMS }, (_, i) => Object.fromEntries(LINE_FIELDS.map((n, j) => [n, lineValues(i % 100)[j]])))

/** A client's new order in a version's names (what the POST rows send). */
export function newOrderBody ({ order, line }) {
  return {
    ...Object.fromEntries(order.map((n, i) => [n, VALUES[i]])),
    lines: Array.from({ length: LINES_PER_ORDER }, (_, i) => Object.fromEntries(line.map((n, j) => [n, lineValues(i)[j]])))
  }
}

// ---- Hand-written conversions, as source text with the literal names ----

// An object of the `to` names, each read from the `from` name at the same place: what a person writes out.
const named = (v, from, to, extra = '') => `{ ${extra}${to.map((n, i) => `${n}: ${v}.${from[i]}`).join(', ')} }`
function namedConverter (from, to, withId) {
  return new Function('o', `const ls = o.lines; const n = ls.length; const lines = new Array(n)
    for (let i = 0; i < n; i++) { const l = ls[i]; lines[i] = ${named('l', from.line, to.line)} }
    return ${named('o', from.order, to.order, withId ? 'id: o.id, ' : '').replace(/ }$/, ', lines }')}`)
}
function namedItems (from, to) {
  return new Function('ls', `const n = ls.length; const out = new Array(n)
    for (let i = 0; i < n; i++) { const l = ls[i]; out[i] = ${named('l', from.line, to.line)} }
    return out`)
}
// Rest/spread: take out the fields that differ, spread the rest, add them back under their other names.
function spreadConverter (from, to) {
  const differ = (a, b) => a.map((n, i) => [n, b[i]]).filter(([x, y]) => x !== y)
  const order = differ(from.order, to.order)
  const line = differ(from.line, to.line)
  const take = pairs => pairs.map(([x], i) => `${x}: v${i}`).join(', ')
  const give = pairs => pairs.map(([, y], i) => `${y}: v${i}`).join(', ')
  const lines = line.length === 0 ? 'o.lines' : `o.lines.map(l => { const { ${take(line)}, ...r } = l; return { ...r, ${give(line)} } })`
  return new Function('o', order.length === 0
    ? `return { ...o, lines: ${lines} }`
    : `const { ${take(order)}, ...rest } = o; return { ...rest, ${give(order)}, lines: ${lines} }`)
}

/**
 * For each version k, `down[k](newestOrder)` and `up[k](versionKNewOrder)` in a style: 'named' (one converter from
 * the newest, naming every field), 'named-chain' (a converter naming every field per touching step, chained),
 * 'spread' (one rest/spread converter), 'spread-chain' (a rest/spread converter per step, chained); and `items[k]`,
 * the newest lines into version k's, in a loop naming every field. The newest version's are null: nothing to do.
 */
export function converters (p, style) {
  const { names, touches } = p
  const count = names.length
  const chained = style.endsWith('-chain')
  const one = style.startsWith('named') ? namedConverter : spreadConverter
  const stepDown = []
  const stepUp = []
  for (let k = 0; k < count - 1; k++) {
    stepDown.push(touches[k] ? one(names[k], names[k + 1], true) : null)
    stepUp.push(touches[k] ? one(names[k + 1], names[k], false) : null)
  }
  const down = [null]
  const up = [null]
  const items = [null]
  for (let k = 1; k < count; k++) {
    const same = names[k] === names[0]
    items.push(same ? null : namedItems(names[0], names[k]))
    if (same) {
      down.push(null)
      up.push(null)
    } else if (!chained) {
      down.push(one(names[0], names[k], true))
      up.push(one(names[k], names[0], false))
    } else {
      // Newest first going down; oldest first going up.
      const downs = stepDown.slice(0, k).filter(Boolean)
      const ups = stepUp.slice(0, k).filter(Boolean).reverse()
      down.push(o => { for (const f of downs) o = f(o); return o })
      up.push(o => { for (const f of ups) o = f(o); return o })
    }
  }
  return { down, up, items }
}

// ---- The apps ----

export const pathOf = i => `/r${i}/orders`
/** The path the requests go to: one in the middle of the table. */
export const middle = paths => Math.floor(paths / 2)

// Fastify's own compilers, as Fastify builds them (its default Ajv options, fast-json-stringify): the dispatching
// app compiles each version's schemas once and shares them between its paths, as a hand-written app would.
function compilers () {
  const validator = AjvCompiler()({}, { customOptions: {}, plugins: [] })
  const serializer = SerializerSelector()({}, {})
  return {
    validate: schema => validator({ schema, method: 'POST', url: '/', httpPart: 'body' }),
    serialize: schema => serializer({ schema, method: 'GET', url: '/', httpStatus: '200' })
  }
}

const JSON_TYPE = 'application/json; charset=utf-8'
const problem = version => ({ type: 'about:blank', title: 'Unsupported API version', status: 400, detail: `${version}` })

/** The app `kind` at `paths` paths and `versions` versions (every `every`th touching), not yet ready. */
export async function buildApp (kind, { paths, versions = 1, every = 1, lines = false, onRoute, dist = process.env.PLUGIN_DIST ?? '../../dist/esm/index.js' }) {
  if (!(kind in KINDS)) throw new Error(`no app ${JSON.stringify(kind)}: ${Object.keys(KINDS).join(', ')}`)
  const p = plan({ versions, every })
  const own = p.names.map(schemasOf) // each version's schemas (one object per distinct shape)
  for (let k = 1; k < own.length; k++) if (p.names[k] === p.names[k - 1]) own[k] = own[k - 1]
  const newest = own[0]
  const linesUrl = `${pathOf(0)}/:id/lines`
  // Every app is made here, with the caller's onRoute hook (the server counts the routes) first.
  const fastify = options => {
    const app = Fastify(options)
    if (onRoute !== undefined) app.addHook('onRoute', onRoute)
    return app
  }

  if (kind === 'plain') {
    const app = fastify()
    for (let i = 0; i < paths; i++) {
      app.get(`${pathOf(i)}/:id`, { schema: { params: Params, response: { 200: newest.Order } } }, async request => getOrder(request.params.id))
      app.post(pathOf(i), { schema: { body: newest.NewOrder, response: { 201: Created } } }, async (request, reply) => reply.code(201).send(placeOrder(request.body)))
    }
    if (lines) app.get(linesUrl, { schema: { params: Params, response: { 200: newest.Lines } } }, async () => LINES)
    return app
  }

  if (kind === 'dispatch') {
    // One route per method and path; the version's validator, serializer and conversion chosen by the handler. The
    // newest version's response is serialized by the route's own schema (compiled by Fastify, as for plain Fastify);
    // the older ones' by their own compiled serializer, and every version's body by its own validator.
    const { validate, serialize } = compilers()
    const { down, up, items } = converters(p, 'named-chain')
    const byShape = new Map()
    const table = new Map(p.versions.map((version, k) => {
      const schemas = own[k]
      if (!byShape.has(schemas)) {
        byShape.set(schemas, { order: serialize(schemas.Order), newOrder: validate(schemas.NewOrder), lines: serialize(schemas.Lines) })
      }
      return [version, { newest: k === 0, down: down[k], up: up[k], items: items[k], ...byShape.get(schemas) }]
    }))
    const app = fastify()
    const getOne = async (request, reply) => {
      const v = table.get(request.headers[HEADER])
      if (v === undefined) return reply.code(400).type('application/problem+json').send(problem(request.headers[HEADER]))
      const order = getOrder(request.params.id)
      if (v.down === null) return order
      reply.type(JSON_TYPE).serializer(v.order)
      return v.down(order)
    }
    const post = async (request, reply) => {
      const v = table.get(request.headers[HEADER])
      if (v === undefined) return reply.code(400).type('application/problem+json').send(problem(request.headers[HEADER]))
      if (!v.newOrder(request.body)) return reply.code(400).send({ message: 'body does not fit', errors: v.newOrder.errors })
      return reply.code(201).send(placeOrder(v.up === null ? request.body : v.up(request.body)))
    }
    for (let i = 0; i < paths; i++) {
      app.get(`${pathOf(i)}/:id`, { schema: { params: Params, response: { 200: newest.Order } } }, getOne)
      app.post(pathOf(i), { schema: { response: { 201: Created } } }, post)
    }
    if (lines) {
      app.get(linesUrl, { schema: { params: Params, response: { 200: newest.Lines } } }, async (request, reply) => {
        const v = table.get(request.headers[HEADER])
        if (v === undefined) return reply.code(400).type('application/problem+json').send(problem(request.headers[HEADER]))
        if (v.items === null) return LINES
        reply.type(JSON_TYPE).serializer(v.lines)
        return v.items(LINES)
      })
    }
    return app
  }

  if (kind === 'routes') {
    // A route per version with that version's schemas, found by a router constraint on the header; a route without
    // the constraint answers the versions there are none for.
    const store = () => {
      const routes = new Map()
      return { get: version => routes.get(version) ?? null, set: (version, route) => { routes.set(version, route) } }
    }
    const app = fastify({ routerOptions: { constraints: { apiVersion: { name: 'apiVersion', storage: store, validate () {}, deriveConstraint: request => request.headers[HEADER], mustMatchWhenDerived: false } } } })
    const { down, up, items } = converters(p, 'named-chain')
    const unsupported = async (request, reply) => reply.code(400).type('application/problem+json').send(problem(request.headers[HEADER]))
    const declare = (method, url, schemaOf, handlerOf) => {
      for (let k = 0; k < p.versions.length; k++) {
        app.route({ method, url, constraints: { apiVersion: p.versions[k] }, schema: schemaOf(own[k]), handler: handlerOf(k) })
      }
      app.route({ method, url, handler: unsupported })
    }
    for (let i = 0; i < paths; i++) {
      declare('GET', `${pathOf(i)}/:id`, s => ({ params: Params, response: { 200: s.Order } }), k => {
        const convert = down[k]
        return convert === null ? async request => getOrder(request.params.id) : async request => convert(getOrder(request.params.id))
      })
      declare('POST', pathOf(i), s => ({ body: s.NewOrder, response: { 201: Created } }), k => {
        const convert = up[k]
        return async (request, reply) => reply.code(201).send(placeOrder(convert === null ? request.body : convert(request.body)))
      })
    }
    if (lines) {
      declare('GET', linesUrl, s => ({ params: Params, response: { 200: s.Lines } }), k => {
        const convert = items[k]
        return convert === null ? async () => LINES : async () => convert(LINES)
      })
    }
    return app
  }

  // The plugin's apps.
  const { default: apiVersioning, versionChange } = await import(dist)
  const app = fastify()
  const versionReader = { header: HEADER }
  if (kind === 'changes') {
    const list = p.versions.map((version, k) => {
      if (k === p.versions.length - 1) return { version }
      const r = p.renames[k]
      if (r === null) return { version, changes: [versionChange({ description: `Version ${version} changes behaviour elsewhere; these routes keep their shape.` })] }
      return {
        version,
        changes: [versionChange({
          description: `Orders call '${r.order[1]}' '${r.order[0]}', and lines call '${r.line[1]}' '${r.line[0]}'.`,
          fields: [
            { schema: newest.Order, field: r.order[0], renamedFrom: r.order[1] },
            { schema: newest.NewOrder, field: r.order[0], renamedFrom: r.order[1] },
            { schema: newest.Line, field: r.line[0], renamedFrom: r.line[1] }
          ]
        })]
      }
    })
    await app.register(apiVersioning, { versionReader, problemDetails: true, versionChanges: list })
    for (let i = 0; i < paths; i++) {
      app.get(`${pathOf(i)}/:id`, { versionChanges: true, schema: { params: Params, response: { 200: newest.Order } } }, async request => getOrder(request.params.id))
      app.post(pathOf(i), { versionChanges: true, schema: { body: newest.NewOrder, response: { 201: Created } } }, async (request, reply) => reply.code(201).send(placeOrder(request.body)))
    }
    if (lines) app.get(linesUrl, { versionChanges: true, schema: { params: Params, response: { 200: newest.Lines } } }, async () => LINES)
    return app
  }
  await app.register(apiVersioning, { versionReader, problemDetails: true })
  if (kind === 'ordinary') {
    const apiVersions = p.versions[0]
    for (let i = 0; i < paths; i++) {
      app.get(`${pathOf(i)}/:id`, { apiVersions, schema: { params: Params, response: { 200: newest.Order } } }, async request => getOrder(request.params.id))
      app.post(pathOf(i), { apiVersions, schema: { body: newest.NewOrder, response: { 201: Created } } }, async (request, reply) => reply.code(201).send(placeOrder(request.body)))
    }
    if (lines) app.get(linesUrl, { apiVersions, schema: { params: Params, response: { 200: newest.Lines } } }, async () => LINES)
    return app
  }
  // hand-*: an ordinary versioned route per version (per shape: versions of one shape share it), with the version's
  // schemas, whose handler converts by hand.
  const { down, up, items } = converters(p, kind.slice('hand-'.length))
  const groups = []
  for (let k = 0; k < p.versions.length; k++) {
    if (k > 0 && own[k] === own[k - 1]) groups.at(-1).versions.push(p.versions[k])
    else groups.push({ k, versions: [p.versions[k]] })
  }
  for (const { k, versions: apiVersions } of groups) {
    const s = own[k]
    for (let i = 0; i < paths; i++) {
      const convertDown = down[k]
      const convertUp = up[k]
      app.get(`${pathOf(i)}/:id`, { apiVersions, schema: { params: Params, response: { 200: s.Order } } },
        convertDown === null ? async request => getOrder(request.params.id) : async request => convertDown(getOrder(request.params.id)))
      app.post(pathOf(i), { apiVersions, schema: { body: s.NewOrder, response: { 201: Created } } },
        async (request, reply) => reply.code(201).send(placeOrder(convertUp === null ? request.body : convertUp(request.body))))
    }
    if (lines) {
      const convert = items[k]
      app.get(linesUrl, { apiVersions, schema: { params: Params, response: { 200: s.Lines } } }, convert === null ? async () => LINES : async () => convert(LINES))
    }
  }
  return app
}

/**
 * The requests of an app for version index k of its plan (0: the newest): `get`, `post` and `lines`, each
 * `{ method, path, headers, body?, check(body) }`; `check` says what is wrong with a response body, or null.
 */
export function requestsFor ({ paths, versions = 1, every = 1 }, k) {
  const p = plan({ versions, every })
  const version = p.versions[k]
  const names = p.names[k]
  const headers = { [HEADER]: version }
  const mid = middle(paths)
  const body = JSON.stringify(newOrderBody(names))
  const hasNames = (object, expected) => expected.every(n => Object.hasOwn(object ?? {}, n))
  return {
    version,
    get: {
      method: 'GET',
      path: `${pathOf(mid)}/42`,
      headers,
      check: text => {
        const order = JSON.parse(text)
        return order.id === 42 && hasNames(order, names.order) && order.lines?.length === LINES_PER_ORDER && hasNames(order.lines[0], names.line)
          ? null
          : `not an order of ${version}'s names: ${text.slice(0, 200)}`
      }
    },
    post: {
      method: 'POST',
      path: pathOf(mid),
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      check: text => Number.isInteger(JSON.parse(text).id) ? null : `not { id }: ${text.slice(0, 200)}`
    },
    lines: {
      method: 'GET',
      path: `${pathOf(0)}/42/lines`,
      headers,
      check: text => {
        const list = JSON.parse(text)
        return list.length === LINES_ROUTE_ITEMS && hasNames(list[0], names.line) && hasNames(list.at(-1), names.line) ? null : `not ${LINES_ROUTE_ITEMS} lines of ${version}'s names`
      }
    }
  }
}
