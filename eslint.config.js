import neostandard from 'neostandard'

export default neostandard({
  ts: true,
  ignores: ['dist/**', '.ci/node/**', 'coverage/**', '.tap/**', '.scratch/**', 'benchmarks/node_modules/**', 'benchmarks/servers/node_modules/**']
})
