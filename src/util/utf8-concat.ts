/**
 * Strings as UTF-8 bytes, one after another in one buffer, each followed by `terminator` (a byte)
 * when one is given, with the offset where each one's bytes (terminator included) end. An ASCII
 * string (its UTF-8 length is its length) is copied as Latin-1, which is the same bytes; only the
 * others go through the UTF-8 encoder. Joining the strings first made one string for all of them,
 * two-byte as soon as one had a character past Latin-1, and encoding that took the real run's
 * multi-turn score files 13-18 ms instead of 5.
 */
export function utf8Concat(texts: readonly string[], terminator?: number): { bytes: Buffer; ends: number[] } {
  const extra = terminator === undefined ? 0 : 1;
  const lengths = texts.map((text) => Buffer.byteLength(text, 'utf8'));
  const ends: number[] = [];
  let total = 0;
  for (const length of lengths) ends.push((total += length + extra));
  const bytes = Buffer.allocUnsafe(total);
  let at = 0;
  texts.forEach((text, i) => {
    at += bytes.write(text, at, lengths[i]!, lengths[i] === text.length ? 'latin1' : 'utf8');
    if (terminator !== undefined) bytes[at++] = terminator;
  });
  return { bytes, ends };
}
