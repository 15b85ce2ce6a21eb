// What a team writes by hand: an onRequest hook that checks a Set and answers a 400 problem. With `vary`, it also
// sends `Vary: api-version`, as it should since it reads a header (the plugin does): `node hook.mjs [vary]`.
import Fastify from 'fastify'
import { payload, ready } from './payload.mjs'

const supported = new Set(['1.0', '2.0'])
const problem = (kind, detail) => ({ type: `https://example.com/problems#${kind}`, title: 'Bad API version', status: 400, detail })

const vary = process.argv[2] === 'vary'

function checkVersion (request, reply, done) {
  if (vary) reply.header('vary', 'api-version')
  const query = request.query['api-version']
  const header = request.headers['api-version']
  const version = request.params.apiVersion ?? query ?? header
  let error = null
  if (version === undefined) error = problem('unspecified', 'An API version is required')
  else if (Array.isArray(query) || Array.isArray(header) || (query !== undefined && header !== undefined && query !== header)) error = problem('ambiguous', 'Different API versions were given')
  else if (!supported.has(version)) error = problem('unsupported', 'The API version is not supported')
  if (error !== null) return reply.code(400).type('application/problem+json').send(error)
  done()
}

const app = Fastify()
app.get('/items', { onRequest: checkVersion }, async () => payload)
app.get('/v:apiVersion/items', { onRequest: checkVersion }, async () => payload)
app.get('/health', async () => payload)
await app.listen({ port: 0, host: '127.0.0.1' })
ready(app.server.address().port)
