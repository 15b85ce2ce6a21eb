// The servers and, for each, the request that realises each scenario and the status it must answer.
// A server without a way to express a scenario has no row for it (shown as n/a).

export const SCENARIOS = [
  ['query', 'valid version in the query'],
  ['header', 'valid version in a header'],
  ['segment', 'valid version in the URL path'],
  ['accept', 'valid version in Accept (media type)'],
  ['unsupported', 'Unsupported version'],
  ['acceptUnsupported', 'Unsupported version in Accept'],
  ['invalid', 'Invalid version'],
  ['ambiguous', 'Ambiguous version'],
  ['none', 'no version'],
  ['unversioned', 'unversioned route'],
  ['notFound', '404 path']
]

const get = (path, status, headers = {}) => ({ path, status, headers })
const av = v => ({ 'api-version': v })

// The requests our plugin gets; plain Fastify gets the same ones and answers 200 (or 404) to all.
const ours = {
  query: get('/items?api-version=1.0', 200),
  header: get('/items', 200, av('1.0')),
  segment: get('/v1.0/items', 200),
  unsupported: get('/items?api-version=9.0', 400),
  invalid: get('/items?api-version=abc', 400),
  ambiguous: get('/items?api-version=1.0&api-version=2.0', 400),
  none: get('/items', 400),
  unversioned: get('/health', 200),
  notFound: get('/nope', 404)
}
// The plugin with the media type reader: the same, and versions in Accept.
const media = {
  ...ours,
  accept: get('/items', 200, { accept: 'application/json;v=1.0' }),
  acceptUnsupported: get('/items', 400, { accept: 'application/json;v=9.0' })
}
const plainStatus = scenario => scenario === 'notFound' ? 404 : 200
// Requests that do not involve versions are the same for every server.
const unrelated = { unversioned: ours.unversioned, notFound: ours.notFound }

export const SERVERS = [
  {
    name: 'plain Fastify (the limit)',
    id: 'plain',
    args: ['servers/plain.mjs'],
    requests: Object.fromEntries(Object.entries(media).map(([k, r]) => [k, { ...r, status: plainStatus(k) }]))
  },
  { name: 'fastify-api-versioning', id: 'plugin', args: ['servers/plugin.mjs'], requests: ours },
  { name: 'fastify-api-versioning, reportApiVersions', id: 'plugin-report', args: ['servers/plugin.mjs', 'report'], requests: ours },
  { name: 'fastify-api-versioning, media type reader', id: 'plugin-media', args: ['servers/plugin.mjs', 'media'], requests: media },
  { name: 'fastify-api-versioning, with the OpenAPI entry and docs page', id: 'plugin-openapi', args: ['servers/plugin.mjs', 'openapi'], requests: ours },
  { name: 'fastify-api-versioning, an enforced sunset policy on 1.0', id: 'plugin-policy', args: ['servers/plugin.mjs', 'policy'], requests: ours },
  {
    name: 'Fastify constraints: { version }',
    id: 'fastify-constraint',
    args: ['servers/fastify-constraint.mjs'],
    requests: {
      header: get('/items', 200, { 'accept-version': '1.0.0' }),
      unsupported: get('/items', 404, { 'accept-version': '9.0.0' }),
      invalid: get('/items', 404, { 'accept-version': 'abc' }),
      none: get('/items', 404),
      ...unrelated
    }
  },
  { name: 'hand-written onRequest hook', id: 'hook', args: ['servers/hook.mjs'], requests: ours },
  { name: 'hand-written onRequest hook that also sends Vary: api-version', id: 'hook-vary', args: ['servers/hook.mjs', 'vary'], requests: ours },
  {
    name: 'NestJS, header versioning',
    id: 'nest-header',
    args: ['servers/nest.mjs', 'header'],
    requests: {
      header: ours.header,
      unsupported: get('/items', 404, av('9.0')),
      invalid: get('/items', 404, av('abc')),
      none: get('/items', 404),
      ...unrelated
    }
  },
  {
    name: 'NestJS, custom query+header',
    id: 'nest-custom',
    args: ['servers/nest.mjs', 'custom'],
    requests: {
      query: ours.query,
      header: ours.header,
      unsupported: { ...ours.unsupported, status: 404 },
      invalid: { ...ours.invalid, status: 404 },
      none: get('/items', 404),
      ...unrelated
    }
  },
  {
    name: 'hapi + hapi-api-version',
    id: 'hapi',
    args: ['servers/hapi.mjs'],
    requests: {
      header: get('/items', 200, av('1')),
      segment: get('/v1/items', 200),
      unsupported: get('/items', 400, av('9')),
      // hapi-api-version ignores a version it cannot read and serves the default one.
      invalid: get('/items', 200, av('abc')),
      none: get('/items', 200),
      ...unrelated
    }
  },
  {
    name: 'express + express-routes-versioning',
    id: 'express',
    args: ['servers/express.mjs'],
    requests: ours
  }
]
