import { collapseContext, type DiffLine, type FileDiff } from './diff-lines.js';
import { Revealed } from './Revealed.js';

const MARKER: Record<DiffLine['kind'], string> = {
  add: '+',
  remove: '-',
  context: ' ',
  hunk: '',
  meta: '',
  skipped: '⋯',
};

function counts(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === 'add') added++;
    else if (line.kind === 'remove') removed++;
  }
  return { added, removed };
}

function FileChanges({ file, index }: { file: FileDiff; index: number }) {
  const { added, removed } = counts(file.lines);
  const shown = collapseContext(file.lines);
  return (
    <figure className="diff-file">
      <figcaption>
        <code>
          {file.path === null ? `Change ${index + 1}` : <Revealed text={file.path} multiline={false} />}
        </code>{' '}
        <span className="muted">
          {added} added, {removed} removed
        </span>
      </figcaption>
      <pre className="diff-lines">
        {shown.map((line, i) => (
          // Lines have no identity but their place; the list never reorders.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <span key={i} className={`diff-line diff-${line.kind}`}>
            <span className="diff-marker" aria-hidden={line.kind === 'context' || line.kind === 'skipped'}>
              {MARKER[line.kind]}
            </span>
            {line.kind === 'skipped' ? (
              <span className="muted">{line.text}</span>
            ) : (
              <Revealed text={line.text} />
            )}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}

/** A unified diff: each changed line marked `+` (added) or `-` (removed) as text, colour only helps. */
export function DiffView({ files, headingId }: { files: readonly FileDiff[]; headingId: string }) {
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        Changes
      </h2>
      {files.length === 0 ? (
        <p className="muted">The agent sent no diff with this gate; see the context and artifacts below.</p>
      ) : (
        <>
          <p className="muted diff-legend">
            Lines starting with <code>+</code> are added, <code>-</code> removed.
          </p>
          {files.map((file, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two changes may name the same file; the list never reorders
            <FileChanges key={`${file.path ?? ''}#${index}`} file={file} index={index} />
          ))}
        </>
      )}
    </section>
  );
}
