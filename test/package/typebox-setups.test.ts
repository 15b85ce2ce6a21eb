import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { appWithPackage, tsc } from './packed.js'

// @sinclair/typebox is an optional peer of the package, for the types of ProblemDetailsSchema: each TypeBox an
// app may have, with its type provider, types the schema inside its own TypeBox types and routes (strict; each of
// its @ts-expect-error lines must meet its error, or tsc fails) and serves problems through it. The app's code is
// compiled by tsc and the JavaScript it emits is what runs. That the package's own declaration files compile though
// the import of the peer finds nothing is checked strictly in package.test.ts, in an app without it.
const setups: Array<{ name: string, typebox: [string, string], provider: string }> = [
  { name: '@sinclair/typebox 0.34 with @fastify/type-provider-typebox 5', typebox: ['@sinclair/typebox', '@sinclair/typebox'], provider: 'type-provider-typebox' },
  { name: '@sinclair/typebox 0.33 with @fastify/type-provider-typebox 5', typebox: ['@sinclair/typebox', '@sinclair/typebox-0.33'], provider: 'type-provider-typebox' },
  { name: 'typebox 1.x with @fastify/type-provider-typebox 6, and no @sinclair/typebox', typebox: ['typebox', 'typebox'], provider: 'type-provider-typebox-6' }
]

const source = (typebox: string): string => `
import Fastify from 'fastify'
import { Type, type Static } from '${typebox}'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import apiVersioning, { ProblemDetailsSchema, type ProblemDetails } from 'fastify-api-versioning'

const Problems = Type.Array(ProblemDetailsSchema)
export const list: Static<typeof Problems> = [{ status: 404, title: 'Not found' }]
export const one: ProblemDetails = { ...list[0], traceId: 'abc' }
// @ts-expect-error: a member of the problem keeps its type
export const wrong: Static<typeof Problems> = [{ status: '404' }]

const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()
await app.register(apiVersioning, { problemDetails: true })
app.get('/orders/:id', {
  apiVersions: '1.0',
  schema: {
    params: Type.Object({ id: Type.Integer() }),
    response: { 200: Type.Object({ id: Type.Integer() }), 404: ProblemDetailsSchema, 409: Problems }
  }
}, async (request, reply) => {
  const id: number = request.params.id
  if (id === 0) return reply.code(404).send({ status: 404, title: 'Not found', code: 'NoOrder' })
  if (id === 1) return reply.code(409).send([{ status: 409, title: 'Conflict' }, { title: 'Again' }])
  // @ts-expect-error: the problem's members keep their types in a route
  if (id === 2) return reply.code(404).send({ status: '404' })
  return { id }
})
const replies = await Promise.all(['/orders/0', '/orders/1', '/orders/3', '/orders/3?api-version=9'].map(url => app.inject(url + (url.includes('?') ? '' : '?api-version=1.0'))))
console.log(JSON.stringify(replies.map(reply => [reply.statusCode, reply.json()])))
`

for (const { name, typebox: [as, from], provider } of setups) {
  t.test(name, async t => {
    const app = appWithPackage(t.teardown)
    for (const dep of ['fastify', 'fast-json-stringify', '@types/node']) app.link(dep)
    app.link(as, from)
    // A copy, so that its types import the app's TypeBox, not the repository's.
    app.copy('@fastify/type-provider-typebox', `@fastify/${provider}`)
    t.equal(existsSync(join(app.modules, '@sinclair', 'typebox')), as === '@sinclair/typebox', 'the TypeBox packages are those of the set-up')
    app.write('app.mts', source(as))
    app.write('tsconfig.json', JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, outDir: 'out', types: ['node'], skipLibCheck: true },
      files: ['app.mts']
    }))
    t.equal(tsc(app.dir, 'tsconfig.json'), '', 'types: ProblemDetailsSchema in Type.Array, in a type provider route')
    t.same(JSON.parse(app.node('out/app.mjs')), [
      [404, { type: 'about:blank', title: 'Not found', status: 404, code: 'NoOrder' }],
      [409, [{ type: 'about:blank', title: 'Conflict', status: 409 }, { type: 'about:blank', title: 'Again' }]],
      [200, { id: 3 }],
      [400, { type: 'https://docs.api-versioning.org/problems#unsupported', title: 'Unsupported API version', status: 400, detail: 'The specified API version is not supported', code: 'UnsupportedApiVersion' }]
    ], 'run time: the problems are served through the schema')
  })
}
