import { code } from './code.js'
import type { OpenApiDocument } from './document.js'
import type { Note } from './note.js'
import { sameValue } from './same-value.js'
import { NOT_JUDGED } from './unjudged.js'
import { asArray } from '../util/as-array.js'
import { isObject } from '../util/is-object.js'

/** An operation and the document it is in, whose `security` stands for the operations without their own. */
export interface SecuritySide {
  readonly document: OpenApiDocument
  readonly operation: Record<string, unknown>
}

// `{}` in a list of requirements: a request with no credentials will do.
const NONE = '{}'

/**
 * What changed in who may call an operation: its security requirements, each one way to be let in (its schemes
 * and their scopes, all needed). A client of the earlier version meets one of them, or none where there was none
 * or `{}` was one: it breaks when its way is gone and the later operation asks for credentials. The schemes the
 * requirements of both name are compared too, but not judged.
 */
export function compareSecurity (from: SecuritySide, to: SecuritySide): Note[] {
  const before = requirements(from)
  const after = requirements(to)
  const openBefore = before.size === 0 || before.has(NONE)
  const openAfter = after.size === 0 || after.has(NONE)
  const notes: Note[] = []
  for (const text of before.keys()) if (!after.has(text)) notes.push({ text: `security requirement ${code(text)} removed`, breaking: !openAfter })
  for (const text of after.keys()) if (!before.has(text)) notes.push({ text: `security requirement ${code(text)} added`, breaking: openBefore && !openAfter })
  const names = [...new Set([...before.values()].flat())].filter(name => [...after.values()].some(schemes => schemes.includes(name))).sort()
  for (const name of names) {
    if (!sameValue({ document: from.document, value: scheme(from.document, name) }, { document: to.document, value: scheme(to.document, name) })) {
      notes.push({ text: `${NOT_JUDGED}: security scheme ${code(name)}`, breaking: false })
    }
  }
  return notes
}

/**
 * The operation's requirements (else the document's) by their text, `bearer` or `oauth (read, write)`, several
 * schemes joined by `+` (`apiKey + bearer`): each with the names of its schemes.
 */
function requirements ({ document, operation }: SecuritySide): Map<string, string[]> {
  const list = Array.isArray(operation.security) ? operation.security : asArray(document.security)
  const found = new Map<string, string[]>()
  for (const requirement of list.filter(isObject)) {
    const names = Object.keys(requirement).sort()
    const text = names.map(name => {
      const scopes = asArray(requirement[name]).map(String).sort()
      return scopes.length === 0 ? name : `${name} (${scopes.join(', ')})`
    }).join(' + ')
    found.set(text === '' ? NONE : text, names)
  }
  return found
}

function scheme (document: OpenApiDocument, name: string): unknown {
  const schemes = document.components?.securitySchemes
  return isObject(schemes) ? schemes[name] : undefined
}
