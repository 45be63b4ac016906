import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';
import { diffToChanges } from './diff-input.js';
import type { FileChange } from './types.js';

async function removedOf(files: FileChange[]): Promise<string[]> {
  const { findings } = await analyzeChange({ files });
  return findings.filter((item) => item.kind === 'export_removed').map((item) => item.name ?? '');
}

/** A hunk that drops `removed` (a method of four lines) from between two kept methods, with no class head in sight. */
function hunk(path: string, kept: [string, string], removed: string): string {
  const lines = removed.split('\n');
  return [
    `diff --git a/${path} b/${path}`,
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -40,${9 + lines.length} +40,9 @@`,
    ...kept[0].split('\n').map((text) => ` ${text}`),
    '-',
    ...lines.map((text) => `-${text}`),
    ...kept[1].split('\n').map((text) => ` ${text}`),
  ].join('\n');
}

describe('public methods removed', () => {
  it('reports a protected method removed from a public Java class: subclasses call it', async () => {
    const file = (extra: string) =>
      `package shop;\n\npublic class Cart {\n    public int size() {\n        return 0;\n    }\n${extra}}\n`;
    const before = file('\n    protected void recount() {\n        total = 0;\n    }\n');
    expect(await removedOf([{ path: 'src/main/java/shop/Cart.java', before, after: file('') }])).toEqual([
      'Cart.recount',
    ]);
  });

  it('does not report a package-private or private Java method removed', async () => {
    const file = (extra: string) =>
      `package shop;\n\npublic class Cart {\n    public int size() {\n        return 0;\n    }\n${extra}}\n`;
    const before = file('\n    void recount() {\n    }\n\n    private void reset() {\n    }\n');
    expect(await removedOf([{ path: 'src/main/java/shop/Cart.java', before, after: file('') }])).toEqual([]);
  });

  it.each([
    [
      'src/main/java/shop/Cart.java',
      ['    public int size() {\n        return items.size();\n    }', '    private void reset() {\n    }\n'],
      '    public void addFirst(Item item) {\n        items.add(0, item);\n    }\n',
      'addFirst',
    ],
    [
      'src/cart.rs',
      [
        '    pub fn len(&self) -> usize {\n        self.items.len()\n    }',
        '    fn reset(&mut self) {\n    }\n',
      ],
      '    pub fn make_mut(self) -> Cart {\n        self\n    }\n',
      'make_mut',
    ],
    [
      'cart.go',
      ['func (c *Cart) Size() int {\n\treturn len(c.items)\n}', 'func (c *Cart) reset() {\n}\n'],
      'func (c *Cart) AddFirst(item Item) {\n\tc.items = append([]Item{item}, c.items...)\n}\n',
      'Cart.AddFirst',
    ],
  ] as const)(
    'reports a public method removed in a diff hunk of %s that shows no class head',
    async (path, kept, removed, name) => {
      expect(await removedOf(diffToChanges(hunk(path, [kept[0], kept[1]], removed)))).toEqual([name]);
    },
  );

  it('does not report a private Java method removed in a diff hunk', async () => {
    const diff = hunk(
      'src/main/java/shop/Cart.java',
      ['    public int size() {\n        return items.size();\n    }', '    public void clear() {\n    }\n'],
      '    private void reset() {\n        items.clear();\n    }\n',
    );
    expect(await removedOf(diffToChanges(diff))).toEqual([]);
  });
});
