import { describe, expect, it } from 'vitest';
import { gateChanges } from './gate-changes.js';

const lines = (files: ReturnType<typeof gateChanges>) =>
  files.map((file) => [file.path, file.lines.filter((l) => l.kind === 'add' || l.kind === 'remove').length]);

describe('gateChanges', () => {
  it("diffs an edit tool's old and new strings under the file it edits", () => {
    const files = gateChanges({
      context: {},
      action: { tool: 'Edit', args: { file_path: 'src/a.ts', old_string: 'x = 1\n', new_string: 'x = 2\n' } },
    });
    expect(lines(files)).toEqual([['src/a.ts', 2]]);
  });

  it('reads a unified diff from the context and a list of before/after changes', () => {
    const files = gateChanges({
      context: {
        diff: '--- a/t.test.ts\n+++ b/t.test.ts\n@@ -1,2 +1 @@\n-it("a")\n keep\n',
        changes: [
          { path: 'src/b.ts', before: 'one\n', after: 'two\n' },
          { path: 'src/c.ts', before: 'same', after: 'same' },
        ],
      },
      action: null,
    });
    expect(lines(files)).toEqual([
      ['src/b.ts', 2],
      ['t.test.ts', 1],
    ]);
  });

  it('finds nothing in a gate without changes', () => {
    expect(
      gateChanges({ context: { reason: 'x' }, action: { tool: 'Bash', args: { command: 'ls' } } }),
    ).toEqual([]);
  });
});
