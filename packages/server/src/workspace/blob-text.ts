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
 * For each object name (a blob id, or `<commit>:<path>`), whether it is UTF-8 text; null when it is
 * missing, not a blob, or past the byte budget. One `git cat-file --batch` reads them all.
 */
export async function textFlags(
  repo: string,
  names: string[],
  maxBytes = TEXT_CHECK_MAX_BYTES,
): Promise<(boolean | null)[]> {
  const flags: (boolean | null)[] = names.map(() => null);
  // The batch protocol is one name a line: a name holding a newline is left unread.
  const asked = names.map((name, index) => ({ name, index })).filter(({ name }) => !name.includes('\n'));
  if (asked.length === 0) return flags;
  const input = `${asked.map(({ name }) => name).join('\n')}\n`;
  const out = (await git(repo, ['cat-file', '--batch', '--buffer'], { input, maxOutputBytes: maxBytes }))
    .stdout;
  let offset = 0;
  for (const { index } of asked) {
    const lineEnd = out.indexOf(0x0a, offset);
    if (lineEnd < 0) break;
    const header = out.subarray(offset, lineEnd).toString('utf8');
    offset = lineEnd + 1;
    const match = / (blob|tree|commit|tag) (\d+)$/.exec(header);
    if (!match) continue;
    const end = offset + Number(match[2]);
    if (end > out.length) break;
    if (match[1] === 'blob') flags[index] = isText(out.subarray(offset, end));
    offset = end + 1;
  }
  return flags;
}

/** The blobs among `ids` that are binary or not UTF-8, so a file shows as binary in the list, the diff and the file view alike. */
export async function nonTextBlobs(repo: string, ids: Iterable<string>): Promise<Set<string>> {
  const wanted = [...new Set(ids)].filter((id) => !ZERO_ID.test(id));
  const flags = await textFlags(repo, wanted);
  return new Set(wanted.filter((_, index) => flags[index] === false));
}
