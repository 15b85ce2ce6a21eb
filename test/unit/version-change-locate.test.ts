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
  const sites = (locate as NonNullable<typeof locate>)({ value }, false)
  t.same(sites.map(site => [JSON.stringify(site.value), site.tasks, site.places[0][1]]), [
    ['{"sku":"a"}', ['line'], 0], ['{"sku":"b"}', ['line'], 2], ['{"sku":"c"}', ['line'], 'first'],
    ['{"sku":"d","text":"e"}', ['line', 'note'], 'either'], ['{"sku":"f"}', ['line'], 'x'],
    ['{"text":"g"}', ['note'], 0], ['{"sku":"h"}', ['line'], 1], ['{"sku":"k"}', ['line'], 1], ['{"text":"i"}', ['note'], 0], ['{"sku":"j"}', ['line'], 1]
  ], 'a value in two schemas of a union has the tasks of both')
  t.equal(sites[0].places[0][0], value.lines, 'in place')
  // One object in two places of two schemas: one site, with the tasks of both and both places.
  const shared = { sku: 'x', text: 'y' }
  const twice = locate?.({ value: { first: shared, either: shared } }, false) ?? []
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
  const sites = locate(box, true)
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

t.test('shared schemas through $ref, recursive ones too, and a value that holds itself', async t => {
  const Tree: Schema = { $id: 'Tree', type: 'object', properties: { line: { $ref: 'Line#' }, children: { type: 'array', items: { $ref: 'Tree#' } } } }
  const shared: Record<string, Schema> = { Tree, Line }
  const locate = locator({ $ref: 'Tree' }, tasksOf, id => shared[id]) as NonNullable<ReturnType<typeof locator>>
  const value = { line: { sku: 'root' }, children: [{ line: { sku: 'child' }, children: [{ line: { sku: 'grandchild' } }] }] }
  t.same(locate({ value }, false).map(site => site.value.sku), ['root', 'child', 'grandchild'])
  const loop: Record<string, unknown> = { line: { sku: 'loop' } }
  loop.children = [loop]
  t.same(locate({ value: loop }, false).map(site => site.value.sku), ['loop'], 'each object once: a cycle ends')
  t.equal(locator({ $ref: 'Nowhere' }, tasksOf, id => shared[id]), null, 'a $ref that leads nowhere')
  const selfRef: Schema = { $id: 'Self', $ref: 'Self' }
  t.equal(locator({ $ref: 'Self' }, tasksOf, () => selfRef), null, 'a $ref to itself ends')
})
