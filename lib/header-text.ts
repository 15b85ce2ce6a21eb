/**
 * A header value as the client wrote it. Node gives header bytes as Latin-1 characters; clients send UTF-8, as
 * the query's percent-escapes are: read so, a version has one text wherever it is sent. Bytes that are no UTF-8
 * become U+FFFD, which no version has. An ASCII value, the usual one, is returned as it is, and so is a value
 * whose header (`whole`) has a character beyond Latin-1, which no socket gave (`app.inject` passes header
 * strings as they are).
 */
export function fromLatin1 (text: string, whole: string = text): string {
  let i = 0
  while (i < text.length && text.charCodeAt(i) < 128) i++
  if (i === text.length) return text
  for (let k = 0; k < whole.length; k++) {
    if (whole.charCodeAt(k) > 255) return text
  }
  return Buffer.from(text, 'latin1').toString('utf8')
}
