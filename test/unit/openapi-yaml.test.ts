import t from 'tap'
import { parse } from 'yaml'
import { toYaml } from '../../lib/openapi/yaml.js'

t.test('JSON data as YAML that reads back the same', async t => {
  const values: unknown[] = [
    { openapi: '3.1.0', info: { title: 'a: b # c', version: '1.0' } },
    { paths: { '/a/{id}': { get: { responses: { 200: { description: 'ok' }, '4XX': { description: 'x' } } } } } },
    { list: [undefined, 1, 'two', true, null, [], {}, [3, [4]], { a: 1, b: [{ c: 'd' }] }], empty: {}, none: [] },
    { yes: 'no', true: 'false', null: 'null', '': 'empty', '-lead': '- x', 'x-y.z': '\n\t"\\', ünï: 'ü', $ref: '#/x', '1e3': 1e3, on: 0.5, dropped: undefined },
    [{ a: 1 }, [], 'x'],
    'scalar',
    42,
    null,
    {},
    []
  ]
  for (const value of values) {
    const text = toYaml(value)
    t.same(parse(text), JSON.parse(JSON.stringify(value)), text)
    t.ok(text.endsWith('\n'))
  }
  t.equal(toYaml({ a: { b: [1, { c: 'd', e: 'f' }] } }), 'a:\n  b:\n    - 1\n    - c: "d"\n      e: "f"\n')
})
