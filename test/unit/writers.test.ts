import t from 'tap'
import Fastify, { type FastifyReply } from 'fastify'
import apiVersioning, { errorObjects, type ProblemDocument, type ProblemWriter } from '../../lib/index.js'
import { build, logged, problem, says } from './helpers.js'

const asyncOnSend = async (request: unknown, reply: unknown, payload: unknown) => payload

async function app (writers: ProblemWriter[], before?: 'errorObjects') {
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'warn', stream } })
  if (before === 'errorObjects') await app.register(errorObjects)
  await app.register(apiVersioning, { problemDetails: true, problemWriters: writers })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  return { app, lines }
}

t.test('a writer re-maps a problem with reply.problem(): the built-in writers write it, once', async t => {
  let calls = 0
  const remaps: Record<string, ProblemWriter['write']> = {
    sync: ({ problem, reply }) => { calls++; return reply.problem({ ...problem, status: 404 }) },
    chained: ({ problem, reply }) => { calls++; reply.code(200).header('x-remapped', 'yes').problem({ ...problem, status: 404 }) },
    async: async ({ problem, reply }) => {
      calls++
      await new Promise(resolve => setImmediate(resolve))
      return reply.problem({ ...problem, status: 404 })
    }
  }
  for (const [name, write] of Object.entries(remaps)) {
    calls = 0
    const { app: server, lines } = await app([{ canWrite: ({ problem }) => problem.code === 'UnsupportedApiVersion', write }])
    const res = await server.inject('/a?api-version=9')
    t.equal(res.statusCode, 404, name)
    t.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', name)
    t.same(res.json(), problem('unsupported', 404), name)
    t.equal(calls, 1, `${name}: the app's writer is not asked again`)
    t.same(lines, [], `${name}: nothing logged`)
    if (name === 'chained') t.equal(res.headers['x-remapped'], 'yes')
  }
})

t.test('a problem re-mapped by a writer takes the error-object format when errorObjects is on', async t => {
  const { app: server } = await app([{ canWrite: ({ problem }) => problem.status === 400, write: ({ problem, reply }) => reply.problem({ ...problem, status: 422 }) }], 'errorObjects')
  const res = await server.inject('/a?api-version=9')
  t.equal(res.statusCode, 422)
  t.same(res.json(), { error: { code: 'UnsupportedApiVersion', message: 'Unsupported API version', target: 'api-version', innerError: { message: 'The specified API version is not supported' } } })
})

t.test('reply.problem() in a writer for what reply.problem() itself sent goes to the built-in writers too', async t => {
  const seen: number[] = []
  const { app: server, lines } = await app([{
    name: 'teapot',
    canWrite: ({ problem }) => problem.status === 418 || problem.status === 419,
    write: ({ problem, reply }) => { seen.push(problem.status); return reply.problem({ ...problem, status: problem.status + 1 }) }
  }])
  server.get('/tea', async (request, reply) => reply.problem({ status: 418, title: 'Teapot' }))
  const res = await server.inject('/tea')
  t.equal(res.statusCode, 419)
  t.same(res.json(), { type: 'about:blank', title: 'Teapot', status: 419 })
  t.same(seen, [418])
  t.same(lines, [])
})

t.test('a writer that gives reply.problem() what it cannot send is answered 500, logged once', async t => {
  const { app: server, lines } = await app([{ name: 'sloppy', canWrite: () => true, write: ({ reply }) => reply.problem({ status: 200 }) }])
  const res = await server.inject('/a?api-version=9')
  t.equal(res.statusCode, 500)
  t.match(res.json().message, /reply.problem\(\) needs a problem whose status is an integer from 400 to 599 \(got 200\)/)
  t.equal(lines.length, 1)
  t.match(lines[0].msg, /got 200/)
})

t.test('a failing writer is logged once, naming it', async t => {
  const writers: Array<[ProblemWriter, RegExp, number]> = [
    [{ name: 'throws', canWrite: () => true, write: () => { throw new Error('boom') } }, /throws failed to write a problem: boom/, 500],
    [{ canWrite: () => { throw new Error('can') }, write: () => {} }, /problemWriters\[0\] failed to write a problem: can/, 500],
    [{ name: 'lazy', canWrite: () => true, write: () => {} }, /lazy failed to write a problem: lazy neither sent the reply nor returned a promise that does/, 500],
    [{ name: 'rejects', canWrite: () => true, write: async () => { throw new Error('nope') } }, /rejects failed to write a problem: nope/, 500],
    [{ name: 'text', canWrite: () => true, write: () => { throw 'plain text' } }, /text failed to write a problem: plain text/, 500], // eslint-disable-line no-throw-literal
    [{ name: 'proxy', canWrite: () => true, write: () => { throw new Proxy({}, { get () { throw new Error('no') }, getPrototypeOf () { throw new Error('no') } }) } }, /proxy failed to write a problem: a value that cannot be read/, 500],
    [{ name: 'late', canWrite: () => true, write: async ({ reply }) => { reply.code(400).send('x'); throw new Error('late') } }, /late failed to write a problem: late/, 400],
    // Not async itself, so start-up cannot tell: never a yes, and its rejection is handled.
    [{ name: 'promised', canWrite: () => Promise.reject(new Error('later')) as never, write: () => {} }, /promised failed to write a problem: canWrite returned a promise; it must answer synchronously/, 500]
  ]
  for (const [writer, message, status] of writers) {
    const { app: server, lines } = await app([writer])
    const res = await server.inject('/a?api-version=9')
    t.equal(res.statusCode, status, String(message))
    t.equal(lines.length, 1, `${message}: one line`)
    t.match(lines[0]?.msg, /failed to write a problem/)
    t.match(lines[0]?.err?.message, message, 'the log says what the writer threw')
    t.notMatch(res.body, /\bboom\b|\bcan\b|\bnope\b/, 'the response does not')
    t.equal(lines[0]?.level, 50)
  }
  await new Promise(resolve => setImmediate(resolve))
})

t.test('reply.problem() never throws: what it cannot read is a 500, logged', async t => {
  const throwingStatus = { get status (): number { throw new Error('no status for you') } }
  const { proxy: revoked, revoke } = Proxy.revocable({ status: 400 }, {})
  revoke()
  const hostile = new Proxy({ status: 400 }, { get () { throw new Error('trap') }, getPrototypeOf () { throw new Error('proto') } })
  const throwsLater = { status: 400, get title (): string { throw new Error('title') } }
  const extension = { status: 400, get extra (): string { throw new Error('extra') } }
  const cases: Array<[string, unknown, RegExp]> = [
    ['getter', throwingStatus, /could not read the problem: no status for you/],
    ['revoked', revoked, /could not read the problem: .*revoked/],
    ['proxy', hostile, /could not read the problem: trap/],
    ['member', throwsLater, /could not read the problem: title/],
    ['extension', extension, /the built-in problemDetails writer failed to write a problem: extra/],
    ['detail', { status: 400, detail: { a: 1 } }, /reply.problem\(\) needs detail to be a string when given \(got an object\)/],
    ['type', { status: 400, type: 5 }, /needs type to be a string when given \(got number\)/],
    ['title', { status: 400, title: null }, /needs title to be a string when given \(got null\)/],
    ['code', { status: 400, code: ['x'] }, /needs code to be a string when given \(got an array\)/]
  ]
  for (const [name, given, message] of cases) {
    const { app: server, lines } = await app([])
    let threw: unknown = null
    server.get('/x', async (request, reply) => {
      try {
        reply.problem(given as ProblemDocument)
      } catch (error) {
        threw = error
      }
      return reply
    })
    const res = await server.inject('/x')
    t.equal(threw, null, `${name}: no throw`)
    t.equal(res.statusCode, 500, name)
    t.equal(lines.length, 1, `${name}: logged once`)
    t.match(lines[0]?.err?.message, message, name)
  }
})

t.test("a writer whose promise never settles is bounded by Fastify's handlerTimeout, the route's or the server's", async t => {
  const never: ProblemWriter = { name: 'never', canWrite: () => true, write: () => new Promise(() => {}) }
  const server = Fastify({ handlerTimeout: 50 })
  await server.register(apiVersioning, { problemDetails: true, problemWriters: [never] })
  server.get('/a', { apiVersions: '1.0' }, says('a'))
  const res = await server.inject('/a?api-version=9')
  t.equal(res.statusCode, 503)
  t.equal(res.json().code, 'FST_ERR_HANDLER_TIMEOUT')

  const route = Fastify()
  await route.register(apiVersioning, { problemDetails: true, problemWriters: [never] })
  route.get('/a', { apiVersions: '1.0', handlerTimeout: 50 }, says('a'))
  t.equal((await route.inject('/a?api-version=9')).statusCode, 503, "the route's own handlerTimeout holds for its version problems")
})

t.test('a problem writer may return nothing, a promise or the reply; none crashes or logs a warning', async t => {
  const writers: Record<string, ProblemWriter> = {
    returnsReply: { canWrite: () => true, write: ({ problem, reply }) => reply.code(problem.status).send({ by: 'reply' }) },
    returnsNothing: { canWrite: () => true, write: ({ problem, reply }) => { reply.code(problem.status).send({ by: 'nothing' }) } },
    returnsPromise: { canWrite: () => true, write: async ({ problem, reply }) => { await new Promise(resolve => setImmediate(resolve)); reply.code(problem.status).send({ by: 'promise' }) } }
  }
  for (const [name, writer] of Object.entries(writers)) {
    for (const withHook of [false, true]) {
      const { lines, stream } = logged()
      const app = Fastify({ logger: { level: 'warn', stream } })
      if (withHook) app.addHook('onSend', asyncOnSend)
      await app.register(apiVersioning, { problemDetails: true, problemWriters: [writer] })
      app.get('/a', { apiVersions: '1.0' }, says('a'))
      app.get('/mine', async (request, reply) => reply.problem({ status: 409 }))
      app.get('/mine-sync', (request, reply) => { reply.problem({ status: 409 }) })
      const res = await app.inject('/a?api-version=2')
      t.equal(res.statusCode, 400, `${name} ${withHook}`)
      t.same(res.json(), { by: name.slice(7).toLowerCase() }, `${name} ${withHook}`)
      t.equal((await app.inject('/mine')).statusCode, 409)
      t.equal((await app.inject('/mine-sync')).statusCode, 409)
      t.same(lines, [], `${name}, async onSend ${withHook}: nothing logged`)
      await app.close()
    }
  }
})

t.test('writing a problem leaves the reply object as Fastify made it', async t => {
  // A property set on a reply (even if deleted again) turns replies into slow objects: every later request pays.
  const owned: string[] = []
  const app = await build({ problemDetails: true, problemWriters: [{ canWrite: ({ problem }) => problem.status === 409, write: ({ reply }) => reply.code(409).send('mine') }] }, app => {
    app.addHook('onResponse', async (request, reply) => { owned.push(...Object.keys(reply).filter(key => key === 'send')) })
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    app.get('/mine', async (request, reply) => reply.problem({ status: 409 }))
  })
  t.equal((await app.inject('/a?api-version=2')).statusCode, 400)
  t.equal((await app.inject('/mine')).body, 'mine')
  t.same(owned, [])
})

t.test('a writer that throws, rejects or never sends is answered 500 and logged by name', async t => {
  const writers: Array<[ProblemWriter, string, RegExp]> = [
    [{ canWrite: () => true, write: () => { throw new Error('boom') } }, 'problemWriters[0]', /boom/],
    [{ canWrite: () => { throw new Error('can') }, write: () => {} }, 'problemWriters[0]', /can/],
    [{ name: 'lazy', canWrite: () => true, write: () => {} }, 'lazy', /lazy neither sent the reply nor returned a promise/],
    [{ name: 'later', canWrite: () => true, write: async () => {} }, 'later', /later neither sent/],
    [{ name: 'rejects', canWrite: () => true, write: async () => { throw new Error('nope') } }, 'rejects', /nope/],
    [{ name: 'odd', canWrite: () => true, write: () => Promise.reject('text') }, 'odd', /text/], // eslint-disable-line prefer-promise-reject-errors
    [{ name: 'late', canWrite: () => true, write: async ({ reply }) => { reply.code(400).send('x'); throw new Error('late') } }, 'late', /late/]
  ]
  for (const [writer, name, message] of writers) {
    const { lines, stream } = logged()
    const app = Fastify({ logger: { level: 'error', stream } })
    app.addHook('onSend', asyncOnSend)
    await app.register(apiVersioning, { problemDetails: true, problemWriters: [writer] })
    app.get('/a', { apiVersions: '1.0' }, says('a'))
    const res = await app.inject('/a?api-version=2')
    const failed = lines.find(line => line.msg.includes(`${name} failed to write a problem`))
    t.ok(failed, name)
    t.match(failed?.err?.message, message, name)
    if (name === 'late') t.equal(res.statusCode, 400, 'a reply already on its way is left alone')
    else t.equal(res.statusCode, 500, name)
    await app.close()
  }
})

t.test('reply.problem() refuses what it cannot send: a 500, never a crash or a hang', async t => {
  const cycle: Record<string, unknown> = { status: 400 }
  cycle.self = cycle
  const { lines, stream } = logged()
  const app = Fastify({ logger: { level: 'error', stream } })
  await app.register(apiVersioning, { problemDetails: true })
  app.get('/bigint', async (request, reply) => reply.problem({ status: 400, amount: 10n }))
  app.get('/cycle', async (request, reply) => reply.problem(cycle as { status: number }))
  app.get('/status/:n', async (request, reply) => reply.problem({ status: Number((request.params as { n: string }).n) }))
  app.get('/bigint-status', async (request, reply) => reply.problem({ status: 400n as unknown as number }))
  app.get('/array', async (request, reply) => reply.problem([] as unknown as { status: number }))
  for (const url of ['/bigint', '/cycle']) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 500, url)
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', url)
  }
  for (const [url, message] of [['/status/100', /got 100/], ['/status/302', /got 302/], ['/status/600', /got 600/], ['/bigint-status', /got 400n/], ['/array', /needs a problem object$/]] as const) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 500, url)
    t.match(res.json().message, message, url)
  }
  t.equal((await app.inject('/status/599')).statusCode, 599)
  t.ok(lines.some(line => /reply.problem\(\) needs a problem whose status is an integer from 400 to 599 \(got 100\)/.test(line.msg)))
})

t.test('the problem writer sees a reply it can return from an async handler', async t => {
  const app = await build({ problemDetails: true }, app => {
    app.get('/x', async (request, reply: FastifyReply) => {
      const returned = reply.problem({ status: 404, title: 'Not here' })
      t.equal(returned, reply)
      return returned
    })
  })
  t.same((await app.inject('/x')).json(), { type: 'about:blank', title: 'Not here', status: 404 })
})
