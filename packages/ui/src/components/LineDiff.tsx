import { useMemo, useState } from 'react';
import { diffLines, withContext } from '../lib/line-diff.js';

const MARK = { same: ' ', removed: '-', added: '+' } as const;
const SPOKEN = { same: 'unchanged', removed: 'removed', added: 'added' } as const;

/**
 * A line diff of two texts with +/- markers and both line numbers; unchanged stretches fold away
 * unless the whole text is asked for.
 */
export function LineDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const [whole, setWhole] = useState(false);
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const added = lines.filter((line) => line.kind === 'added').length;
  const removed = lines.filter((line) => line.kind === 'removed').length;
  const shown = whole ? lines : withContext(lines, 3);

  if (added === 0 && removed === 0) return <p className="muted">The two versions are identical.</p>;
  return (
    <figure className="line-diff-figure">
      <figcaption className="row">
        <span>
          {label}: <strong>{added}</strong> line{added === 1 ? '' : 's'} added (+), <strong>{removed}</strong>{' '}
          removed (−)
        </span>
        <label className="inline-check">
          <input type="checkbox" checked={whole} onChange={(event) => setWhole(event.target.checked)} /> Show
          unchanged lines
        </label>
      </figcaption>
      <div className="table-scroll">
        <table className="line-diff">
          <caption className="visually-hidden">{label}</caption>
          <thead className="visually-hidden">
            <tr>
              <th scope="col">Old line</th>
              <th scope="col">New line</th>
              <th scope="col">Change</th>
              <th scope="col">Text</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((line, index) =>
              line === null ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity but their place
                <tr key={`gap-${index}`} className="diff-gap">
                  <td colSpan={4}>⋯ unchanged lines hidden</td>
                </tr>
              ) : (
                <tr key={`${line.oldLine ?? ''}-${line.newLine ?? ''}`} className={`diff-${line.kind}`}>
                  <td className="diff-num">{line.oldLine ?? ''}</td>
                  <td className="diff-num">{line.newLine ?? ''}</td>
                  <td className="diff-mark">
                    <span aria-hidden="true">{MARK[line.kind]}</span>
                    <span className="visually-hidden">{SPOKEN[line.kind]}</span>
                  </td>
                  <td className="diff-text">{line.text}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
