import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startExample } from './example-server.js'
import { root } from './packed.js'

// The example service shows what changed between its versions: at /openapi/changes.json, and on the docs page
// (each document's description, which the page renders). docs/openapi.md shows both as the service serves them.
t.test('the example service serves what changed from each version to the next, and says it in each document', async t => {
  const { base } = await startExample(stop => t.teardown(stop))
  // versionChanges renamed `name` to `fullName`: one change.
  const guide = readFileSync(join(root, 'docs', 'openapi.md'), 'utf8')
  const section = guide.slice(guide.indexOf('## What changed between versions'))
  const served = await (await fetch(`${base}/openapi/changes.json`)).json()
  t.same(JSON.parse(/```json\n([\s\S]*?)```/.exec(section)?.[1] ?? 'null'), served, 'docs/openapi.md shows the list the service serves')
  const described = (await (await fetch(`${base}/openapi/2.0.json`)).json()).info.description
  t.equal(/```md\n([\s\S]*?)\n```/.exec(section)?.[1], described.slice(described.indexOf('### Changes since 1.0')), "and 2.0's description")
  const renamed = (at: string) => ({
    operation: `GET /customers${at === '' ? '/{id}' : ''}`,
    breaking: true,
    changes: [`response 200: property \`${at}fullName\` renamed from \`name\``, `response 200: required property \`${at}email\` added`],
    details: [
      { change: `response 200: property \`${at}fullName\` renamed from \`name\``, breaking: true },
      { change: `response 200: required property \`${at}email\` added`, breaking: false }
    ]
  })
  t.same(await (await fetch(`${base}/openapi/changes.json`)).json(), [
    { from: '0.9', to: '1.0', descriptions: ['One customer can be read by its id.'], added: ['GET /api/v1.0/orders/{id}', 'GET /customers/{id}'], removed: [], hidden: [], deprecated: [], changed: [] },
    {
      from: '1.0',
      to: '2.0',
      // The customers are served from versionChanges: what 2.0 changed, in its own words.
      descriptions: ["Customers have a full name (it was 'name') and an email."],
      added: ['POST /orders'],
      removed: [],
      hidden: [],
      deprecated: [],
      changed: [renamed('[].'), renamed(''), {
        operation: 'GET /orders',
        breaking: true,
        changes: ['response 200: type of `[]` changed from `string` to `object`'],
        details: [{ change: 'response 200: type of `[]` changed from `string` to `object`', breaking: true }]
      }]
    }
  ])
  const description = async (version: string) => (await (await fetch(`${base}/openapi/${version}.json`)).json()).info.description
  t.equal(await description('2.0'), 'An example of fastify-api-versioning: one document per API version.\n\n### Changes since 1.0\n\n' +
    "Customers have a full name (it was 'name') and an email.\n\n" +
    '**Breaking changes**\n\n- `GET /customers`: response 200: property `[].fullName` renamed from `name`\n- `GET /customers/{id}`: response 200: property `fullName` renamed from `name`\n' +
    '- `GET /orders`: response 200: type of `[]` changed from `string` to `object`\n\n' +
    '**Other changes**\n\n- `POST /orders` added\n- `GET /customers`: response 200: required property `[].email` added\n' +
    '- `GET /customers/{id}`: response 200: required property `email` added')
  t.match(await description('1.0'), /\n\n### Changes since 0\.9\n\nOne customer can be read by its id\.\n\n\*\*Other changes\*\*\n\n- `GET \/api\/v1\.0\/orders\/\{id\}` added\n- `GET \/customers\/\{id\}` added$/)
  t.notMatch(await description('0.9'), /Changes since/, 'the first version has none')
})
