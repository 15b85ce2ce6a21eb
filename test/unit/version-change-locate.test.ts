import t from 'tap'
import { locator } from '../../lib/version-changes/locate.js'

type Schema = Record<string, unknown>
const Line: Schema = { type: 'object', properties: { sku: { type: 'string' } } }
const Note: Schema = { type: 'object', properties: { text: { type: 'string' } } }
const tasksOf = (node: object): string[] => node === Line ? ['line'] : node === Note ? ['note'] : []
const none = (): undefined => undefined

t.test('the sites of a value: where the schemas that have tasks are, outer before inner', async t => {
  const Order: Schema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      lines: { type: 'array', items: Line },
      first: Line,
      either: { anyOf: [Line, Note] },
      byName: { type: 'object', properties: { known: { type: 'string' } }, additionalProperties: Line },
      pair: { type: 'array', prefixItems: [Note], items: Line },
      open: { type: 'array', prefixItems: [true, Line] },
      old: { type: 'array', items: [Note], additionalItems: Line }
    }
  }
  const locate = locator(Order, tasksOf, none)
  t.ok(locate !== null)
  const value = {
    id: 1,
    lines: [{ sku: 'a' }, 'not an object', { sku: 'b' }],
    first: { sku: 'c' },
    either: { sku: 'd', text: 'e' },
    byName: { known: 'k', x: { sku: 'f' } },
    pair: [{ text: 'g' }, { sku: 'h' }],
    open: [{ sku: 'any' }, { sku: 'k' }],
    old: [{ text: 'i' }, { sku: 'j' }],
    missing: { sku: 'no schema here' }
  }
  const sites = (locate as NonNullable<typeof locate>)({ value }, 'none')
  t.same(sites.map(site => [JSON.stringify(site.value), site.tasks, site.places[0][1]]), [
    ['{"sku":"a"}', ['line'], 0], ['{"sku":"b"}', ['line'], 2], ['{"sku":"c"}', ['line'], 'first'],
    ['{"sku":"d","text":"e"}', ['line', 'note'], 'either'], ['{"sku":"f"}', ['line'], 'x'],
    ['{"text":"g"}', ['note'], 0], ['{"sku":"h"}', ['line'], 1], ['{"sku":"k"}', ['line'], 1], ['{"text":"i"}', ['note'], 0], ['{"sku":"j"}', ['line'], 1]
  ], 'a value in two schemas of a union has the tasks of both')
  t.equal(sites[0].places[0][0], value.lines, 'in place')
  // One object in two places of two schemas: one site, with the tasks of both and both places.
  const shared = { sku: 'x', text: 'y' }
  const twice = locate?.({ value: { first: shared, either: shared } }, 'none') ?? []
  t.same(twice.map(site => [site.tasks, site.places.map(([, key]) => key)]), [[['line', 'note'], ['first', 'either']]])
  t.equal(locator({ type: 'object', properties: { id: { type: 'integer' } } }, tasksOf, none), null, 'nothing to do: no locator')
  t.equal(locator(true, tasksOf, none), null)
})

t.test('with copy, the objects on the way are copies and the value stays as it was; the same object, one copy', async t => {
  const Order: Schema = { type: 'object', properties: { lines: { type: 'array', items: Line }, meta: { type: 'object' } } }
  const locate = locator(Order, tasksOf, none) as NonNullable<ReturnType<typeof locator>>
  const line = { sku: 'a' }
  const value = { lines: [line, line], meta: { kept: true } }
  const box = { value: value as unknown }
  const sites = locate(box, 'all')
  t.equal(sites.length, 1, 'one site for the object, however many places hold it')
  t.not(box.value, value)
  const copy = box.value as typeof value
  t.not(copy.lines, value.lines)
  t.equal(copy.lines[0], copy.lines[1], 'the same object twice: the same copy')
  t.not(copy.lines[0], line)
  t.equal(copy.meta, value.meta, 'what leads to no site is shared')
  for (const site of sites) (site.value as Record<string, unknown>).sku = 'changed'
  t.same(value, { lines: [{ sku: 'a' }, { sku: 'a' }], meta: { kept: true } }, 'the value as it was')
  t.same(copy.lines, [{ sku: 'changed' }, { sku: 'changed' }], 'changed in every place')
})

t.test("with 'paths', only what holds a site is copied: a site is the caller's to replace, never to change", async t => {
  const Order: Schema = { type: 'object', properties: { lines: { type: 'array', items: Line }, first: Line, either: { anyOf: [Line, Note] } } }
  const locate = locator(Order, tasksOf, none) as NonNullable<ReturnType<typeof locator>>
  const line = { sku: 'a' }
  const value = { lines: [line], first: line, other: { kept: true } }
  const box = { value: value as unknown }
  const sites = locate(box, 'paths')
  const copy = box.value as typeof value
  t.not(copy, value, 'the body holds sites: a copy')
  t.not(copy.lines, value.lines, 'the array holds one: a copy')
  t.equal(sites.length, 1)
  t.equal(sites[0].value, line, 'the site itself is not copied')
  t.same(sites[0].places.map(([holder, key]) => [(holder as unknown) === copy.lines ? 'lines copy' : holder === copy ? 'body copy' : 'elsewhere', key]), [['lines copy', 0], ['body copy', 'first']])
  // A site met first as a leaf, then as an object that holds sites: copied then, in both its places.
  const Tree: Schema = { type: 'object', properties: { leaf: Line, inner: { type: 'object', properties: { sku: { type: 'string' }, child: Line } } } }
  const tree = locator(Tree, node => node === Line ? ['line'] : [], none) as NonNullable<ReturnType<typeof locator>>
  const both = { sku: 'x', child: { sku: 'y' } }
  const treeBox = { value: { leaf: both, inner: both } as unknown }
  const found = tree(treeBox, 'paths')
  const made = treeBox.value as { leaf: typeof both, inner: typeof both }
  t.equal(made.leaf, made.inner, 'one copy in both places')
  t.not(made.inner, both)
  t.equal(found[0].value, made.inner, 'and the site is that copy')
  t.same(both, { sku: 'x', child: { sku: 'y' } })
  // An object that holds a site only through a member of its allOf is copied too: the member is the same object.
  const Wrapped: Schema = { allOf: [{ type: 'object', properties: { first: Line } }] }
  const wrapped = locator(Wrapped, tasksOf, none) as NonNullable<ReturnType<typeof locator>>
  const held = { first: line }
  const heldBox = { value: held as unknown }
  const inWrapped = wrapped(heldBox, 'paths')
  t.not(heldBox.value, held, 'the holder, met through allOf: a copy')
  t.equal(inWrapped.length, 1)
  t.equal(inWrapped[0].places[0][0], heldBox.value, 'the site is placed in the copy')
  t.same(held, { first: line }, 'the value as it was')
})

t.test('shared schemas through $ref, recursive ones too, and a value that holds itself', async t => {
  const Tree: Schema = { $id: 'Tree', type: 'object', properties: { line: { $ref: 'Line#' }, children: { type: 'array', items: { $ref: 'Tree#' } } } }
  const shared: Record<string, Schema> = { Tree, Line }
  const locate = locator({ $ref: 'Tree' }, tasksOf, id => shared[id]) as NonNullable<ReturnType<typeof locator>>
  const value = { line: { sku: 'root' }, children: [{ line: { sku: 'child' }, children: [{ line: { sku: 'grandchild' } }] }] }
  t.same(locate({ value }, 'none').map(site => (site.value as { sku: string }).sku), ['root', 'child', 'grandchild'])
  const loop: Record<string, unknown> = { line: { sku: 'loop' } }
  loop.children = [loop]
  t.same(locate({ value: loop }, 'none').map(site => (site.value as { sku: string }).sku), ['loop'], 'each object once: a cycle ends')
  t.equal(locator({ $ref: 'Nowhere' }, tasksOf, id => shared[id]), null, 'a $ref that leads nowhere')
  const selfRef: Schema = { $id: 'Self', $ref: 'Self' }
  t.equal(locator({ $ref: 'Self' }, tasksOf, () => selfRef), null, 'a $ref to itself ends')
})

t.test('patternProperties, and values that are no objects where their schema admits them', async t => {
  const Price: Schema = { type: 'number' }
  const Tags: Schema = { type: 'array', items: { type: 'string' } }
  const Any: Schema = { description: 'anything' }
  const tasks = (node: object): string[] => node === Line ? ['line'] : node === Price ? ['price'] : node === Tags ? ['tags'] : node === Any ? ['any'] : []
  const Order: Schema = {
    type: 'object',
    properties: { price: Price, tags: Tags, either: { anyOf: [Price, Line] }, free: Any, known: Line },
    patternProperties: { '^x-': Line, '^(?:known)$': Line, '[': Line },
    additionalProperties: Price
  }
  const locate = locator(Order, tasks, none) as NonNullable<ReturnType<typeof locator>>
  const value = { price: 3, tags: ['a'], either: 4, free: null, known: { sku: 'k' }, 'x-one': { sku: 'x' }, other: 5 }
  const sites = locate({ value }, 'none')
  t.same(sites.map(site => [site.places[0][1], site.tasks, site.value]), [
    ['price', ['price'], 3],
    ['tags', ['tags'], ['a']],
    ['either', ['price'], 4],
    ['free', ['any'], null],
    ['known', ['line'], { sku: 'k' }],
    ['x-one', ['line'], { sku: 'x' }],
    ['other', ['price'], 5]
  ], 'a scalar, an array, a member of a union that admits it, a schema that admits anything; a name its pattern matches')
  t.equal(sites[4].places.length, 2, "a property its pattern matches too: both schemas' places")
  // A value of a kind its schema does not admit is no site of it.
  t.same(locate({ value: { price: 'three', tags: 'none', known: 'text' } }, 'none').map(site => site.places[0][1]), [])
  t.equal(locator({ type: 'object', patternProperties: { '^a': { type: 'string' } } }, tasks, none), null)
})

t.test('a walk keeps its own stack: a value nested far deeper than a call stack', async t => {
  const Node: Schema = { $id: 'Node', type: 'object', properties: { name: { type: 'string' }, child: { $ref: 'Node#' } } }
  const locate = locator({ $ref: 'Node#' }, node => node === Node ? ['node'] : [], () => Node) as NonNullable<ReturnType<typeof locator>>
  let value: Record<string, unknown> = { name: 'leaf' }
  for (let i = 0; i < 20_000; i++) value = { name: `n${i}`, child: value }
  const sites = locate({ value }, 'paths')
  t.equal(sites.length, 20_001)
  t.equal((sites[0].value as { name: string }).name, 'n19999', 'outer first')
  t.equal((sites.at(-1)?.value as { name: string }).name, 'leaf')
})

t.test('one object in many places is one site with every place: linear in the places', async t => {
  const locate = locator({ type: 'array', items: Line }, tasksOf, none) as NonNullable<ReturnType<typeof locator>>
  const line = { sku: 'one' }
  const value = Array.from({ length: 100_000 }, () => line)
  const box = { value: value as unknown }
  const sites = locate(box, 'paths')
  t.equal(sites.length, 1)
  t.equal(sites[0].places.length, 100_000)
  t.not(box.value, value, 'the array that holds it, copied')
})

t.test('what a schema admits, by its type or its keywords; refs that lead nowhere; a schema among its own members', async t => {
  const tasks = (node: object): string[] => (node as { tag?: string }).tag === undefined ? [] : [(node as { tag: string }).tag]
  const Order: Schema = {
    type: 'object',
    properties: {
      nullable: { tag: 'nullable', type: ['number', 'null'] },
      strange: { tag: 'strange', type: 'foo' },
      open: { tag: 'open', patternProperties: { '^a': {} } },
      more: { tag: 'more', additionalProperties: {} },
      list: { tag: 'list', items: {} },
      tuple: { tag: 'tuple', prefixItems: [{}] },
      lost: { $ref: '#/definitions/missing' },
      loop: { $ref: '#/definitions/loop' }
    },
    definitions: { loop: { tag: 'loop', anyOf: [{ type: 'string' }, { $ref: '#/definitions/loop' }] } }
  }
  const locate = locator(Order, tasks, none) as NonNullable<ReturnType<typeof locator>>
  const value = { nullable: null, strange: 1, open: { a: 1 }, more: { b: 2 }, list: [1], tuple: ['x'], lost: 1, loop: 'text', undefined }
  const found = locate({ value: { ...value, nullable: null, undefined, more: [] } }, 'none').map(site => site.tasks[0])
  t.same(found, ['nullable', 'open', 'list', 'tuple', 'loop'], 'null where null is admitted, objects where object keywords stand, arrays where array ones do, a text where a member takes one')
  const none2 = locate({ value: { nullable: 'x', strange: 'y', list: { a: 1 }, loop: undefined } }, 'none')
  t.same(none2.map(site => site.tasks[0]), [], 'a kind its schema does not admit, an unknown type, undefined')
})

t.test("a value is a site of a union only where some member admits its kind: by type, const, enum or the members' own", async t => {
  const Level: Schema = { enum: ['low', 2, null, [1], { x: 1 }, undefined] }
  const Maybe: Schema = { type: ['object', 'null'] }
  const tasks = (node: object): string[] => node === Level || node === Named || node === Deep || node === Maybe ? ['here'] : []
  const Named: Schema = { const: 'urgent' }
  // A union of unions deeper than the walk follows admits any kind.
  let Deep: Schema = { type: 'boolean' }
  for (let i = 0; i < 40; i++) Deep = { oneOf: [Deep] }
  const Order: Schema = {
    type: 'object',
    properties: {
      level: { anyOf: [Level, { type: 'boolean' }] },
      named: { oneOf: [Named, { type: 'integer' }] },
      lost: { anyOf: [{ $ref: '#/nowhere' }, { const: 'x' }] },
      deep: Deep,
      maybe: Maybe
    }
  }
  const sites = (value: unknown) => (locator(Order, tasks, none) as NonNullable<ReturnType<typeof locator<string>>>)({ value }, 'none').map(site => site.places[0][1])
  t.same(sites({ level: 'low', named: 'urgent', lost: 'y', deep: 1 }), ['level', 'named', 'deep'])
  t.same(sites({ level: true, named: 5 }), [], "another member's kind")
  t.same(sites({ level: null, maybe: null }), ['level', 'maybe'])
  t.same(sites({ maybe: undefined }), [], 'no kind')
})
