import { UsageError } from '../runtime/errors';

/**
 * The bytes as UTF-8 text, or a usage error naming the source and the line of the first byte that is not
 * UTF-8: silently replacing it with U+FFFD would send a different value than the file holds.
 */
export function utf8Text(bytes: Buffer, name: string): string {
  const text = bytes.toString('utf8');
  if (!text.includes('\uFFFD')) return text;
  // A valid prefix encodes back to the same bytes, so the first difference is the first invalid byte.
  const again = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length && at < again.length && bytes[at] === again[at]) at++;
  if (at === bytes.length && at === again.length) return text;
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
  throw new UsageError(`${name} line ${line}: not UTF-8 (byte 0x${bytes[at].toString(16).padStart(2, '0')} at offset ${at})`);
}
