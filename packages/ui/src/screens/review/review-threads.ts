import type { ReviewComment, ReviewFile, ReviewVerdictDocument } from '../../api/reviews.js';

/** A thread: its first comment (which carries place and resolution) and the replies, oldest first. */
export interface ReviewThread {
  root: ReviewComment;
  replies: ReviewComment[];
}

/** Where the threads of a review sit: on a line, on a file, or on the review as a whole. */
export interface ThreadIndex {
  general: ReviewThread[];
  /** By path: comments on the file itself, and line comments that are outdated (their line changed). */
  byFile: Map<string, ReviewThread[]>;
  /** By path, then by `lineKey(side, line)`: the current line comments. */
  byLine: Map<string, Map<string, ReviewThread[]>>;
}

/** The key of one line of one side of a file. */
export function lineKey(side: 'new' | 'old', line: number): string {
  return `${side}:${line}`;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Groups comments into threads and files each thread where the screen shows it. */
export function indexThreads(comments: readonly ReviewComment[]): ThreadIndex {
  const sorted = [...comments].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const threads = new Map<string, ReviewThread>();
  const orphans: ReviewComment[] = [];
  for (const comment of sorted) {
    if (comment.parentId === null) threads.set(comment.id, { root: comment, replies: [] });
  }
  for (const comment of sorted) {
    if (comment.parentId === null) continue;
    const thread = threads.get(comment.parentId);
    if (thread) thread.replies.push(comment);
    else orphans.push(comment);
  }
  // A reply whose thread is not in the list still shows, as a thread of its own.
  for (const comment of orphans) threads.set(comment.id, { root: comment, replies: [] });

  const index: ThreadIndex = { general: [], byFile: new Map(), byLine: new Map() };
  for (const thread of threads.values()) {
    const { path, line, side, outdated } = thread.root;
    if (path === null) index.general.push(thread);
    else if (line === null || outdated) push(index.byFile, path, thread);
    else {
      let lines = index.byLine.get(path);
      if (lines === undefined) {
        lines = new Map();
        index.byLine.set(path, lines);
      }
      push(lines, lineKey(side ?? 'new', line), thread);
    }
  }
  return index;
}

/** How many threads on a file are still open (not resolved). */
export function openThreadCount(index: ThreadIndex, path: string): number {
  const threads = [...(index.byFile.get(path) ?? []), ...(index.byLine.get(path)?.values() ?? [])].flat();
  return threads.filter((thread) => !thread.root.resolved).length;
}

/** Changed lines past which a file's diff starts collapsed. */
export const LARGE_FILE_LINES = 400;
/** Files of a review shown open at first; the rest open on demand, so a 500-file review stays light. */
export const OPEN_AT_FIRST = 20;

/** Whether a file starts collapsed: binary, large, or past the first {@link OPEN_AT_FIRST} files. */
export function startsCollapsed(file: ReviewFile, position: number): boolean {
  return file.binary || file.added + file.removed > LARGE_FILE_LINES || position >= OPEN_AT_FIRST;
}

/** The latest verdict `author` gave on `path` (null = the whole review), or null. */
export function verdictOf(
  verdicts: readonly ReviewVerdictDocument[],
  author: string,
  path: string | null,
): ReviewVerdictDocument | null {
  let latest: ReviewVerdictDocument | null = null;
  for (const verdict of verdicts) {
    if (verdict.author !== author || verdict.path !== path) continue;
    if (latest === null || verdict.createdAt >= latest.createdAt) latest = verdict;
  }
  return latest;
}

/** Everyone's latest verdict on `path` (null = the whole review), one per author. */
export function latestVerdicts(
  verdicts: readonly ReviewVerdictDocument[],
  path: string | null,
): ReviewVerdictDocument[] {
  const byAuthor = new Map<string, ReviewVerdictDocument>();
  for (const verdict of verdicts) {
    if (verdict.path !== path) continue;
    const seen = byAuthor.get(verdict.author);
    if (seen === undefined || verdict.createdAt >= seen.createdAt) byAuthor.set(verdict.author, verdict);
  }
  return [...byAuthor.values()];
}
