// The load generator, in a process of its own: each message is one autocannon run; the reply is its result.
import autocannon from 'autocannon'

process.on('message', async options => {
  const result = await autocannon(options)
  process.send({
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.resets,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]))
  })
})
process.on('disconnect', () => process.exit(0))
