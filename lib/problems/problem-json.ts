// What fast-json-stringify writes for ProblemDetailsSchema, written out (a property test in test/unit/problems.test.ts
// holds the two equal), instead of importing it and compiling the schema at import: that loaded a CommonJS package
// and Ajv into an ES module and compiled a serializer before any request (benchmarks/cold-start.mjs, results.md).

/** The schema's members after `type`, in its order: written before the others, each coerced to its type. */
const MEMBERS = ['title', 'status', 'detail', 'instance', 'code']

/** The problem document as JSON: the schema's members (`type` defaults to `about:blank`), then the others. */
export function problemJson (input: unknown): string {
  const problem = input && typeof (input as { toJSON?: unknown }).toJSON === 'function' ? (input as { toJSON (): unknown }).toJSON() : input
  if (problem === null) return '{}'
  const members = problem as Record<string, unknown>
  let json = `{"type":${members.type === undefined ? '"about:blank"' : string(members.type)}`
  for (const name of MEMBERS) {
    const value = members[name]
    if (value !== undefined) json += `,"${name}":${name === 'status' ? integer(value) : string(value)}`
  }
  for (const name of Object.keys(members)) {
    const value = members[name]
    if (name === 'type' || MEMBERS.includes(name) || value === undefined || typeof value === 'function' || typeof value === 'symbol') continue
    json += `,${JSON.stringify(name)}:${JSON.stringify(value)}`
  }
  return json + '}'
}

function string (value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === null) return '""'
  if (value instanceof Date) return `"${value.toISOString()}"`
  if (value instanceof RegExp) return JSON.stringify(value.source)
  return JSON.stringify((value as { toString (): string }).toString())
}

function integer (value: unknown): string {
  if (Number.isInteger(value) || typeof value === 'bigint') return String(value)
  const truncated = Math.trunc(value as number)
  if (Number.isFinite(truncated)) return String(truncated)
  throw new Error(`The value "${value as string}" cannot be converted to an integer.`)
}
