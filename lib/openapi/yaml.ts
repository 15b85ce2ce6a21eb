/**
 * Writes JSON data as block-style YAML 1.2. Strings are double-quoted with JSON's escapes, which YAML shares, so
 * no value can be read back as another type; keys are quoted unless plainly safe. Written here rather than
 * taken from a YAML package: documents are JSON data only, and the entry then needs nothing beyond its peers.
 */
export function toYaml (value: unknown): string {
  return isCollection(value) && !isEmpty(value) ? block(value, '') : scalar(value) + '\n'
}

const PLAIN_KEY = /^[A-Za-z_$/][\w$/.-]*$/
const RESERVED = /^(?:true|false|null|y|n|yes|no|on|off)$/i

function isCollection (value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null
}

function isEmpty (value: Record<string, unknown> | unknown[]): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0
}

function scalar (value: unknown): string {
  if (Array.isArray(value)) return '[]'
  if (typeof value === 'object' && value !== null) return '{}'
  return JSON.stringify(value) ?? 'null'
}

function key (name: string): string {
  return PLAIN_KEY.test(name) && !RESERVED.test(name) ? name : JSON.stringify(name)
}

function block (value: Record<string, unknown> | unknown[], indent: string): string {
  let out = ''
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map(item => ['-', item]) : Object.entries(value).filter(([, v]) => v !== undefined)
  for (const [name, child] of entries) {
    const head = indent + (Array.isArray(value) ? '-' : key(name) + ':')
    if (isCollection(child) && !isEmpty(child)) {
      if (Array.isArray(value) && !Array.isArray(child)) {
        // A mapping in a sequence starts on the dash's line.
        out += head + ' ' + block(child, indent + '  ').slice(indent.length + 2)
      } else {
        out += head + '\n' + block(child, indent + '  ')
      }
    } else {
      out += head + ' ' + scalar(child) + '\n'
    }
  }
  return out
}
