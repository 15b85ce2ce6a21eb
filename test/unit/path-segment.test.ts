import t from 'tap'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { segmentIn } from '../../lib/request/path-segment.js'
import { segmentPrefix } from '../../lib/routing/route-path.js'

// The version's text is read from the URL in place only where that gives what the router gives as the route
// parameter; everywhere else segmentIn says so (undefined) and the router is asked. Held here against
// find-my-way itself, through Fastify's findRoute, under each router option that changes how a URL reads.

t.test('segmentPrefix: the static text before the version, where a URL can be read in place', async t => {
  const cases: Array<[string, string | null]> = [
    ['/v:apiVersion/items', '/v'],
    ['/api/v:apiVersion', '/api/v'],
    ['/:apiVersion/items', '/'],
    ['/api//v:apiVersion/items/:id', '/api//v'],
    ['/:tenant/v:apiVersion/items', null], // another parameter first
    ['/files/:apiVersion-:name', null], // more text in its segment
    ['/v:apiVersion.json', null],
    ['/v:apiVersion(^\\d+)/items', null], // a regular expression
    ['/a::b/v:apiVersion', null], // an escaped colon
    ['/a%20b/v:apiVersion', null], // an escape the router decodes
    ['/other/:apiVersionX/v:apiVersion', null]
  ]
  for (const [url, prefix] of cases) t.equal(segmentPrefix(url, 'apiVersion'), prefix, url)
})

t.test('segmentIn: the text to the end of its segment, or undefined where the router must be asked', async t => {
  const cases: Array<[string, string | undefined]> = [
    ['/v1.0/items', '1.0'],
    ['/v1.0', '1.0'],
    ['/v2?api-version=2', '2'],
    ['/v2#top', '2'],
    ['/v2.0-beta/items/5', '2.0-beta'],
    ['/V1.0/items', undefined], // another case: the router may or may not take it
    ['//v1.0/items', undefined],
    ['/v%31/items', undefined], // decoded by the router
    ['/v1;x/items', undefined], // ';' may end the path
    ['/v/items', undefined], // empty: the router decides
    ['/v', undefined],
    ['http://a.example/v1/items', undefined]
  ]
  for (const [url, text] of cases) t.equal(segmentIn(url, '/v'), text, url)
})

const OPTIONS = [
  {},
  { caseSensitive: false },
  { ignoreTrailingSlash: true },
  { ignoreDuplicateSlashes: true },
  { useSemicolonDelimiter: true },
  { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, useSemicolonDelimiter: true }
]
const ROUTES = ['/v:apiVersion/items', '/api/v:apiVersion', '/:apiVersion/x/:id', '/API//V:apiVersion/items']

async function routers (): Promise<Array<[string, FastifyInstance]>> {
  const apps: Array<[string, FastifyInstance]> = []
  for (const routerOptions of OPTIONS) {
    for (const route of ROUTES) {
      const app = Fastify({ routerOptions })
      app.get(route, async () => 'x')
      await app.ready()
      apps.push([route, app])
    }
  }
  return apps
}

// segmentIn is asked only where the router took the route (not for a URL it refuses, which it answers with its
// bad-URL handler and no parameters): there, a text it reads is the router's. Gives false where they disagree (a
// property fails at once, rather than piling up failures).
function agrees (route: string, app: FastifyInstance, url: string): boolean {
  const found = app.findRoute({ method: 'GET', url })
  if (found === null || !('apiVersion' in found.params)) return true
  const own = segmentIn(url, segmentPrefix(route, 'apiVersion') as string)
  return own === undefined || own === found.params.apiVersion
}

t.test('what segmentIn reads is what the router reads, under every router option', async t => {
  const apps = await routers()
  const urls = ['/v1.0/items', '/v1/items/', '/v2.0-beta/items?x=/y', '/v1/items#a', '/v1%2F2/items', '/V1/items', '/v1//items',
    '//v1/items', '/api/v1', '/api/v1/', '/api/v1;a=b', '/api/V1.0', '/api/v1?q', '/1.0/x/5', '/1.0/x/5/', '/API//V2/items', '/api/v2/items']
  const disagree = apps.flatMap(([route, app]) => urls.filter(url => !agrees(route, app, url)).map(url => `${route} ${url}`))
  t.same(disagree, [])
  t.equal(segmentIn('/api/v1', segmentPrefix('/api/v:apiVersion', 'apiVersion') as string), '1', 'the common URL is read in place')
})

t.test('property: what segmentIn reads is what the router reads, for any URL', async t => {
  const apps = await routers()
  const char = fc.constantFrom('/', '/', 'v', 'V', 'api', 'API', 'x', 'items', '1', '.', '0', '-', '%', '%31', '%2F', ';', '?', '#', '=', 'é', ' ')
  fc.assert(fc.property(fc.integer({ min: 0, max: apps.length - 1 }), fc.array(char, { maxLength: 14 }), (i, parts) => {
    const [route, app] = apps[i]
    return agrees(route, app, '/' + parts.join(''))
  }), { numRuns: 20_000 })
  // Also URLs that start as the route does, where segmentIn reads most.
  fc.assert(fc.property(fc.integer({ min: 0, max: apps.length - 1 }), fc.array(char, { maxLength: 8 }), (i, parts) => {
    const [route, app] = apps[i]
    return agrees(route, app, segmentPrefix(route, 'apiVersion') + parts.join(''))
  }), { numRuns: 20_000 })
})

t.test('routes of one router node whose paths have different texts before the version: the router is asked, each route gets its versions', async t => {
  const { default: apiVersioning } = await import('../../lib/index.js')
  const cases = [
    [{ caseSensitive: false }, '/Api/v:apiVersion/items', '/api/v:apiVersion/items', { '/api/v1.0/items': 'first 1.0', '/Api/v2/items': 'second 2', '/API/V2.0/items': 'second 2.0' }],
    [{ ignoreDuplicateSlashes: true }, '/api//v:apiVersion/items', '/api/v:apiVersion/items', { '/api/v1.0/items': 'first 1.0', '/api//v2/items': 'second 2', '/api///v1/items': 'first 1' }]
  ] as const
  for (const [routerOptions, first, second, urls] of cases) {
    const app = Fastify({ routerOptions })
    await app.register(apiVersioning, { problemDetails: true, versionReader: { urlSegment: 'apiVersion' } })
    app.get(first, { apiVersions: '1.0' }, async request => `first ${request.apiVersion}`)
    app.get(second, { apiVersions: '2.0' }, async request => `second ${request.apiVersion}`)
    for (const [url, body] of Object.entries(urls)) t.equal((await app.inject(url)).body, body, `${JSON.stringify(routerOptions)} ${url}`)
    t.equal((await app.inject('/api/v3/items')).statusCode, 404, 'an unsupported version in the path')
  }
})
