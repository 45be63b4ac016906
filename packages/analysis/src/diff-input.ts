import type { FileChange } from './types.js';

/** One file's section of a unified diff while it is being read. */
interface Section {
  oldPath: string | null;
  newPath: string | null;
  added: boolean;
  deleted: boolean;
  binary: boolean;
  /** Old-side and new-side lines by 1-based line number in their file. */
  oldLines: Map<number, string>;
  newLines: Map<number, string>;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7, '\\': 92, '"': 34 };

/** Git quotes a path holding special characters C-style, with UTF-8 bytes as octal escapes. */
function unquote(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
      continue;
    }
    const next = body[i + 1] ?? '';
    bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
    i += 1;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` → null; a trailing tab-separated timestamp is dropped. */
function cleanPath(raw: string): string | null {
  let path = raw.trim();
  if (!path.startsWith('"')) path = path.split('\t')[0] ?? path;
  path = unquote(path);
  if (path === '/dev/null') return null;
  return /^[abciwo]\//.test(path) ? path.slice(2) : path;
}

/** The two paths of a `diff --git a/x b/y` line; quoted paths are split exactly, plain ones at ` b/`. */
function gitHeaderPaths(rest: string): [string | null, string | null] {
  const quoted =
    /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*")$/.exec(rest) ?? /^("(?:[^"\\]|\\.)*") (.+)$/.exec(rest);
  if (quoted) return [cleanPath(quoted[1] as string), cleanPath(quoted[2] as string)];
  const middle = rest.indexOf(' b/');
  if (middle < 0) return [null, null];
  return [cleanPath(rest.slice(0, middle)), cleanPath(rest.slice(middle + 1))];
}

function newSection(): Section {
  return {
    oldPath: null,
    newPath: null,
    added: false,
    deleted: false,
    binary: false,
    oldLines: new Map(),
    newLines: new Map(),
  };
}

/** Lines placed at their file line numbers, gaps left blank, so a parse of the text reports real lines. */
function placeLines(lines: Map<number, string>): string {
  let last = 0;
  for (const number of lines.keys()) last = Math.max(last, number);
  const out = new Array<string>(last).fill('');
  for (const [number, text] of lines) out[number - 1] = text;
  return out.join('\n');
}

function toFileChange(section: Section): FileChange | null {
  if (section.binary) return null;
  const path = section.newPath ?? section.oldPath;
  if (path === null) return null;
  const renamed = section.oldPath !== null && section.newPath !== null && section.oldPath !== section.newPath;
  return {
    path,
    oldPath: renamed ? section.oldPath : null,
    before: section.added ? null : placeLines(section.oldLines),
    after: section.deleted ? null : placeLines(section.newLines),
    partial: true,
  };
}

/** Reads the hunks that start at `start`; returns the index of the first line after them. */
function readHunks(lines: string[], start: number, section: Section): number {
  let i = start;
  while (i < lines.length) {
    const header = HUNK.exec(lines[i] as string);
    if (!header) break;
    let oldLine = Number(header[1]);
    let newLine = Number(header[3]);
    let oldLeft = header[2] === undefined ? 1 : Number(header[2]);
    let newLeft = header[4] === undefined ? 1 : Number(header[4]);
    i++;
    while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
      const line = lines[i] as string;
      const mark = line[0];
      if (mark === '\\') {
        i++;
        continue;
      }
      if (mark === '-') {
        section.oldLines.set(oldLine++, line.slice(1));
        oldLeft--;
      } else if (mark === '+') {
        section.newLines.set(newLine++, line.slice(1));
        newLeft--;
      } else if (mark === ' ' || line === '') {
        section.oldLines.set(oldLine++, line.slice(1));
        section.newLines.set(newLine++, line.slice(1));
        oldLeft--;
        newLeft--;
      } else break;
      i++;
    }
    while (i < lines.length && (lines[i] as string).startsWith('\\')) i++;
  }
  return i;
}

/** Applies one extended-header line of a git diff to the section; false when it is not one. */
function readHeaderLine(line: string, section: Section): boolean {
  if (line.startsWith('new file mode')) section.added = true;
  else if (line.startsWith('deleted file mode')) section.deleted = true;
  else if (line.startsWith('rename from ')) section.oldPath = unquote(line.slice(12));
  else if (line.startsWith('rename to ')) section.newPath = unquote(line.slice(10));
  else if (line.startsWith('copy from ')) section.oldPath = unquote(line.slice(10));
  else if (line.startsWith('copy to ')) section.newPath = unquote(line.slice(8));
  else if (line.startsWith('Binary files ') || line === 'GIT binary patch') section.binary = true;
  else if (line.startsWith('--- ')) {
    const path = cleanPath(line.slice(4));
    if (path === null) section.added = true;
    else section.oldPath = path;
  } else if (line.startsWith('+++ ')) {
    const path = cleanPath(line.slice(4));
    if (path === null) section.deleted = true;
    else section.newPath = path;
  } else return /^(old mode|new mode|similarity index|dissimilarity index|index|literal|delta) /.test(line);
  return true;
}

/**
 * Reads a unified diff (git's or plain `diff -u`, several files) into the files it changes. Whole
 * files are unknown, so `before`/`after` hold the old and new sides of the hunks at their own line
 * numbers (gaps blank) and `partial` is true. Binary files are left out.
 */
export function diffToChanges(diff: string): FileChange[] {
  const lines = diff.split(/\r?\n/);
  const changes: FileChange[] = [];
  let section: Section | null = null;
  const flush = () => {
    const change = section ? toFileChange(section) : null;
    if (change) changes.push(change);
    section = null;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.startsWith('diff --git ')) {
      flush();
      section = newSection();
      [section.oldPath, section.newPath] = gitHeaderPaths(line.slice(11));
      i++;
    } else if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      // A plain diff starts a file at `---`; a git diff has already started it at `diff --git`.
      if (!section || section.oldLines.size > 0 || section.newLines.size > 0) {
        flush();
        section = newSection();
      }
      readHeaderLine(line, section);
      readHeaderLine(lines[i + 1] as string, section);
      i += 2;
    } else if (section && HUNK.test(line)) {
      i = readHunks(lines, i, section);
    } else {
      if (section) readHeaderLine(line, section);
      i++;
    }
  }
  flush();
  return changes;
}
