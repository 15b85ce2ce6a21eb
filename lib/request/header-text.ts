/** True when every character of `text` is ASCII. */
export function isAscii (text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 127) return false
  }
  return true
}

/**
 * A header value as the client wrote it. Node gives header bytes as Latin-1 characters; clients send UTF-8, as
 * the query's percent-escapes are: read so, a version has one text wherever it is sent. Bytes that are no UTF-8
 * become U+FFFD, which no version has. A text with a character beyond Latin-1 came from no socket (`app.inject`
 * passes header strings as they are) and is returned as it is.
 */
export function fromLatin1 (text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 255) return text
  }
  return Buffer.from(text, 'latin1').toString('utf8')
}
