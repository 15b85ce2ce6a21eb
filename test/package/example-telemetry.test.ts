import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { startExample } from './example-server.js'

// The example service counts who calls which version, and prints the counter on its console.
t.test('the example service prints api_version.requests on its console', async t => {
  const { base, output } = await startExample(stop => t.teardown(stop), { METRICS_INTERVAL: '200' })
  t.equal((await fetch(`${base}/orders?api-version=1`)).status, 200)
  t.equal((await fetch(`${base}/orders?api-version=3.0`)).status, 400)
  // Printed every 200 ms; a busy host may take far longer.
  for (let i = 0; i < 1200 && !/'api_version\.outcome': 'unsupported'/.test(output()); i++) await sleep(100)
  t.match(output(), /name: 'api_version\.requests'/)
  t.match(output(), /'http\.route': '\/orders',\s+'api_version\.outcome': 'served',\s+api_version: '1\.0',\s+'api_version\.deprecated': false/)
  t.match(output(), /'api_version\.outcome': 'unsupported'/)
})
