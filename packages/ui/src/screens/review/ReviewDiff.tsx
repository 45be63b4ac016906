import { Fragment, useMemo, useState } from 'react';
import type { DiffLine, FileDiff } from '../../api/reviews.js';
import { Revealed } from '../../components/Revealed.js';
import { highlightLine, languageOf } from './highlight.js';
import { type LineCommentInput, ReviewLineCommentForm } from './ReviewLineCommentForm.js';
import { ReviewThreadView } from './ReviewThreadView.js';
import { lineKey, type ReviewThread } from './review-threads.js';
import { splitRows } from './split-rows.js';

/** A line of code, highlighted when its language is known; highlight.js escapes the text it returns. */
function CodeText({ language, text }: { language: string | null; text: string }) {
  const html = highlightLine(language, text);
  if (html === null) return <Revealed text={text} />;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js's output, which escapes the line's text
  return <span dangerouslySetInnerHTML={{ __html: html }} />;
}

const MARKER: Record<DiffLine['kind'], string> = { context: ' ', add: '+', del: '-' };
const KIND_TEXT: Record<DiffLine['kind'], string> = { context: '', add: 'added', del: 'removed' };

type Anchor = { side: 'new' | 'old'; line: number };

/** The side and number a comment on this line is written against: removed lines on old, others on new. */
function anchorOf(line: DiffLine): Anchor | null {
  if (line.kind === 'del') return line.oldLine === null ? null : { side: 'old', line: line.oldLine };
  return line.newLine === null ? null : { side: 'new', line: line.newLine };
}

export interface ReviewDiffProps {
  reviewId: string;
  diff: FileDiff;
  /** Current line threads of this file, by `lineKey`. */
  threads: Map<string, ReviewThread[]>;
  canComment: boolean;
  /** Side by side: the old side on the left, the new on the right. */
  split: boolean;
  onComment(
    anchor: { side: 'new' | 'old'; line: number },
    input: LineCommentInput,
    pending: boolean,
  ): Promise<void>;
  onChanged(): void;
}

/**
 * A file's diff, hunk by hunk, with old and new line numbers; a person clicks a line's number to
 * comment on it, and the line's threads show under it.
 */
export function ReviewDiff({
  reviewId,
  diff,
  threads,
  canComment,
  split,
  onComment,
  onChanged,
}: ReviewDiffProps) {
  const [composing, setComposing] = useState<string | null>(null);
  const lineTexts = useMemo(() => {
    const texts = new Map<number, string>();
    for (const hunk of diff.hunks) {
      for (const line of hunk.lines) if (line.newLine !== null) texts.set(line.newLine, line.text);
    }
    return texts;
  }, [diff.hunks]);
  const language = languageOf(diff.path);
  if (diff.binary) return <p className="review-binary">Binary file</p>;
  if (diff.hunks.length === 0) return <p className="muted">No line changes (mode or name only).</p>;

  const numberCell = (line: DiffLine, number: number | null, isAnchor: boolean) => {
    const anchor = anchorOf(line);
    if (number === null) return <td className="review-ln" />;
    if (!isAnchor || !canComment || anchor === null) return <td className="review-ln">{number}</td>;
    const key = lineKey(anchor.side, anchor.line);
    const side = anchor.side === 'old' ? 'old line' : 'line';
    return (
      <td className="review-ln">
        <button
          type="button"
          className="review-ln-button"
          aria-label={`Comment on ${side} ${number} of ${diff.path}`}
          aria-expanded={composing === key}
          onClick={() => setComposing(composing === key ? null : key)}
        >
          {number}
        </button>
      </td>
    );
  };

  const codeCell = (line: DiffLine) => (
    <td className={`review-code review-code-${line.kind}`}>
      <span className="review-marker" aria-hidden="true">
        {MARKER[line.kind]}
      </span>
      {KIND_TEXT[line.kind] && <span className="visually-hidden">{KIND_TEXT[line.kind]}: </span>}
      <CodeText language={language} text={line.text} />
    </td>
  );

  const threadRow = (anchor: Anchor, span: number) => {
    const key = lineKey(anchor.side, anchor.line);
    const lineThreads = threads.get(key) ?? [];
    if (lineThreads.length === 0 && composing !== key) return null;
    return (
      <tr key={key} className="review-line-threads">
        <td colSpan={span}>
          {lineThreads.map((thread) => (
            <ReviewThreadView
              key={thread.root.id}
              reviewId={reviewId}
              thread={thread}
              canReply={canComment}
              onChanged={onChanged}
            />
          ))}
          {composing === key && (
            <ReviewLineCommentForm
              label={`Comment on ${anchor.side === 'old' ? 'old line' : 'line'} ${anchor.line} of ${diff.path}`}
              line={anchor.line}
              side={anchor.side}
              lineTexts={lineTexts}
              onCancel={() => setComposing(null)}
              onSubmit={async (input, pending) => {
                await onComment(anchor, input, pending);
                setComposing(null);
              }}
            />
          )}
        </td>
      </tr>
    );
  };

  return (
    <div className="review-diff-scroll">
      <table className={split ? 'review-diff review-diff-split' : 'review-diff'}>
        <caption className="visually-hidden">Changes to {diff.path}</caption>
        <thead className="visually-hidden">
          {split ? (
            <tr>
              <th scope="col">Old line</th>
              <th scope="col">Old text</th>
              <th scope="col">New line</th>
              <th scope="col">New text</th>
            </tr>
          ) : (
            <tr>
              <th scope="col">Old line</th>
              <th scope="col">New line</th>
              <th scope="col">Text</th>
            </tr>
          )}
        </thead>
        <tbody>
          {diff.hunks.map((hunk) => (
            <Fragment key={`${hunk.oldStart}:${hunk.newStart}`}>
              <tr className="review-hunk">
                <td colSpan={split ? 4 : 3}>{hunk.header}</td>
              </tr>
              {split
                ? splitRows(hunk.lines).map((row, index) => {
                    const anchors = [row.old, row.new === row.old ? null : row.new]
                      .filter((line): line is DiffLine => line !== null)
                      .map(anchorOf)
                      .filter((anchor): anchor is Anchor => anchor !== null);
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a hunk's rows never reorder
                      <Fragment key={index}>
                        <tr className="review-line review-line-split">
                          {row.old === null ? (
                            <td className="review-ln" />
                          ) : (
                            numberCell(row.old, row.old.oldLine, row.old.kind === 'del')
                          )}
                          {row.old === null ? <td className="review-code review-empty" /> : codeCell(row.old)}
                          {row.new === null ? (
                            <td className="review-ln" />
                          ) : (
                            numberCell(row.new, row.new.newLine, row.new.kind !== 'del')
                          )}
                          {row.new === null ? <td className="review-code review-empty" /> : codeCell(row.new)}
                        </tr>
                        {anchors.map((anchor) => threadRow(anchor, 4))}
                      </Fragment>
                    );
                  })
                : hunk.lines.map((line, index) => {
                    const anchor = anchorOf(line);
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a hunk's lines never reorder
                      <Fragment key={index}>
                        <tr className={`review-line review-line-${line.kind}`}>
                          {numberCell(line, line.oldLine, line.kind === 'del')}
                          {numberCell(line, line.newLine, line.kind !== 'del')}
                          {codeCell(line)}
                        </tr>
                        {anchor && threadRow(anchor, 3)}
                      </Fragment>
                    );
                  })}
            </Fragment>
          ))}
        </tbody>
      </table>
      {diff.truncated && <p className="notice warn">This diff was cut at the server's size limit.</p>}
    </div>
  );
}
