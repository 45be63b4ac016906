import type { FileDiff, ReviewFile } from 'gatehouse-hitl-protocol';
import { fileDiffOf, type ParsedDiffFile, parseUnifiedDiffBytes } from 'gatehouse-hitl-protocol/rules';

/**
 * Parses git's patch output as bytes: a file whose changed lines are not UTF-8 comes back as binary
 * with no lines. `cut` says the output stopped at a size limit: the last file is marked truncated.
 */
export function parsePatchBuffer(patch: Buffer, cut = false): FileDiff[] {
  return parseUnifiedDiffBytes(patch, { cut }).filter(isNamed).map(fileDiffOf);
}

/** Git's own output names every file; lines before the first `diff --git` are not one. */
function isNamed(file: ParsedDiffFile): boolean {
  return file.oldName !== null || file.newName !== null;
}

const RAW_STATUS: Record<string, ReviewFile['status']> = {
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'added',
};

/** A changed file as `git diff-tree --raw` names it, with the blob ids of both sides (zeros when absent). */
export interface RawChange {
  file: ReviewFile;
  oldId: string;
  newId: string;
}

/**
 * Parses `git diff-tree -r -z -M --raw [--numstat]`: every raw record, then (with `counts`) every
 * numstat record, in the same order. Names are taken as bytes between NULs, so any character in a path is safe.
 */
export function parseRawNumstat(output: Buffer, counts = true): RawChange[] {
  const tokens = output.toString('utf8').split('\0');
  if (tokens.at(-1) === '') tokens.pop();
  const changes: RawChange[] = [];
  let index = 0;
  while (index < tokens.length && (tokens[index] as string).startsWith(':')) {
    const [, , oldId = '', newId = '', code = 'M'] = (tokens[index] as string).split(' ');
    const letter = code[0] ?? 'M';
    const twoNames = letter === 'R' || letter === 'C';
    const first = tokens[index + 1] as string;
    const second = twoNames ? (tokens[index + 2] as string) : first;
    const file: ReviewFile = {
      path: second,
      oldPath: letter === 'R' ? first : null,
      status: RAW_STATUS[letter] ?? 'modified',
      added: 0,
      removed: 0,
      binary: false,
    };
    changes.push({ file, oldId, newId });
    index += twoNames ? 3 : 2;
  }
  if (!counts) return changes;
  for (const { file } of changes) {
    const [added, removed, name] = (tokens[index] ?? '').split('\t');
    index += name === '' ? 3 : 1;
    file.binary = added === '-' && removed === '-';
    file.added = file.binary ? 0 : Number(added) || 0;
    file.removed = file.binary ? 0 : Number(removed) || 0;
  }
  return changes;
}
