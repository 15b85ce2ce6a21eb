import t from 'tap'
import type { FastifyRequest } from 'fastify'
import { versionValidation } from '../../lib/version-changes/version-validation.js'

// A request that is no route's (Fastify keeps a route's context on its requests): Fastify's default error text.
t.test('without the route\'s context, errors are written as Fastify\'s default formatter writes them', async t => {
  const validate = Object.assign(() => false, { errors: [{ instancePath: '/id', message: 'must be integer' }, { message: 'must be object' }] })
  const request = { body: { id: 'x' }, headers: {}, compileValidationSchema: () => validate } as unknown as FastifyRequest
  const error = versionValidation({ body: { type: 'object' } })?.(request) as Error & { statusCode: number, validationContext: string }
  t.same([error.message, error.statusCode, error.validationContext], ['body/id must be integer, body must be object', 400, 'body'])
  const none = Object.assign(() => false, { errors: 'not a list' })
  const other = { body: {}, headers: {}, compileValidationSchema: () => none } as unknown as FastifyRequest
  t.equal((versionValidation({ body: {} })?.(other) as Error).message, '', 'errors that are no list: none to name')
  t.equal(versionValidation({ hide: true }), null, 'a schema with no part to validate')
})

t.test('each kind of answer of a validator, as Fastify takes it; header names in lower case through compositions', async t => {
  const compiled: unknown[] = []
  const request = (body: unknown, answer: (data: unknown) => unknown, headers: Record<string, string> = {}) => ({
    body,
    headers,
    compileValidationSchema: (schema: unknown) => {
      compiled.push(schema)
      return Object.assign((data: unknown) => answer(data), { errors: [{ message: 'no' }] })
    }
  }) as unknown as FastifyRequest
  const message = async (result: unknown): Promise<string | false> => {
    const settled = await result
    return settled === false ? false : (settled as Error).message
  }
  const validate = versionValidation({ body: { type: 'object' } }) as NonNullable<ReturnType<typeof versionValidation>>
  t.equal(await message(validate(request(undefined, data => data === null))), false, 'no body: null, as Fastify gives it')
  t.equal(await message(versionValidation({ body: {} })?.(request({}, async () => false))), 'body no', 'an async validator that fails')
  t.equal(await message(versionValidation({ body: {} })?.(request({}, async () => true))), false, 'one that passes')
  t.equal(await message(versionValidation({ body: {} })?.(request({}, () => ({ error: new Error('its own') })))), 'its own', '{ error }')
  const replaced = request({ a: 1 }, () => ({ value: { b: 2 } }))
  t.equal(await message(versionValidation({ body: {} })?.(replaced)), false)
  t.same(replaced.body, { b: 2 }, '{ value } replaces the part')
  const byType = versionValidation({ body: { content: { 'application/json': { schema: {} } } } }) as NonNullable<ReturnType<typeof versionValidation>>
  t.equal(await message(byType(request({}, () => false))), false, 'no Content-Type: no schema of it')

  compiled.length = 0
  versionValidation({ headers: { allOf: [{ type: 'object', properties: { 'X-A': { type: 'string' } }, required: ['X-A', 7] }, true], not: { required: ['X-B'] } } })?.(request({}, () => true))
  t.same(compiled, [{ allOf: [{ type: 'object', properties: { 'x-a': { type: 'string' } }, required: ['x-a', 7] }, true], not: { required: ['x-b'] } }])
})
