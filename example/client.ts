// A client of the example service, typed from its OpenAPI documents: openapi-typescript writes each version's
// document as ./generated/{version}.ts, and openapi-fetch calls the service with those types. It calls every
// operation of every version, and answers each documented response (status and media type) once, narrowing the
// body to the type its document gives. test/package/openapi-client.test.ts generates the types, type-checks this file
// (`tsc --noEmit --strict`) and runs it against the service.
import createClient from 'openapi-fetch'
import type * as V0_9 from './generated/0.9.js'
import type * as V1_0 from './generated/1.0.js'
import type * as V2_0 from './generated/2.0.js'

/** A response as received: the program expected this status and media type, and so did the types. */
export interface Call {
  version: string
  operationId: string
  status: number
  mediaType: string
  body: unknown
}

type ContentOf<R> = R extends { content: infer C } ? C : never
interface Result { response: Response, data?: unknown, error?: unknown }
/** What openapi-fetch types a result's body as: the union of the success bodies, or of the error bodies. */
type BodyOf<R extends Result> = NonNullable<R['data']> | NonNullable<R['error']>

// What the types forbid, sent on purpose: a version the document does not list, a body or parameter of the wrong type.
const untyped = (value: unknown): never => value as never

export async function callEverything (baseUrl: string): Promise<Call[]> {
  const calls: Call[] = []
  /**
   * Narrows openapi-fetch's body (the union over an operation's responses) to the type its document gives the
   * response's `status` and `mediaType`: only a documented status and media type compile, and only a body type
   * that is in openapi-fetch's union is usable. At run time the response must be the one expected.
   */
  function expect<Op extends { responses: object }> (version: string, operationId: string) {
    return <R extends Result, S extends keyof Op['responses'] & number, M extends keyof ContentOf<Op['responses'][S]> & string>(
      result: R, status: S, mediaType: M
    ): Extract<BodyOf<R>, ContentOf<Op['responses'][S]>[M]> => {
      const received = result.response.headers.get('content-type')?.split(';')[0]
      if (result.response.status !== status || received !== mediaType) {
        throw new Error(`${version} ${operationId}: expected ${status} ${mediaType}, got ${result.response.status} ${received}`)
      }
      const body = result.response.ok ? result.data : result.error
      calls.push({ version, operationId, status, mediaType, body })
      return body as Extract<BodyOf<R>, ContentOf<Op['responses'][S]>[M]>
    }
  }

  // 0.9, deprecated: the items ordered, and health.
  const v09 = createClient<V0_9.paths>({ baseUrl })
  const listOrderItems09 = expect<V0_9.operations['listOrderItems']>('0.9', 'listOrderItems')
  const items: string[] = listOrderItems09(await v09.GET('/orders', { params: { query: { 'api-version': '0.9' } } }), 200, 'application/json')
  const unsupported = listOrderItems09(await v09.GET('/orders', { params: { query: { 'api-version': untyped('3.0') } } }), 400, 'application/problem+json')
  check(items.length > 0 && unsupported.code === 'UnsupportedApiVersion', 'GET /orders at 0.9')
  const health09 = expect<V0_9.operations['health']>('0.9', 'health')
  const healthy09 = health09(await v09.GET('/health'), 200, 'application/json')
  const unreadable09 = health09(await v09.GET('/health', { params: { query: untyped({ 'api-version': '1.' }) } }), 400, 'application/problem+json')
  check(healthy09.status === 'ok' && unreadable09.code === 'InvalidApiVersion', 'GET /health at 0.9')
  const listCustomers09 = expect<V0_9.operations['listCustomers']>('0.9', 'listCustomers')
  const customers09 = listCustomers09(await v09.GET('/customers', { params: { query: { 'api-version': '0.9' } } }), 200, 'application/json')
  const unsupportedCustomers09 = listCustomers09(await v09.GET('/customers', { params: { query: { 'api-version': untyped('0.8') } } }), 400, 'application/problem+json')
  check(customers09[0].name === 'Ada Lovelace' && unsupportedCustomers09.status === 400, 'GET /customers at 0.9: the name of 0.9')

  // 1.0: the items ordered (the version in a header), one order with the version in its path, health.
  const v10 = createClient<V1_0.paths>({ baseUrl })
  const listOrderItems10 = expect<V1_0.operations['listOrderItems']>('1.0', 'listOrderItems')
  listOrderItems10(await v10.GET('/orders', { params: { query: untyped({}), header: { 'api-version': '1.0' } } }), 200, 'application/json')
  const unspecified = listOrderItems10(await v10.GET('/orders', { params: { query: untyped({}) } }), 400, 'application/problem+json')
  check(unspecified.code === 'ApiVersionUnspecified', 'GET /orders without a version')
  const getOrder10 = expect<V1_0.operations['getOrder']>('1.0', 'getOrder')
  const order10 = getOrder10(await v10.GET('/api/v1.0/orders/{id}', { params: { path: { id: 1 } } }), 200, 'application/json')
  const missing10 = getOrder10(await v10.GET('/api/v1.0/orders/{id}', { params: { path: { id: 99 } } }), 404, 'application/problem+json')
  const notAnId10 = getOrder10(await v10.GET('/api/v1.0/orders/{id}', { params: { path: { id: untyped('one') } } }), 400, 'application/json')
  const pathVersion10 = getOrder10(await v10.GET('/api/v9.0/orders/{id}' as string as '/api/v1.0/orders/{id}', { params: { path: { id: 1 } } }), 404, 'application/problem+json')
  const invalidPath10 = getOrder10(await v10.GET('/api/vx/orders/{id}' as string as '/api/v1.0/orders/{id}', { params: { path: { id: 1 } } }), 400, 'application/problem+json')
  check(order10.item === 'tea' && missing10.title === 'No such order' && notAnId10.code === 'FST_ERR_VALIDATION' &&
    pathVersion10.code === 'UnsupportedApiVersion' && invalidPath10.code === 'InvalidApiVersion', 'GET /api/v1.0/orders/{id}')
  const health10 = expect<V1_0.operations['health']>('1.0', 'health')
  const healthy10 = health10(await v10.GET('/health'), 200, 'application/json')
  const unsupported10 = health10(await v10.GET('/health', { headers: { 'api-version': '7.0' } }), 400, 'application/problem+json')
  check(healthy10.status === 'ok' && unsupported10.code === 'UnsupportedApiVersion', 'GET /health at 1.0')
  const v10query = { query: { 'api-version': '1.0' } } as const
  const listCustomers10 = expect<V1_0.operations['listCustomers']>('1.0', 'listCustomers')
  const customers10 = listCustomers10(await v10.GET('/customers', { params: v10query }), 200, 'application/json')
  const noVersionCustomers10 = listCustomers10(await v10.GET('/customers', { params: untyped({}) }), 400, 'application/problem+json')
  const getCustomer10 = expect<V1_0.operations['getCustomer']>('1.0', 'getCustomer')
  const customer10 = getCustomer10(await v10.GET('/customers/{id}', { params: { ...v10query, path: { id: 1 } } }), 200, 'application/json')
  const noCustomer10 = getCustomer10(await v10.GET('/customers/{id}', { params: { ...v10query, path: { id: 9 } } }), 404, 'application/problem+json')
  const notACustomerId10 = getCustomer10(await v10.GET('/customers/{id}', { params: { ...v10query, path: { id: untyped('ada') } } }), 400, 'application/json')
  const customerVersion10 = getCustomer10(await v10.GET('/customers/{id}', { params: { query: { 'api-version': untyped('0.9') }, path: { id: 1 } } }), 400, 'application/problem+json')
  check(customers10[0].name === 'Ada Lovelace' && noVersionCustomers10.code === 'ApiVersionUnspecified' && customer10.name === 'Ada Lovelace' &&
    noCustomer10.title === 'No such customer' && notACustomerId10.code === 'FST_ERR_VALIDATION' && customerVersion10.code === 'UnsupportedApiVersion', 'the customers at 1.0')

  // 2.0: the orders, placing one (with a bearer token), one order, health.
  const v20 = createClient<V2_0.paths>({ baseUrl })
  const version = { query: { 'api-version': '2.0' } } as const
  const listOrders = expect<V2_0.operations['listOrders']>('2.0', 'listOrders')
  const orders = listOrders(await v20.GET('/orders', { params: version }), 200, 'application/json')
  const ambiguous = listOrders(await v20.GET('/orders', { params: { ...version, header: { 'api-version': untyped('1.0') } } }), 400, 'application/problem+json')
  check(orders[0].id === 1 && ambiguous.code === 'AmbiguousApiVersion', 'GET /orders at 2.0')
  const placeOrder = expect<V2_0.operations['placeOrder']>('2.0', 'placeOrder')
  const token = { authorization: 'Bearer demo' }
  const placed = placeOrder(await v20.POST('/orders', { params: version, headers: token, body: { item: 'jam', quantity: 3 } }), 201, 'application/json')
  const invalid = placeOrder(await v20.POST('/orders', { params: version, headers: token, body: { item: 'jam', quantity: 0 } }), 400, 'application/json')
  const wrongVersion = placeOrder(await v20.POST('/orders', { params: { query: { 'api-version': untyped('9.0') } }, headers: token, body: { item: 'jam', quantity: 1 } }), 400, 'application/problem+json')
  const anonymous = placeOrder(await v20.POST('/orders', { params: version, body: { item: 'jam', quantity: 1 } }), 401, 'application/problem+json')
  check(placed.item === 'jam' && invalid.statusCode === 400 && invalid.code === 'FST_ERR_VALIDATION' &&
    wrongVersion.code === 'UnsupportedApiVersion' && anonymous.status === 401, 'POST /orders')
  const getOrder20 = expect<V2_0.operations['getOrder']>('2.0', 'getOrder')
  const order20 = getOrder20(await v20.GET('/api/v2.0/orders/{id}', { params: { path: { id: placed.id } } }), 200, 'application/json')
  const missing20 = getOrder20(await v20.GET('/api/v2.0/orders/{id}', { params: { path: { id: 99 } } }), 404, 'application/problem+json')
  const notAnId20 = getOrder20(await v20.GET('/api/v2.0/orders/{id}', { params: { path: { id: untyped('one') } } }), 400, 'application/json')
  const pathVersion20 = getOrder20(await v20.GET('/api/v3/orders/{id}' as string as '/api/v2.0/orders/{id}', { params: { path: { id: 1 } } }), 404, 'application/problem+json')
  const invalidPath20 = getOrder20(await v20.GET('/api/v2.x/orders/{id}' as string as '/api/v2.0/orders/{id}', { params: { path: { id: 1 } } }), 400, 'application/problem+json')
  check(order20.quantity === 3 && missing20.instance === '/api/v2.0/orders/99' && notAnId20.message.includes('integer') &&
    pathVersion20.status === 404 && invalidPath20.status === 400, 'GET /api/v2.0/orders/{id}')
  const health20 = expect<V2_0.operations['health']>('2.0', 'health')
  const healthy20 = health20(await v20.GET('/health', { params: untyped(version) }), 200, 'application/json')
  const ambiguous20 = health20(await v20.GET('/health', { params: untyped({ query: { 'api-version': ['1.0', '2.0'] } }) }), 400, 'application/problem+json')
  check(healthy20.status === 'ok' && ambiguous20.code === 'AmbiguousApiVersion', 'GET /health at 2.0')
  const listCustomers20 = expect<V2_0.operations['listCustomers']>('2.0', 'listCustomers')
  const customers20 = listCustomers20(await v20.GET('/customers', { params: version }), 200, 'application/json')
  const invalidCustomers20 = listCustomers20(await v20.GET('/customers', { params: { query: { 'api-version': untyped('2.') } } }), 400, 'application/problem+json')
  const getCustomer20 = expect<V2_0.operations['getCustomer']>('2.0', 'getCustomer')
  const customer20 = getCustomer20(await v20.GET('/customers/{id}', { params: { ...version, path: { id: 1 } } }), 200, 'application/json')
  const noCustomer20 = getCustomer20(await v20.GET('/customers/{id}', { params: { ...version, path: { id: 9 } } }), 404, 'application/problem+json')
  const notACustomerId20 = getCustomer20(await v20.GET('/customers/{id}', { params: { ...version, path: { id: untyped('ada') } } }), 400, 'application/json')
  const customerVersion20 = getCustomer20(await v20.GET('/customers/{id}', { params: { query: { 'api-version': untyped('3.0') }, path: { id: 1 } } }), 400, 'application/problem+json')
  check(customers20[0].fullName === 'Ada Lovelace' && invalidCustomers20.code === 'InvalidApiVersion' && customer20.email === 'ada@example.com' &&
    noCustomer20.instance === '/customers/9?api-version=2.0' && notACustomerId20.code === 'FST_ERR_VALIDATION' && customerVersion20.code === 'UnsupportedApiVersion', 'the customers at 2.0: one handler')
  return calls
}

function check (ok: boolean, what: string): void {
  if (!ok) throw new Error(`${what}: not the body expected`)
}
