import { decodeStrictUtf8, decodeUtf8, gitLineNames, headerPath, sidePath } from './diff-names.js';
import type { DiffHunk, DiffLine, FileDiff } from './routes/reviews.js';

/** How a file changed, as its diff headers say. */
export type DiffFileStatus = 'added' | 'deleted' | 'renamed' | 'copied' | 'modified';

/** One line of a file's section as a diff view shows it: a marked line, a hunk header or anything else. */
export interface DiffRow {
  kind: 'add' | 'del' | 'context' | 'hunk' | 'meta';
  /** Without the `+`, `-` or space mark; hunk headers and other lines whole. */
  text: string;
}

/** One file of a unified diff. */
export interface ParsedDiffFile {
  /** The old side's name (for an added file, the name `diff --git` gives it); null when the diff names none. */
  oldName: string | null;
  /** The new side's name (for a deleted file, the name `diff --git` gives it); null when the diff names none. */
  newName: string | null;
  status: DiffFileStatus;
  /** Binary, or changed lines that are not UTF-8: no hunks. */
  binary: boolean;
  hunks: DiffHunk[];
  /** A hunk holds fewer lines than its header counts, or the patch was cut. */
  truncated: boolean;
  /** Every line after the file's `diff --git` or `---`/`+++` start, in order; only with `rows: true`. */
  rows: DiffRow[];
}

/** What to keep while parsing. */
export interface ParseDiffOptions {
  /**
   * Keep each file's lines in order as `rows`, for showing the diff as written.
   * @default false
   */
  rows?: boolean;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface Building {
  file: ParsedDiffFile;
  gitNames: [string, string] | null;
  minus: string | null | undefined;
  plus: string | null | undefined;
  renameFrom: string | null;
  renameTo: string | null;
  copyFrom: string | null;
  copyTo: string | null;
  sideLines: boolean;
}

/**
 * Parses a unified diff (`git diff` output or plain `diff -u`, one or many files) into files and
 * numbered hunks. Files start at `diff --git` or at a `---`/`+++` pair outside a hunk; lines before
 * any start form an unnamed file.
 * @example const [file] = parseUnifiedDiff(patch); file?.hunks[0]?.lines[0]?.newLine;
 */
export function parseUnifiedDiff(text: string, options: ParseDiffOptions = {}): ParsedDiffFile[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const keepRows = options.rows === true;
  const files: ParsedDiffFile[] = [];
  let current: Building | null = null;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (line.startsWith('diff --git ')) {
      current = startFile(files, current, gitLineNames(line));
      index += 1;
      continue;
    }
    if (line.startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ ')) {
      // After `diff --git` and its extended headers the file has already started.
      if (!current || current.sideLines || current.file.hunks.length > 0)
        current = startFile(files, current, null);
      current.minus = sidePath(line.slice(4));
      current.plus = sidePath((lines[index + 1] as string).slice(4));
      current.sideLines = true;
      index += 2;
      continue;
    }
    current ??= newBuilding(null);
    const header = HUNK_HEADER.exec(line);
    if (header) {
      const end = readHunk(lines, index, header, current.file.hunks);
      if (keepRows)
        for (let row = index; row < end; row++) current.file.rows.push(rowOf(lines[row] as string));
      index = end;
      continue;
    }
    if (current.file.hunks.length === 0) readHeaderLine(line, current);
    if (keepRows) current.file.rows.push(rowOf(line));
    index += 1;
  }
  if (current) files.push(finish(current));
  return files;
}

/** What a diff view shows for a line it does not read as part of a hunk. */
function rowOf(line: string): DiffRow {
  if (line.startsWith('@@')) return { kind: 'hunk', text: line };
  const mark = line[0];
  if (mark === '+') return { kind: 'add', text: line.slice(1) };
  if (mark === '-') return { kind: 'del', text: line.slice(1) };
  if (mark === ' ' || line === '') return { kind: 'context', text: line.slice(1) };
  return { kind: 'meta', text: line };
}

function startFile(
  files: ParsedDiffFile[],
  current: Building | null,
  gitNames: Building['gitNames'],
): Building {
  if (current) files.push(finish(current));
  return newBuilding(gitNames);
}

function newBuilding(gitNames: [string, string] | null): Building {
  return {
    file: {
      oldName: null,
      newName: null,
      status: 'modified',
      binary: false,
      hunks: [],
      truncated: false,
      rows: [],
    },
    gitNames,
    minus: undefined,
    plus: undefined,
    renameFrom: null,
    renameTo: null,
    copyFrom: null,
    copyTo: null,
    sideLines: false,
  };
}

function readHeaderLine(line: string, section: Building): void {
  const { file } = section;
  if (line.startsWith('new file mode')) file.status = 'added';
  else if (line.startsWith('deleted file mode')) file.status = 'deleted';
  else if (line.startsWith('rename from ')) section.renameFrom = headerPath(line.slice(12));
  else if (line.startsWith('rename to ')) section.renameTo = headerPath(line.slice(10));
  else if (line.startsWith('copy from ')) section.copyFrom = headerPath(line.slice(10));
  else if (line.startsWith('copy to ')) section.copyTo = headerPath(line.slice(8));
  else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
}

function finish(section: Building): ParsedDiffFile {
  const { file, gitNames, minus, plus } = section;
  if (section.renameFrom !== null && section.renameTo !== null) file.status = 'renamed';
  else if (section.copyFrom !== null && section.copyTo !== null) file.status = 'copied';
  else if (minus === null && file.status === 'modified') file.status = 'added';
  else if (plus === null && file.status === 'modified') file.status = 'deleted';
  file.oldName = section.renameFrom ?? section.copyFrom ?? minus ?? gitNames?.[0] ?? null;
  file.newName = section.renameTo ?? section.copyTo ?? plus ?? gitNames?.[1] ?? null;
  if (file.binary) file.hunks = [];
  file.truncated = file.hunks.some(isIncomplete);
  return file;
}

/** Reads one hunk from its header at `start`; returns the index of the first line after it. */
function readHunk(lines: string[], start: number, header: RegExpExecArray, hunks: DiffHunk[]): number {
  const hunk: DiffHunk = {
    header: lines[start] as string,
    oldStart: Number(header[1]),
    oldLines: header[2] === undefined ? 1 : Number(header[2]),
    newStart: Number(header[3]),
    newLines: header[4] === undefined ? 1 : Number(header[4]),
    lines: [],
  };
  hunks.push(hunk);
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  let oldLeft = hunk.oldLines;
  let newLeft = hunk.newLines;
  let index = start + 1;
  while (index < lines.length) {
    const line = lines[index] as string;
    const mark = line[0];
    if (mark === '\\') {
      index += 1;
      continue;
    }
    if (oldLeft <= 0 && newLeft <= 0) break;
    if (mark === '+') {
      hunk.lines.push(diffLine('add', null, newLine++, line.slice(1)));
      newLeft -= 1;
    } else if (mark === '-') {
      hunk.lines.push(diffLine('del', oldLine++, null, line.slice(1)));
      oldLeft -= 1;
    } else if (mark === ' ' || line === '') {
      hunk.lines.push(diffLine('context', oldLine++, newLine++, line.slice(1)));
      oldLeft -= 1;
      newLeft -= 1;
    } else break;
    index += 1;
  }
  return index;
}

function diffLine(
  kind: DiffLine['kind'],
  oldLine: number | null,
  newLine: number | null,
  text: string,
): DiffLine {
  return { kind, oldLine, newLine, text };
}

function isIncomplete(hunk: DiffHunk): boolean {
  let olds = 0;
  let news = 0;
  for (const line of hunk.lines) {
    if (line.kind !== 'add') olds += 1;
    if (line.kind !== 'del') news += 1;
  }
  return olds < hunk.oldLines || news < hunk.newLines;
}

const NEWLINE = 0x0a;
const GIT_START = [...'diff --git '].map((char) => char.charCodeAt(0));
const HUNK_START = [...'@@ '].map((char) => char.charCodeAt(0));

/**
 * Parses git's patch output as bytes: a file whose changed lines are not UTF-8 comes back as binary
 * with no hunks. `cut` says the output stopped at a size limit: the last file is marked truncated.
 */
export function parseUnifiedDiffBytes(patch: Uint8Array, options: { cut?: boolean } = {}): ParsedDiffFile[] {
  let bytes = patch;
  if (options.cut) bytes = bytes.subarray(0, bytes.lastIndexOf(NEWLINE) + 1);
  const whole = decodeStrictUtf8(bytes);
  const files = whole !== null ? parseUnifiedDiff(whole) : splitGitSections(bytes).flatMap(parseSectionBytes);
  const last = files.at(-1);
  if (options.cut && last) last.truncated = true;
  return files;
}

/** One file's bytes: when its hunks are not UTF-8, only its headers are read and it is binary. */
function parseSectionBytes(section: Uint8Array): ParsedDiffFile[] {
  const text = decodeStrictUtf8(section);
  if (text !== null) return parseUnifiedDiff(text);
  const body = indexOfLineStart(section, HUNK_START);
  if (body < 0 || decodeStrictUtf8(section.subarray(body)) !== null)
    return parseUnifiedDiff(decodeUtf8(section));
  return parseUnifiedDiff(decodeUtf8(section.subarray(0, body))).map((file) => ({
    ...file,
    binary: true,
    hunks: [],
    truncated: false,
  }));
}

/** The index of the first line (after the first) that starts with `prefix`, or -1. */
function indexOfLineStart(bytes: Uint8Array, prefix: readonly number[], from = 0): number {
  const first = prefix[0] as number;
  let at = bytes.indexOf(first, from + 1);
  while (at >= 0) {
    if (bytes[at - 1] === NEWLINE && startsAt(bytes, at, prefix)) return at;
    at = bytes.indexOf(first, at + 1);
  }
  return -1;
}

function startsAt(bytes: Uint8Array, at: number, prefix: readonly number[]): boolean {
  for (let offset = 1; offset < prefix.length; offset++)
    if (bytes[at + offset] !== prefix[offset]) return false;
  return true;
}

function splitGitSections(patch: Uint8Array): Uint8Array[] {
  const sections: Uint8Array[] = [];
  let start =
    startsAt(patch, 0, GIT_START) && patch[0] === GIT_START[0] ? 0 : indexOfLineStart(patch, GIT_START);
  while (start >= 0) {
    const next = indexOfLineStart(patch, GIT_START, start);
    sections.push(patch.subarray(start, next < 0 ? undefined : next));
    start = next;
  }
  return sections;
}

/**
 * A parsed file as the wire's `FileDiff`: a copy counts as added, and `oldPath` is set for renames only.
 */
export function fileDiffOf(file: ParsedDiffFile): FileDiff {
  const newPath = file.newName ?? file.oldName ?? '';
  const oldPath = file.oldName ?? newPath;
  return {
    path: file.status === 'deleted' ? oldPath : newPath,
    oldPath: file.status === 'renamed' ? oldPath : null,
    status: file.status === 'copied' ? 'added' : file.status,
    binary: file.binary,
    hunks: file.hunks,
    truncated: file.truncated,
  };
}
