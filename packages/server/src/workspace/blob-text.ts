import { isUtf8 } from 'node:buffer';
import { git } from './git.js';

/** The most blob bytes read to check that a review's files are text; past it, git's own verdict stands. */
export const TEXT_CHECK_MAX_BYTES = 32 * 1024 * 1024;

const ZERO_ID = /^0+$/;
// ignoreBOM keeps a leading byte-order mark in the text, so an edit writes it back.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** UTF-8 text, or null for binary (a NUL byte) or bytes that are not UTF-8. */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** True for UTF-8 text without NUL bytes: what decodeText accepts, without making the string. */
export function isText(bytes: Uint8Array): boolean {
  return !bytes.includes(0) && isUtf8(bytes);
}

/**
 * The blobs among `ids` that are binary or not UTF-8, read in one `git cat-file --batch`, so a file
 * is shown as binary in the list, the diff and the file view alike.
 */
export async function nonTextBlobs(
  repo: string,
  ids: Iterable<string>,
  maxBytes = TEXT_CHECK_MAX_BYTES,
): Promise<Set<string>> {
  const wanted = [...new Set(ids)].filter((id) => !ZERO_ID.test(id));
  const found = new Set<string>();
  if (wanted.length === 0) return found;
  const result = await git(repo, ['cat-file', '--batch', '--buffer'], {
    input: `${wanted.join('\n')}\n`,
    maxOutputBytes: maxBytes,
  });
  const out = result.stdout;
  let offset = 0;
  while (offset < out.length) {
    const lineEnd = out.indexOf(0x0a, offset);
    if (lineEnd < 0) break;
    const [id = '', type = '', size = ''] = out.subarray(offset, lineEnd).toString('latin1').split(' ');
    offset = lineEnd + 1;
    if (type === 'missing' || size === '') continue;
    const end = offset + Number(size);
    if (end > out.length) break;
    if (type === 'blob' && !isText(out.subarray(offset, end))) found.add(id);
    offset = end + 1;
  }
  return found;
}
