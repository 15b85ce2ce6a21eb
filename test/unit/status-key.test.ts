import t from 'tap'
import { forStatus, keyFor } from '../../lib/version-changes/status-key.js'

// As Fastify picks a response schema for a status: the status, its class (either case), then `default`.
t.test('a status takes its own key, then its class, then default', async t => {
  const table: Array<[keys: string[], status: number, expected: string | undefined]> = [
    [['200', '2xx', 'default'], 200, '200'],
    [['201', '2xx', 'default'], 200, '2xx'],
    [['2XX', 'default'], 204, '2XX'],
    [['2xx', '2XX'], 200, '2xx'],
    [['4xx', 'default'], 200, 'default'],
    [['4xx'], 200, undefined],
    [[], 500, undefined],
    [['500', '5XX'], 503, '5XX']
  ]
  for (const [keys, status, expected] of table) {
    const byStatus = new Map(keys.map(key => [key, `schema of ${key}`]))
    t.equal(keyFor(byStatus, status), expected, `${status} in ${keys.join(', ') || 'none'}`)
    t.equal(forStatus(byStatus, status), expected === undefined ? undefined : `schema of ${expected}`)
  }
})
