import { describe, expect, it } from 'vitest';
import { changesOf, findingHunk } from './finding-hunks.js';

const lines = (count: number, prefix = 'line') =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

describe('the hunk of a finding', () => {
  it('shows an added line of the new file with three lines of context each side', () => {
    const before = lines(20);
    const after = [...before.slice(0, 10), 'return 110;', ...before.slice(10)];
    const file = { path: 'src/a.ts', before: before.join('\n'), after: after.join('\n') };
    const hunk = findingHunk(
      { kind: 'laziness', pattern: 'lazy.hardcoded_result', file: 'src/a.ts', line: 11 },
      [file],
    );
    expect(hunk?.split('\n')).toEqual([
      '@@ -8,6 +8,7 @@',
      ' line 8',
      ' line 9',
      ' line 10',
      '+return 110;',
      ' line 11',
      ' line 12',
      ' line 13',
    ]);
  });

  it('finds a removed test by its line in the old file, among other edits of the same file', () => {
    const before = lines(40);
    const after = [
      ...before.slice(0, 4),
      'line 5 changed',
      ...before.slice(5, 20),
      ...before.slice(22, 38),
      'tail',
    ];
    const file = { path: 't.test.ts', before: before.join('\n'), after: after.join('\n') };
    const hunk = findingHunk({ kind: 'test_removed', pattern: 'test.removed', file: 't.test.ts', line: 21 }, [
      file,
    ]);
    expect(hunk).toContain('-line 21');
    expect(hunk).toContain('-line 22');
    expect(hunk).not.toContain('line 5 changed');
    expect(hunk?.split('\n')[0]).toBe('@@ -18,7 +18,5 @@');
  });

  it('is null without a line, or for a file the change did not include', () => {
    const file = { path: 'a.ts', before: 'a', after: 'b' };
    expect(findingHunk({ kind: 'laziness', pattern: 'x', file: 'a.ts', line: null }, [file])).toBeNull();
    expect(findingHunk({ kind: 'laziness', pattern: 'x', file: 'b.ts', line: 1 }, [file])).toBeNull();
  });

  it('cuts a very long line', () => {
    const file = { path: 'a.ts', before: 'x', after: 'y'.repeat(500) };
    const hunk = findingHunk({ kind: 'laziness', pattern: 'x', file: 'a.ts', line: 1 }, [file]) ?? '';
    expect(hunk.split('\n')[2]?.length).toBeLessThan(210);
  });
});

describe('the change as the server received it', () => {
  const file = {
    path: 'src/a.ts',
    before: lines(30).join('\n'),
    after: lines(30).join('\n').replace('line 15', 'line fifteen'),
  };

  it('is one unified diff per named file when the action carries no diff', () => {
    const [change, ...others] = changesOf([file, { ...file, path: 'src/b.ts' }], ['src/a.ts'], {
      command: 'x',
    });
    expect(others).toEqual([]);
    expect(change?.path).toBe('src/a.ts');
    expect(change?.diff.split('\n')).toEqual([
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -12,7 +12,7 @@',
      ' line 12',
      ' line 13',
      ' line 14',
      '-line 15',
      '+line fifteen',
      ' line 16',
      ' line 17',
      ' line 18',
    ]);
  });

  it('is left out when the action carries a diff or texts before and after', () => {
    expect(changesOf([file], ['src/a.ts'], { diff: '@@ …' })).toEqual([]);
    expect(changesOf([file], ['src/a.ts'], { old_string: 'a', new_string: 'b' })).toEqual([]);
  });
});
