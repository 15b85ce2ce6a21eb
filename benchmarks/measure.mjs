// The loop the micro-benchmarks share: ns per call, the median of 7 rounds (the first rounds warm the JIT), with
// enough calls per round for `size` characters of input to add up to ~2 MB.
let sink = 0

export function measure (fn, inputs, size) {
  const n = Math.max(100, Math.round(2e6 / Math.max(1, size)))
  const times = []
  for (let round = 0; round < 7; round++) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < n; i++) sink ^= fn(inputs[i % inputs.length]) ? 1 : 0
    times.push(Number(process.hrtime.bigint() - t0) / n)
  }
  return times.sort((a, b) => a - b)[3]
}

/** Measures `rows` of [what, fn, inputs]; prints a table, or with `--json` [what, ns] pairs for run.mjs. */
export function report (rows, sizeOf) {
  const results = rows.map(([what, fn, inputs]) => [what, measure(fn, inputs, sizeOf(inputs[0]))])
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(results))
  } else {
    for (const [what, ns] of results) console.log(`${ns.toFixed(0).padStart(9)} ns  ${what}`)
  }
  if (sink === 42) console.log('') // keeps the results observable
}
