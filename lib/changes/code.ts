/**
 * A name as markdown code, whatever it holds: fenced by more backticks than it has in a row, and control
 * characters (a newline would end the list item) written as escapes.
 */
export function code (text: string): string {
  const escaped = text.replace(/\p{Cc}/gu, c => JSON.stringify(c).slice(1, -1))
  const longest = Math.max(0, ...(escaped.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = escaped.startsWith('`') || escaped.endsWith('`') ? ' ' : ''
  return fence + pad + escaped + pad + fence
}
