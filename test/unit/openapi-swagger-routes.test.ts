import t from 'tap'
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import { registerCollecting } from '../../lib/openapi/swagger-routes.js'

// @fastify/swagger's own onRoute hook, caught as it registers, so that routes only the documents have reach it.

t.test('the first onRoute hook a plugin registers is given back; the instance\'s addHook as it was', async t => {
  for (const scoped of [false, true]) {
    const root = Fastify()
    const seen: string[] = []
    const plugin = Object.assign(async (instance: FastifyInstance) => {
      instance.addHook('onReady', async () => {})
      instance.addHook('onRoute', route => { seen.push(`first ${String(route.url)}`) })
      instance.addHook('onRoute', route => { seen.push(`second ${String(route.url)}`) })
    }, { [Symbol.for('skip-override')]: true })
    const at = async (instance: FastifyInstance): Promise<void> => {
      const before = Object.getOwnPropertyDescriptor(instance, 'addHook')
      const collect = await registerCollecting(instance, plugin as never, {})
      collect({ url: '/only-documented', method: 'GET' } as RouteOptions)
      t.same(Object.getOwnPropertyDescriptor(instance, 'addHook'), before, `${scoped ? 'a scope' : 'the root'}: addHook as it was`)
      instance.post('/real', async () => 'ok')
    }
    if (scoped) await root.register(async scope => { await at(scope) })
    else await at(root)
    await root.ready()
    t.same(seen, ['first /only-documented', 'first /real', 'second /real'])
  }
})

t.test('a plugin that registers no onRoute hook cannot document what only the documents have: start-up says so', async t => {
  const root = Fastify()
  const plugin = Object.assign(async () => {}, { [Symbol.for('skip-override')]: true })
  await t.rejects(registerCollecting(root, plugin as never, {}), { code: 'FST_API_VERSIONING_MISSING_PEER', message: /@fastify\/swagger registered no onRoute hook, so the older versions of versionChanges routes could not be documented/ })
})
