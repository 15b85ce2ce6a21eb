import t from 'tap'
import { versionChange, type EndpointInstruction } from '../../lib/index.js'
import { versionsOfEndpoint } from '../../lib/version-changes/endpoints.js'
import { resolveVersionList } from '../../lib/version-changes/version-list.js'

// The versions 4.0 (newest) to 1.0, the endpoint instructions of each.
function list (byVersion: Record<string, EndpointInstruction[]>) {
  return resolveVersionList(['4.0', '3.0', '2.0', '1.0'].map(version => ({
    version,
    changes: byVersion[version] === undefined ? [] : [versionChange({ description: `${version}'s endpoints.`, endpoints: byVersion[version] })]
  }))) as NonNullable<ReturnType<typeof resolveVersionList>>
}

t.test('the versions an endpoint exists in, from its instructions', async t => {
  const get = { method: 'GET', url: '/orders/:id' }
  const rows: Array<[Record<string, EndpointInstruction[]>, boolean[], string]> = [
    [{}, [true, true, true, true], 'no instruction: every version'],
    [{ '3.0': [{ ...get, added: true }] }, [true, true, false, false], 'added in 3.0: from 3.0 on'],
    [{ '3.0': [{ ...get, removed: true }] }, [false, false, true, true], 'removed in 3.0: only before it'],
    [{ '2.0': [{ ...get, added: true }], '4.0': [{ ...get, removed: true }] }, [false, true, true, false], 'added, then removed'],
    [{ '2.0': [{ ...get, removed: true }], '4.0': [{ ...get, added: true }] }, [true, false, false, true], 'removed, then back'],
    [{ '3.0': [{ method: ['POST', 'get'], url: '/orders/:id', added: true }] }, [true, true, false, false], 'one of its methods'],
    [{ '3.0': [{ method: 'POST', url: '/orders/:id', added: true }, { method: 'GET', url: '/orders', added: true }] }, [true, true, true, true], 'another endpoint']
  ]
  for (const [byVersion, expected, label] of rows) t.same(versionsOfEndpoint(list(byVersion), 'GET', '/orders/:id'), expected, label)
})

t.test("one version's instructions for an endpoint that contradict each other, or say one thing twice, fail at once, naming them", async t => {
  const get = { method: 'GET', url: '/audit' }
  const rows: Array<[EndpointInstruction[], RegExp]> = [
    [[{ ...get, hidden: true }, { ...get, removed: true }], /the change of 3\.0, endpoints\[0\], says GET \/audit is hidden from 3\.0 on, but endpoints\[1\] removes it from 3\.0 on, where no document has it: give one of them/],
    [[{ ...get, removed: true }, { ...get, deprecated: true }], /endpoints\[1\], says GET \/audit is deprecated from 3\.0 on, but endpoints\[0\] removes it/],
    [[{ ...get, changed: { url: '/old' } }, { method: ['post', 'GET'], url: '/audit', changed: { url: '/older' } }], /endpoints\[1\], says the older URL of GET \/audit again \(endpoints\[0\] says it\): a version says it once; give one instruction/],
    [[{ ...get, changed: { summary: 'A' } }, { ...get, changed: { summary: 'B', status: 200 } }], /endpoints\[1\], says the older summary of GET \/audit again/],
    [[{ ...get, deprecated: true }, { ...get, deprecated: { link: 'https://example.com' } }], /endpoints\[1\], says GET \/audit is deprecated again/]
  ]
  for (const [endpoints, message] of rows) t.throws(() => list({ '3.0': endpoints }), { code: 'FST_API_VERSIONING_INVALID_OPTION', message })
  // An endpoint a later version moves is one, named by the URL of its time or as declared.
  t.throws(() => list({
    '4.0': [{ method: 'GET', url: '/orders', changed: { url: '/audit' } }],
    '3.0': [{ ...get, changed: { summary: 'A' } }, { method: 'GET', url: '/orders', changed: { summary: 'B' } }]
  }), { message: /the change of 3\.0, endpoints\[1\], says the older summary of GET \/orders again \(endpoints\[0\] says it\)/ })
  // Where it is, in an older change: the URL it had then.
  const moved = { method: 'GET', url: '/orders', changed: { url: '/bills' } }
  const olders: EndpointInstruction[] = [{ method: 'GET', url: '/orders', changed: { url: '/invoices' } }, { method: 'GET', url: '/orders', added: true }, { method: 'GET', url: '/orders', removed: true }]
  for (const older of olders) {
    t.throws(() => list({ '4.0': [moved], '3.0': [older] }), { message: /the change of 3\.0, endpoints\[0\], says where GET \/orders is in 3\.0, but it is there only from 4\.0 on, which moves it there: an instruction that adds, removes or moves an endpoint names the URL it had in its version/ })
  }
  t.ok(list({ '4.0': [moved], '3.0': [{ method: 'GET', url: '/bills', changed: { url: '/invoices' } }, { method: 'GET', url: '/orders', changed: { summary: 'Bills' } }] }), 'the URL of its time, and a description by the declared one')
  t.ok(list({ '3.0': [{ ...get, changed: { summary: 'A' } }, { ...get, changed: { status: 200 } }, { ...get, deprecated: true }, { method: 'POST', url: '/audit', removed: true }] }), 'each said once, of one endpoint or another')
})

t.test('an instruction that says what is so already fails, naming it', async t => {
  const get = { method: 'GET', url: '/a' }
  t.throws(() => versionsOfEndpoint(list({ '2.0': [{ ...get, added: true }], '3.0': [{ ...get, added: true }] }), 'GET', '/a'),
    { code: 'FST_API_VERSIONING_INVALID_OPTION', message: 'fastify-api-versioning: versionChanges: the change of 3.0, endpoints[0], says GET /a was added, but it exists in the version before already' })
  t.throws(() => versionsOfEndpoint(list({ '2.0': [{ ...get, removed: true }], '3.0': [{ ...get, removed: true }] }), 'GET', '/a'),
    { message: /the change of 3\.0, endpoints\[0\], says GET \/a was removed, but it does not exist in the version before already/ })
})
