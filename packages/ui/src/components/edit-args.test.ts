import { describe, expect, it } from 'vitest';
import { changesOf } from './edit-args.js';

describe('changesOf', () => {
  it('lists only the arguments an edit changed, each with both values', () => {
    const original = { path: 'notes.md', content: 'a\nb\n', retries: 2 };
    expect(changesOf(original, { ...original, content: 'a\nc\n' })).toEqual([
      { name: 'content', before: 'a\nb\n', after: 'a\nc\n' },
    ]);
  });

  it('names an argument the edit added or left out', () => {
    expect(changesOf({ path: 'a' }, { path: 'a', force: true })).toEqual([
      { name: 'force', before: '(not set)', after: 'true' },
    ]);
    expect(changesOf({ path: 'a', force: true }, { path: 'a' })).toEqual([
      { name: 'force', before: 'true', after: '(not set)' },
    ]);
  });
});
