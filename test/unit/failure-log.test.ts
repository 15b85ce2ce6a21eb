import t from 'tap'
import Fastify, { type FastifyBaseLogger } from 'fastify'
import apiVersioning from '../../lib/index.js'
import { failureLog } from '../../lib/util/failure-log.js'
import { says } from './helpers.js'

// The app's logger is the app's code: one whose methods throw must never fail a request the plugin logs about,
// nor end the process from a callback.
function brokenLogger (): FastifyBaseLogger {
  const down = (): never => { throw new Error('logger down') }
  const logger = {
    level: 'info',
    info () {},
    debug: down,
    trace () {},
    fatal () {},
    silent () {},
    error: down,
    warn: down,
    setBindings: down,
    child: () => logger
  }
  return logger as unknown as FastifyBaseLogger
}

t.test('a logger that throws fails no request the plugin logs about, and ends nothing', async t => {
  let clock: () => number = () => Date.parse('2026-06-01')
  const app = Fastify({ loggerInstance: brokenLogger() })
  await app.register(apiVersioning, {
    problemDetails: true,
    logApiVersion: true,
    assumeDefaultVersionWhenUnspecified: true,
    apiVersionSelector: () => { throw new Error('selector down') },
    now: () => clock(),
    policies: { '1.0': { deprecation: { date: '2026-01-01' } } },
    telemetry: { meterProvider: { getMeter: () => ({ createObservableCounter: () => ({ addCallback () {} }) }) } },
    // Sends, then fails: the failure can only be logged.
    problemWriters: [{ canWrite: ({ problem }) => problem.status === 409, write: async ({ reply }) => { await reply.code(409).send('conflict'); throw new Error('writer down') } }]
  })
  app.get('/a', { apiVersions: '1.0' }, says('a'))
  app.get('/conflict', async (request, reply) => reply.problem({ status: 409 }))
  await app.ready()
  for (let i = 0; i < 2; i++) {
    t.equal((await app.inject('/a')).statusCode, 400, 'a failing selector: Unsupported, logged (the first time at error, then at debug)')
    t.equal((await app.inject('/a?api-version=1.0')).statusCode, 200, 'a version in the log bindings, counted')
    t.equal((await app.inject('/conflict')).statusCode, 409, 'a writer that fails once its response is on its way')
  }
  clock = () => { throw new Error('clock down') }
  t.equal((await app.inject('/a?api-version=1.0')).statusCode, 200, 'a clock that fails where only telemetry reads it')
  await new Promise(resolve => setImmediate(resolve))
})

t.test('failureLog: the first failure at its level, the later ones at debug with their count', async t => {
  const seen: unknown[][] = []
  const log = {
    error: (...args: unknown[]) => seen.push(['error', ...args]),
    warn: (...args: unknown[]) => seen.push(['warn', ...args]),
    debug: (...args: unknown[]) => seen.push(['debug', ...args])
  } as unknown as FastifyBaseLogger
  const selector = failureLog('error', 'the selector failed')
  const counter = failureLog('warn', 'the counter failed')
  const [a, b, c] = [new Error('a'), new Error('b'), new Error('c')]
  selector(log, a)
  selector(log, b)
  counter(log, c)
  selector(log, c)
  t.same(seen, [
    ['error', { err: a }, 'the selector failed (logged once; later failures at debug level, counted)'],
    ['debug', { err: b, failures: 2 }, 'the selector failed'],
    ['warn', { err: c }, 'the counter failed (logged once; later failures at debug level, counted)'],
    ['debug', { err: c, failures: 3 }, 'the selector failed']
  ], 'each piece of code counts its own failures')
})
