import t from 'tap'

// benchmarks/ is plain JavaScript outside the type check: a computed specifier keeps TypeScript from looking for types.
const progressModule = new URL('../../benchmarks/progress.mjs', import.meta.url).href
const { humanDuration, loadSeconds, plural, progress, secondsLeft } = await import(progressModule)

t.test('an autocannon run lasts whole seconds, at least one', async t => {
  t.same([0.2, 0.5, 1, 1.5, 2].map(loadSeconds), [1, 1, 1, 2, 2])
})

t.test('the time left is the plan still to run, at the pace kept so far', async t => {
  t.equal(secondsLeft({ elapsed: 0, plannedDone: 0, plannedTotal: 600 }), 600, 'before any step: the plan')
  t.equal(secondsLeft({ elapsed: 120, plannedDone: 100, plannedTotal: 600 }), 600, '20% slower than planned')
  t.equal(secondsLeft({ elapsed: 700, plannedDone: 600, plannedTotal: 600 }), 0, 'done')
})

t.test('durations read as seconds, then minutes', async t => {
  t.same([0.4, 59.6, 89, 90, 5550].map(humanDuration), ['0 s', '60 s', '89 s', '2 min', '93 min'])
})

t.test('plural', async t => {
  t.same([plural(1, 'round'), plural(5, 'round')], ['1 round', '5 rounds'])
})

t.test('progress counts steps and learns their real length', async t => {
  let now = 0
  const done = progress(3, 30, () => now)
  now = 20_000 // the first 10 s step took 20 s: the 20 s still planned will take 40
  t.equal(done.step(10), '1 of 3, 20 s in, ~40 s left')
  now = 45_000
  t.equal(done.step(15), '2 of 3, 45 s in, ~9 s left')
  now = 50_000
  t.equal(done.step(5), '3 of 3, 50 s in, ~0 s left')
})

t.test('with the real clock', async t => {
  t.match(progress(1, 1).step(1), /^1 of 1, \d+ s in, ~0 s left$/)
})
