import t from 'tap'
import Fastify from 'fastify'
import { routePathKey, routerPathOptions, semicolonDelimits, type RouterPathOptions } from '../../lib/routing/route-path.js'

const STRICT: RouterPathOptions = { caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false }

// The router is the judge: two paths are one path exactly when Fastify refuses the second as a duplicate.
async function routerSays (first: string, second: string, options: RouterPathOptions): Promise<boolean> {
  const app = Fastify({ routerOptions: options })
  app.get(first, async () => 'a')
  try {
    app.get(second, async () => 'b')
    return false
  } catch (error) {
    if ((error as { code?: string }).code !== 'FST_ERR_DUPLICATED_ROUTE') throw error
    return true
  } finally {
    await app.close()
  }
}

t.test('two paths have one key exactly when the router takes them for one path', async t => {
  const pairs: Array<[string, string, Partial<RouterPathOptions>?]> = [
    ['/orders/:id', '/orders/:orderId'],
    ['/orders/:id', '/orders/:id/'],
    ['/orders/:id', '/orders/:id/', { ignoreTrailingSlash: true }],
    ['/Orders', '/orders'],
    ['/Orders', '/orders', { caseSensitive: false }],
    ['/Orders/:Id', '/orders/:id', { caseSensitive: false }],
    ['/a//b', '/a/b'],
    ['/a//b', '/a/b', { ignoreDuplicateSlashes: true }],
    ['/a/:x(\\d+)', '/a/:y(\\d+)'],
    ['/a/:x(\\d+)', '/a/:y(^[a-z]+$)'],
    ['/a/:x(\\d+)', '/a/:x'],
    ['/a/:x(^\\(\\d+$)', '/a/:y(^\\(\\d+$)'],
    ['/a/:x-:y', '/a/:p-:q'],
    ['/a/:x.:y', '/a/:x-:y'],
    ['/a/::b', '/a/::b'],
    ['/a/::b', '/a/:b'],
    ['/a/:b?', '/a/:c?'],
    ['/a/*', '/a/*'],
    ['/A::B', '/a::b', { caseSensitive: false }],
    ['/', '/'],
    ['/', '/', { ignoreTrailingSlash: true }]
  ]
  for (const [first, second, partial] of pairs) {
    const options = { ...STRICT, ...partial }
    const same = await routerSays(first, second, options)
    t.equal(routePathKey(first, options) === routePathKey(second, options), same, `${first} ${second} ${JSON.stringify(partial ?? {})}: ${same ? 'one path' : 'two paths'}`)
  }
})

t.test('router options come from routerOptions, then the deprecated top-level options', async t => {
  t.same(routerPathOptions({}), STRICT)
  t.same(routerPathOptions({ routerOptions: { caseSensitive: false }, ignoreTrailingSlash: true }), { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: false })
  t.same(routerPathOptions(Fastify({ routerOptions: { ignoreDuplicateSlashes: true } }).initialConfig), { ...STRICT, ignoreDuplicateSlashes: true })
})

t.test('an unterminated regular expression is keyed, and left to the router to refuse', async t => {
  t.equal(routePathKey('/a/:x(\\d+', STRICT), '/a/:()')
  const app = Fastify()
  const { default: apiVersioning } = await import('../../lib/index.js')
  await app.register(apiVersioning)
  t.throws(() => app.get('/a/:x(\\d+', { apiVersions: '1.0' }, async () => 'a'), /Invalid regexp expression/)
})

t.test("whether the router starts the query string at a `;` too: routerOptions first, Fastify's deprecated top-level option after", async t => {
  t.equal(semicolonDelimits({}), false)
  t.equal(semicolonDelimits({ useSemicolonDelimiter: true }), true)
  t.equal(semicolonDelimits({ routerOptions: {}, useSemicolonDelimiter: true }), true)
  t.equal(semicolonDelimits({ routerOptions: { useSemicolonDelimiter: false }, useSemicolonDelimiter: true }), false)
})
