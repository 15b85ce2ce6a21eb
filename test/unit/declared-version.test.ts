import t from 'tap'
import fc from 'fast-check'
import { ApiVersion } from '../../lib/index.js'
import { declaredText, declaredVersion } from '../../lib/routing/declared-version.js'

// Declarations repeat a version list on every route: one ApiVersion and one text a version, whatever the routes.
t.test('a declared text gives one shared version, equal to what it parses to', async t => {
  fc.assert(fc.property(fc.constantFrom('1.0', '1', '01.00', '2.0-beta', '2024-01-31', '2024-01-31.1-rc.1', 'x', '', '1.0-', '2024-02-30'), text => {
    const version = declaredVersion(text)
    const parsed = ApiVersion.tryParse(text)
    t.equal(version === null, parsed === null, `${text}: a version where it parses`)
    if (version !== null) {
      t.equal(declaredVersion(text), version, `${text}: the same object again`)
      t.equal(version.key, (parsed as ApiVersion).key)
      t.equal(declaredText(version), String(parsed))
      t.equal(declaredText(version), declaredText(declaredVersion(text) as ApiVersion))
    }
  }))
})

t.test('each text its own version: 1 and 1.0 are equal, not the same object, and keep their forms', async t => {
  const one = declaredVersion('1') as ApiVersion
  const oneZero = declaredVersion('1.0') as ApiVersion
  t.not(one, oneZero)
  t.ok(one.equals(oneZero))
  t.equal(declaredText(one), '1')
  t.equal(declaredText(oneZero), '1.0')
})
