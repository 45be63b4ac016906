import { globToRegExp } from './whitelist-match.js';

/** Paths far apart from each other: a glob that matches them all covers every file. */
const SPREAD = ['a', 'README.md', '.env', 'src/index.ts', 'deep/er/nested/x.py', 'test/a.test.js'];

/** A name with letters or digits once wildcards (and, for a file, a trailing `.ext`) are taken out. */
function isLiteral(segment: string, isFile: boolean): boolean {
  // `.env` is a file name; in `*.ts` the `.ts` alone names no file.
  const stem = isFile ? segment.replace(/\.[A-Za-z0-9]+$/, '') : segment;
  if (isFile && stem === '') return true;
  return /[A-Za-z0-9]/.test(stem.replace(/[*?]/g, ''));
}

/**
 * Why a file entry's glob is too broad to be one, or null when it names files: it is empty, it
 * matches every file (`**`, `**\/*`, `/**`), it starts with `/` or `./` (globs are relative to the
 * repository root), or no folder and no file name in it is literal: only wildcards and at most an
 * extension (`*`, `*.ts`, `**\/*.py`). A file entry covers a folder (`src/legacy/**`) or a kind of
 * file (`**\/*.gen.ts`); an entry for every file is a global one, chosen as such.
 */
export function broadGlobRefusal(glob: string): string | null {
  const trimmed = glob.trim();
  if (trimmed === '') return 'is empty; type the glob of the files the pattern is fine in';
  const relative = trimmed.replace(/^(\.?\/)+/, '');
  const matcher = globToRegExp(relative);
  if (relative === '' || SPREAD.every((path) => matcher.test(path)))
    return `${glob} matches every file; type the folder or files the pattern is fine in (src/legacy/**), or make a global entry`;
  if (relative !== trimmed)
    return `${glob} is relative to the repository root: write it without a leading / or ./ (${relative})`;
  const segments = relative.split('/').filter((segment) => segment !== '' && segment !== '.');
  const named = segments.some((segment, i) => isLiteral(segment, i === segments.length - 1));
  if (!named)
    return `${glob} names no folder and no file, only wildcards and an extension; add a folder (src/legacy/**) or a file name (**/*.gen.ts), or make a global entry`;
  return null;
}
