import t from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import { routeLine, routesSoFar } from '../../lib/routing/routes-so-far.js'

// What printRoutes' lines meant to the regex the parser replaces: the reference the parser must agree with.
const REFERENCE = /^(.*?) \(([A-Z, ]+)\)(?: (\{.*\}))?$/
const reference = (line: string) => {
  const match = REFERENCE.exec(line)
  return match === null ? null : { text: match[1], methods: match[2], constraints: match[3] ?? '' }
}

t.test('a line of printRoutes: its text, methods and constraints', async t => {
  const rows: Array<[string, ReturnType<typeof routeLine>]> = [
    ['/orders (GET, HEAD)', { text: '/orders', methods: 'GET, HEAD', constraints: '' }],
    ['/orders (GET, HEAD) {"apiVersion":["1.0 (deprecated)"]}', { text: '/orders', methods: 'GET, HEAD', constraints: '{"apiVersion":["1.0 (deprecated)"]}' }],
    ['/a (b) (POST)', { text: '/a (b)', methods: 'POST', constraints: '' }],
    ['/a (GET) x (POST)', { text: '/a (GET) x', methods: 'POST', constraints: '' }],
    ['/a (GET) {x} (POST)', { text: '/a (GET) {x}', methods: 'POST', constraints: '' }],
    [':id(^\\d+$) (GET)', { text: ':id(^\\d+$)', methods: 'GET', constraints: '' }],
    ['/orders (GET) {', null],
    ['/orders (GET) x', null],
    ['/orders ()', null],
    ['/orders', null],
    ['orders/', null],
    ['', null]
  ]
  for (const [line, expected] of rows) {
    t.same(routeLine(line), expected, JSON.stringify(line))
    t.same(routeLine(line), reference(line), `${JSON.stringify(line)}, as the regex read it`)
  }
})

t.test('the parser reads every line as the regex did', async t => {
  const piece = fc.constantFrom(' (', ')', ' ', '(', 'GET', ', ', 'A', 'x', '/', ' {', '}', '{', '"')
  fc.assert(fc.property(fc.array(piece, { maxLength: 24 }).map(parts => parts.join('')), line => {
    t.same(routeLine(line), reference(line), JSON.stringify(line))
  }), { numRuns: 500 })
})

t.test('a line of many " (" is read in one pass', async t => {
  // The regex read the rest of the line again at each " (": a million characters took hours. One pass, milliseconds.
  const hostile = '/a' + ' (A'.repeat(333_333)
  t.equal(routeLine(hostile), null)
  t.same(routeLine(hostile + ' (GET)'), { text: hostile, methods: 'GET', constraints: '' })
})

t.test('the routes of the router, by their full paths', async t => {
  const app = Fastify()
  app.get('/orders', async () => [])
  app.get('/orders/:id', async () => ({}))
  app.post('/orders', { constraints: { host: 'a.example' } }, async () => ({}))
  t.same(routesSoFar(app), [
    { path: '/orders', methods: ['GET', 'HEAD'], constraints: '' },
    { path: '/orders', methods: ['POST'], constraints: '{"host":"a.example"}' },
    { path: '/orders/:id', methods: ['GET', 'HEAD'], constraints: '' }
  ])
})
