import t from 'tap'
import Fastify from 'fastify'
import apiVersioning, { versionChange } from '../../lib/index.js'
import { resolveVersionList } from '../../lib/version-changes/version-list.js'

const change = versionChange({ description: 'Orders have a status.', fields: [{ schema: 'Order', field: 'status', added: true }] })

t.test('the versionChanges option: the versions newest first, each with its changes, checked', async t => {
  t.equal(resolveVersionList(undefined), null)
  const list = resolveVersionList([
    { version: '2024-06-01', changes: [change] },
    { version: '2024-01-01', deprecated: false, changes: [] },
    { version: '2.0' },
    { version: '1.0-beta', deprecated: true }
  ])
  t.same(list?.map(v => [v.text, String(v.version), v.deprecated, v.changes.length]), [
    ['2024-06-01', '2024-06-01', false, 1], ['2024-01-01', '2024-01-01', false, 0], ['2.0', '2.0', false, 0], ['1.0-beta', '1.0-beta', true, 0]
  ])
  t.ok(Object.isFrozen(list) && Object.isFrozen(list?.[0]))
})

t.test('a bad versionChanges option fails start-up, naming the entry and the fix', async t => {
  const cases: Array<[unknown, RegExp]> = [
    [{}, /versionChanges must be a non-empty array of \{ version, changes\?, deprecated\? \}, newest first \(got \[object Object\]\)/],
    [[], /versionChanges must be a non-empty array/],
    [['2.0'], /versionChanges\[0\] must be \{ version, changes\?, deprecated\? \}/],
    [[{ version: '2.0', change: [] }], /versionChanges\[0\] has an unknown option "change"; an entry has version, changes and deprecated/],
    [[{ version: '2.x' }], /versionChanges\[0\]\.version must be an API version such as '2024-06-01' or '2\.0' \(got 2\.x\)/],
    [[{ version: 2 }], /versionChanges\[0\]\.version must be an API version/],
    [[{ version: '2.0-βeta' }], /versionChanges\[0\]\.version: a declared API version must be visible ASCII/],
    [[{ version: '2.0', changes: change }], /versionChanges\[0\]\.changes must be an array of versionChange\(\.\.\.\)/],
    [[{ version: '2.0', changes: [{ description: 'Mine.' }] }, { version: '1.0' }], /versionChanges\[0\]\.changes\[0\] must be made by versionChange\(\{ description, \.\.\. \}\) \(got \[object Object\]\)/],
    [[{ version: '2.0', deprecated: 'yes' }], /versionChanges\[0\]\.deprecated must be a boolean/],
    [[{ version: '2.0' }, { version: '2' }], /versionChanges lists 2 twice \(\[0\] and \[1\]\); list each version once/],
    [[{ version: '1.0' }, { version: '2.0' }], /versionChanges must list the versions newest first, but 2\.0 \(\[1\]\) is newer than 1\.0 \(\[0\]\)/],
    [[{ version: '3.0' }, { version: '2.0' }, { version: '3.0' }], /versionChanges must list the versions newest first, but 3\.0 \(\[2\]\) is newer than 2\.0 \(\[1\]\)/],
    [[{ version: '2.0' }, { version: '1.0', changes: [change] }], /versionChanges\[1\]: 1\.0 is the first version: there is no version before it to change from, so it has no changes/]
  ]
  for (const [versionChanges, message] of cases) {
    await t.rejects(async () => { await Fastify().register(apiVersioning, { versionChanges: versionChanges as never }).ready() },
      { name: 'TypeError', code: 'FST_API_VERSIONING_INVALID_OPTION', message }, String(message))
  }
})
