import type { ReviewComment, ReviewFile, ReviewVerdictDocument } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import {
  indexThreads,
  LARGE_FILE_LINES,
  latestVerdicts,
  lineKey,
  OPEN_AT_FIRST,
  openThreadCount,
  startsCollapsed,
  verdictOf,
} from './review-threads.js';

let clock = 0;
function comment(id: string, fields: Partial<ReviewComment> = {}): ReviewComment {
  clock += 1;
  return {
    id,
    reviewId: 'rev_1',
    parentId: null,
    path: null,
    line: null,
    side: null,
    commit: 'a'.repeat(40),
    lineText: null,
    author: 'user:u1',
    authorName: 'dana',
    body: id,
    resolved: false,
    pending: false,
    startLine: null,
    suggestion: null,
    outdated: false,
    createdAt: clock,
    ...fields,
  };
}

describe('indexThreads', () => {
  it('files general, file, line and outdated threads where the screen shows them, replies in order', () => {
    const index = indexThreads([
      comment('cmt_reply2', { parentId: 'cmt_line', createdAt: 50 }),
      comment('cmt_general'),
      comment('cmt_file', { path: 'a.md' }),
      comment('cmt_line', { path: 'a.md', line: 3, side: 'new' }),
      comment('cmt_old', { path: 'a.md', line: 2, side: 'old' }),
      comment('cmt_outdated', { path: 'a.md', line: 9, side: 'new', outdated: true }),
      comment('cmt_reply1', { parentId: 'cmt_line', createdAt: 40 }),
    ]);
    expect(index.general.map((t) => t.root.id)).toEqual(['cmt_general']);
    expect(index.byFile.get('a.md')?.map((t) => t.root.id)).toEqual(['cmt_file', 'cmt_outdated']);
    const line = index.byLine.get('a.md')?.get(lineKey('new', 3));
    expect(line?.[0]?.replies.map((c) => c.id)).toEqual(['cmt_reply1', 'cmt_reply2']);
    expect(index.byLine.get('a.md')?.get(lineKey('old', 2))?.[0]?.root.id).toBe('cmt_old');
    expect(index.byLine.get('a.md')?.get(lineKey('new', 2))).toBeUndefined();
  });

  it('keeps a reply whose thread is missing as a thread of its own', () => {
    const index = indexThreads([comment('cmt_lost', { parentId: 'cmt_gone' })]);
    expect(index.general.map((t) => t.root.id)).toEqual(['cmt_lost']);
  });

  it('counts the open threads of a file, resolved ones left out', () => {
    const index = indexThreads([
      comment('cmt_a', { path: 'x.ts', line: 1, side: 'new' }),
      comment('cmt_b', { path: 'x.ts', line: 4, side: 'new', resolved: true }),
      comment('cmt_c', { path: 'x.ts' }),
      comment('cmt_d', { path: 'y.ts', line: 1, side: 'new' }),
    ]);
    expect(openThreadCount(index, 'x.ts')).toBe(2);
    expect(openThreadCount(index, 'z.ts')).toBe(0);
  });
});

describe('startsCollapsed', () => {
  const file = (fields: Partial<ReviewFile>): ReviewFile => ({
    path: 'a.ts',
    oldPath: null,
    status: 'modified',
    added: 1,
    removed: 1,
    binary: false,
    ...fields,
  });
  it('collapses binary files, files past the size, and files past the first few', () => {
    expect(startsCollapsed(file({}), 0)).toBe(false);
    expect(startsCollapsed(file({ binary: true, added: 0, removed: 0 }), 0)).toBe(true);
    expect(startsCollapsed(file({ added: LARGE_FILE_LINES, removed: 1 }), 0)).toBe(true);
    expect(startsCollapsed(file({ added: LARGE_FILE_LINES - 1, removed: 1 }), 0)).toBe(false);
    expect(startsCollapsed(file({}), OPEN_AT_FIRST)).toBe(true);
  });
});

describe('verdicts', () => {
  const verdict = (author: string, path: string | null, v: 'approve' | 'request_changes', at: number) =>
    ({ author, authorName: author, path, verdict: v, commit: 'c', createdAt: at }) as ReviewVerdictDocument;
  const all = [
    verdict('user:a', 'x.ts', 'request_changes', 1),
    verdict('user:a', 'x.ts', 'approve', 2),
    verdict('user:b', 'x.ts', 'request_changes', 3),
    verdict('user:a', null, 'request_changes', 4),
  ];
  it("reads a person's latest verdict per file and for the whole review", () => {
    expect(verdictOf(all, 'user:a', 'x.ts')?.verdict).toBe('approve');
    expect(verdictOf(all, 'user:a', null)?.verdict).toBe('request_changes');
    expect(verdictOf(all, 'user:b', null)).toBeNull();
  });
  it("lists each person's latest verdict on a file once", () => {
    expect(latestVerdicts(all, 'x.ts').map((v) => `${v.author}=${v.verdict}`)).toEqual([
      'user:a=approve',
      'user:b=request_changes',
    ]);
  });
});
