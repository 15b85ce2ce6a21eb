import t from 'tap'
import { startExample } from './example-server.js'

// The example service shows what changed between its versions: at /openapi/changes.json, and on the docs page
// (each document's description, which the page renders).
t.test('the example service serves what changed from each version to the next, and says it in each document', async t => {
  const { base } = await startExample(stop => t.teardown(stop))
  t.same(await (await fetch(`${base}/openapi/changes.json`)).json(), [
    { from: '0.9', to: '1.0', descriptions: [], added: ['GET /api/v1.0/orders/{id}'], removed: [], deprecated: [], changed: [] },
    {
      from: '1.0',
      to: '2.0',
      descriptions: [],
      added: ['POST /orders'],
      removed: [],
      deprecated: [],
      changed: [{
        operation: 'GET /orders',
        breaking: true,
        changes: ['response 200: type of `[]` changed from `string` to `object`'],
        details: [{ change: 'response 200: type of `[]` changed from `string` to `object`', breaking: true }]
      }]
    }
  ])
  const description = async (version: string) => (await (await fetch(`${base}/openapi/${version}.json`)).json()).info.description
  t.equal(await description('2.0'), 'An example of fastify-api-versioning: one document per API version.\n\n### Changes since 1.0\n\n' +
    '**Breaking changes**\n\n- `GET /orders`: response 200: type of `[]` changed from `string` to `object`\n\n' +
    '**Other changes**\n\n- `POST /orders` added')
  t.match(await description('1.0'), /\n\n### Changes since 0\.9\n\n\*\*Other changes\*\*\n\n- `GET \/api\/v1\.0\/orders\/\{id\}` added$/)
  t.notMatch(await description('0.9'), /Changes since/, 'the first version has none')
})
