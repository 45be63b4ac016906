import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReviewComment } from 'gatehouse-hitl-sdk';

/** How the agent answered one comment: the edit it made and the reply it posted. */
export interface CommentAnswer {
  commentId: string;
  path: string | null;
  line: number | null;
  /** The line as the agent left it; null when no line was edited. */
  edited: string | null;
  reply: string;
}

/** The comments a revision answers: people's threads still open. */
export function commentsToAnswer(comments: readonly ReviewComment[]): ReviewComment[] {
  return comments.filter(
    (comment) => comment.parentId === null && !comment.resolved && !comment.author.startsWith('agent:'),
  );
}

/**
 * Answers one comment in the checked-out branch, with no LLM: a line comment rewrites the line it
 * points at, a file or general comment adds a note; returns the reply to post.
 */
export function answerComment(dir: string, comment: ReviewComment, branch: string): CommentAnswer {
  const base = { commentId: comment.id, path: comment.path, line: comment.line };
  const request = comment.body.replace(/\s+/g, ' ').trim();
  if (
    comment.path !== null &&
    comment.line !== null &&
    !comment.outdated &&
    existsSync(join(dir, comment.path))
  ) {
    const file = join(dir, comment.path);
    const lines = readFileSync(file, 'utf8').split('\n');
    const index = comment.line - 1;
    if (index < lines.length) {
      const edited = `${(lines[index] ?? '').trimEnd()} (revised: ${request})`;
      lines[index] = edited;
      writeFileSync(file, lines.join('\n'));
      const reply = `Done on ${branch}: ${comment.path} line ${comment.line} now reads "${edited}".`;
      return { ...base, edited, reply };
    }
  }
  const notes = join(dir, 'workspace.md');
  const before = existsSync(notes) ? readFileSync(notes, 'utf8') : '';
  const where = comment.path === null ? 'the review' : comment.path;
  writeFileSync(
    notes,
    `${before.trimEnd()}\n\n- Review note on ${where} (${comment.authorName}): ${request}\n`,
  );
  return {
    ...base,
    edited: null,
    reply: `Noted on ${branch}: recorded in workspace.md and followed from here on.`,
  };
}
