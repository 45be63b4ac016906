import { isUtf8 } from 'node:buffer';
import type { DiffHunk, DiffLine, FileDiff, ReviewFile } from 'gatehouse-hitl-protocol';

type FileStatus = FileDiff['status'];

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Parses `git diff` output (one or many files) into files and hunks with old and new line numbers. */
export function parseUnifiedDiff(patch: string): FileDiff[] {
  return splitSections(patch).map((section) => parseSection(section, true));
}

/**
 * Parses git's patch output as bytes: a file whose changed lines are not UTF-8 comes back as binary
 * with no lines. `cut` says the output stopped at a size limit: the last file is marked truncated.
 */
export function parsePatchBuffer(patch: Buffer, cut = false): FileDiff[] {
  let bytes = patch;
  if (cut) {
    const end = bytes.lastIndexOf(0x0a);
    bytes = end < 0 ? Buffer.alloc(0) : bytes.subarray(0, end + 1);
  }
  const files = splitBufferSections(bytes).map((section) => {
    const body = section.indexOf('\n@@ ');
    if (body < 0) return parseSection(section.toString('utf8'), true);
    if (isUtf8(section.subarray(body))) return parseSection(section.toString('utf8'), true);
    return parseSection(section.subarray(0, body + 1).toString('utf8'), false);
  });
  const last = files.at(-1);
  if (cut && last) last.truncated = true;
  return files;
}

function splitSections(patch: string): string[] {
  const sections: string[] = [];
  let start = patch.startsWith('diff --git ') ? 0 : patch.indexOf('\ndiff --git ');
  while (start >= 0) {
    if (patch[start] === '\n') start += 1;
    const next = patch.indexOf('\ndiff --git ', start);
    sections.push(patch.slice(start, next < 0 ? undefined : next + 1));
    start = next;
  }
  return sections;
}

function splitBufferSections(patch: Buffer): Buffer[] {
  const sections: Buffer[] = [];
  let start = patch.subarray(0, 11).toString('latin1') === 'diff --git ' ? 0 : patch.indexOf('\ndiff --git ');
  while (start >= 0) {
    if (patch[start] === 0x0a) start += 1;
    const next = patch.indexOf('\ndiff --git ', start);
    sections.push(patch.subarray(start, next < 0 ? undefined : next + 1));
    start = next;
  }
  return sections;
}

interface Names {
  fromGit: [string, string] | null;
  minus: string | null;
  plus: string | null;
  renameFrom: string | null;
  renameTo: string | null;
}

function parseSection(text: string, isText: boolean): FileDiff {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const names: Names = {
    fromGit: gitLineNames(lines[0] ?? ''),
    minus: null,
    plus: null,
    renameFrom: null,
    renameTo: null,
  };
  let status: FileStatus = 'modified';
  let binary = !isText;
  let index = 1;
  for (; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.startsWith('@@ ')) break;
    if (line.startsWith('new file mode')) status = 'added';
    else if (line.startsWith('deleted file mode')) status = 'deleted';
    else if (line.startsWith('rename from ')) names.renameFrom = headerPath(line.slice(12));
    else if (line.startsWith('rename to ')) names.renameTo = headerPath(line.slice(10));
    else if (line.startsWith('--- ')) names.minus = prefixedPath(line.slice(4), 'a/');
    else if (line.startsWith('+++ ')) names.plus = prefixedPath(line.slice(4), 'b/');
    else if (line.startsWith('Binary files ') || line === 'GIT binary patch') binary = true;
  }
  if (names.renameFrom !== null && names.renameTo !== null) status = 'renamed';
  const hunks = binary ? [] : parseHunks(lines, index);
  const newPath = names.renameTo ?? names.plus ?? names.fromGit?.[1] ?? '';
  const oldPath = names.renameFrom ?? names.minus ?? names.fromGit?.[0] ?? newPath;
  const truncated = hunks.some((hunk) => hunkIncomplete(hunk));
  return {
    path: status === 'deleted' ? oldPath : newPath,
    oldPath: status === 'renamed' ? oldPath : null,
    status,
    binary,
    hunks,
    truncated,
  };
}

function parseHunks(lines: string[], from: number): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let index = from;
  while (index < lines.length) {
    const match = HUNK_HEADER.exec(lines[index] as string);
    index += 1;
    if (!match) continue;
    const hunk: DiffHunk = {
      header: lines[index - 1] as string,
      oldStart: Number(match[1]),
      oldLines: match[2] === undefined ? 1 : Number(match[2]),
      newStart: Number(match[3]),
      newLines: match[4] === undefined ? 1 : Number(match[4]),
      lines: [],
    };
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    let oldLeft = hunk.oldLines;
    let newLeft = hunk.newLines;
    while (index < lines.length && (oldLeft > 0 || newLeft > 0 || lines[index]?.startsWith('\\'))) {
      const line = lines[index] as string;
      index += 1;
      const mark = line[0];
      if (mark === '\\') continue;
      const text = line.slice(1);
      if (mark === '+') {
        hunk.lines.push(diffLine('add', null, newLine++, text));
        newLeft -= 1;
      } else if (mark === '-') {
        hunk.lines.push(diffLine('del', oldLine++, null, text));
        oldLeft -= 1;
      } else {
        hunk.lines.push(diffLine('context', oldLine++, newLine++, text));
        oldLeft -= 1;
        newLeft -= 1;
      }
    }
    hunks.push(hunk);
  }
  return hunks;
}

function diffLine(
  kind: DiffLine['kind'],
  oldLine: number | null,
  newLine: number | null,
  text: string,
): DiffLine {
  return { kind, oldLine, newLine, text };
}

function hunkIncomplete(hunk: DiffHunk): boolean {
  let olds = 0;
  let news = 0;
  for (const line of hunk.lines) {
    if (line.kind !== 'add') olds += 1;
    if (line.kind !== 'del') news += 1;
  }
  return olds < hunk.oldLines || news < hunk.newLines;
}

/** The two names of `diff --git a/X b/Y`: quoted names are exact; unquoted, equal halves are assumed. */
function gitLineNames(line: string): [string, string] | null {
  const rest = line.slice('diff --git '.length);
  if (rest.startsWith('"')) {
    const first = unquote(rest);
    const second = rest.slice(first.length + 1);
    const other = second.startsWith('"') ? unquote(second).value : second;
    return [stripPrefix(first.value, 'a/'), stripPrefix(other, 'b/')];
  }
  const quoted = rest.indexOf(' "');
  if (quoted >= 0)
    return [
      stripPrefix(rest.slice(0, quoted), 'a/'),
      stripPrefix(unquote(rest.slice(quoted + 1)).value, 'b/'),
    ];
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ') {
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (a.slice(2) === b.slice(2)) return [stripPrefix(a, 'a/'), stripPrefix(b, 'b/')];
  }
  const split = rest.indexOf(' b/');
  return split < 0
    ? null
    : [stripPrefix(rest.slice(0, split), 'a/'), stripPrefix(rest.slice(split + 1), 'b/')];
}

function prefixedPath(raw: string, prefix: string): string | null {
  const value = headerPath(raw);
  return value === '/dev/null' ? null : stripPrefix(value, prefix);
}

/** A path on a `---`, `+++` or `rename` line: C-quoted when unusual, tab-terminated when it holds a space. */
function headerPath(raw: string): string {
  if (raw.startsWith('"')) return unquote(raw).value;
  return raw.endsWith('\t') ? raw.slice(0, -1) : raw;
}

function stripPrefix(value: string, prefix: string): string {
  return value.startsWith(prefix) ? value.slice(prefix.length) : value;
}

/** Git's C-style quoting: `"…"` with backslash escapes and octal bytes; returns the value and how much was read. */
export function unquote(quoted: string): { value: string; length: number } {
  const bytes: number[] = [];
  let index = 1;
  while (index < quoted.length && quoted[index] !== '"') {
    const char = quoted[index] as string;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      index += 1;
      continue;
    }
    const next = quoted[index + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(quoted.slice(index + 1, index + 4), 8));
      index += 4;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      index += 2;
    }
  }
  return { value: Buffer.from(bytes).toString('utf8'), length: index + 1 };
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
