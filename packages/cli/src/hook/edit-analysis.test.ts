import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANALYZE_DIFF_MAX_CHARS, ANALYZE_LINES_MAX as SERVER_LINES_MAX } from 'gatehouse-hitl-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ANALYZE_LINES_MAX,
  ANALYZE_TEXT_MAX_CHARS,
  applyStringEdit,
  contentAfter,
  editedFile,
  summariseFindings,
} from './edit-analysis.js';

const edit = (oldString: string, newString: string, replaceAll = false) => ({
  oldString,
  newString,
  replaceAll,
});

describe('applyStringEdit, as Claude Code applies an Edit', () => {
  it.each([
    ['replaces the one match', 'a b c', edit('b', 'B'), 'a B c'],
    ['replaces every match with replace_all', 'x-x-x', edit('x', 'y', true), 'y-y-y'],
    ['keeps $& in new_string as text', 'price', edit('price', '$& $1'), '$& $1'],
    ['creates a missing file from an empty old_string', null, edit('', 'new\n'), 'new\n'],
    ['fills an empty file from an empty old_string', '', edit('', 'new\n'), 'new\n'],
  ])('%s', (_name, before, change, after) => {
    expect(applyStringEdit(before, change)).toBe(after);
  });

  it.each([
    ['an old_string that does not match', 'a b c', edit('z', 'Z')],
    ['several matches without replace_all', 'x-x', edit('x', 'y')],
    ['old_string equal to new_string', 'a b', edit('a', 'a')],
    ['an old_string for a file that does not exist', null, edit('a', 'b')],
    ['an empty old_string for a file with content', 'a', edit('', 'b')],
  ])('refuses %s, which Claude Code reports itself', (_name, before, change) => {
    expect(applyStringEdit(before, change)).toBeNull();
  });
});

describe('contentAfter', () => {
  it('applies a MultiEdit in order, each edit on the result of the one before', () => {
    const input = {
      file_path: '/x.ts',
      edits: [
        { old_string: 'one', new_string: 'two' },
        { old_string: 'two two', new_string: 'three' },
      ],
    };
    expect(contentAfter('MultiEdit', input, 'one two')).toBe('three');
  });

  it('refuses the whole MultiEdit when one of its edits does not match', () => {
    const input = {
      edits: [
        { old_string: 'one', new_string: 'two' },
        { old_string: 'missing', new_string: 'x' },
      ],
    };
    expect(contentAfter('MultiEdit', input, 'one')).toBeNull();
  });

  it('takes the content of a Write as it is', () => {
    expect(contentAfter('Write', { file_path: '/x', content: 'all new' }, 'old')).toBe('all new');
  });
});

describe('editedFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-edit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the file from disk and names it relative to the working directory', async () => {
    writeFileSync(join(dir, 'cart.ts'), 'export const total = 1;\n');
    const file = await editedFile(
      'Edit',
      { file_path: join(dir, 'cart.ts'), old_string: '1', new_string: '2' },
      dir,
    );
    expect(file).toEqual({
      path: 'cart.ts',
      before: 'export const total = 1;\n',
      after: 'export const total = 2;\n',
    });
  });

  it('gives before null for a Write of a new file', async () => {
    const file = await editedFile('Write', { file_path: join(dir, 'new.ts'), content: 'x' }, '/elsewhere');
    expect(file).toEqual({ path: join(dir, 'new.ts'), before: null, after: 'x' });
  });

  it('gives null for tools that edit nothing and for files too large to send', async () => {
    expect(await editedFile('Read', { file_path: join(dir, 'cart.ts') }, dir)).toBeNull();
    const big = 'x'.repeat(950_000);
    expect(await editedFile('Write', { file_path: join(dir, 'big.txt'), content: big }, dir)).toBeNull();
  });

  it('uses the same text and line limits as the analyze route', () => {
    expect(ANALYZE_TEXT_MAX_CHARS).toBe(ANALYZE_DIFF_MAX_CHARS);
    expect(ANALYZE_LINES_MAX).toBe(SERVER_LINES_MAX);
  });

  it('leaves an edit past the line limit to the policy alone', async () => {
    const lines = 'x\n'.repeat(ANALYZE_LINES_MAX + 1);
    expect(await editedFile('Write', { file_path: join(dir, 'long.txt'), content: lines }, dir)).toBeNull();
    const fits = 'x\n'.repeat(100);
    expect(
      await editedFile('Write', { file_path: join(dir, 'short.txt'), content: fits }, dir),
    ).not.toBeNull();
  });
});

describe('summariseFindings', () => {
  it('names pattern, place, test and confidence, and counts what it leaves out', () => {
    const finding = {
      key: 'k',
      kind: 'test_removed',
      pattern: 'test_removed',
      severity: 'high' as const,
      confidence: 0.95,
      file: 'src/cart.test.ts',
      line: 12,
      name: 'adds items',
      message: 'test "adds items" was removed',
    };
    const text = summariseFindings(Array.from({ length: 7 }, () => finding));
    expect(text.split('\n')[0]).toBe(
      '- test_removed at src/cart.test.ts:12 ("adds items"), high, confidence 0.95: test "adds items" was removed',
    );
    expect(text).toContain('- and 2 more');
  });
});
