import { useDeferredValue, useId, useMemo, useState } from 'react';
import type { ReviewDocument, ReviewFile, ReviewVerdictDocument } from '../../api/reviews.js';
import { ReviewFileSection } from './ReviewFileSection.js';
import { openThreadCount, startsCollapsed, type ThreadIndex } from './review-threads.js';

/** Files rendered at a time; a 500-file review stays light, the rest come on request or by filter. */
const PAGE = 100;
const NO_THREADS = new Map();

/** The changed files with their totals, a filter, and each file's section (diff, comments, verdicts). */
export function ReviewFileList({
  review,
  files,
  threads,
  verdicts,
  myAuthor,
  canComment,
  canEdit,
  onChanged,
}: {
  review: ReviewDocument;
  files: readonly ReviewFile[];
  threads: ThreadIndex;
  verdicts: ReviewVerdictDocument[];
  myAuthor: string;
  canComment: boolean;
  canEdit: boolean;
  onChanged(): void;
}) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const [limit, setLimit] = useState(PAGE);
  const query = useDeferredValue(filter.trim().toLowerCase());
  const matching = useMemo(
    () => (query ? files.filter((file) => file.path.toLowerCase().includes(query)) : files),
    [files, query],
  );
  const added = files.reduce((sum, file) => sum + file.added, 0);
  const removed = files.reduce((sum, file) => sum + file.removed, 0);
  const positions = useMemo(() => new Map(files.map((file, index) => [file.path, index])), [files]);

  return (
    <section className="review-files" aria-labelledby={`${id}-heading`}>
      <div className="row review-files-head">
        <h2 id={`${id}-heading`}>Files changed ({files.length})</h2>
        <span className="review-counts">
          <span className="review-added">+{added}</span> <span className="review-removed">−{removed}</span>
        </span>
        {files.length > 10 && (
          <>
            <label htmlFor={`${id}-filter`} className="visually-hidden">
              Filter files by path
            </label>
            <input
              id={`${id}-filter`}
              type="search"
              placeholder="Filter files"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          </>
        )}
      </div>
      {files.length === 0 && <p className="muted">The branch changes no files.</p>}
      {query && (
        <p className="muted small" role="status">
          {matching.length} of {files.length} files match.
        </p>
      )}
      {matching.slice(0, limit).map((file) => (
        <ReviewFileSection
          key={file.path}
          review={review}
          file={file}
          startOpen={!startsCollapsed(file, positions.get(file.path) ?? 0)}
          fileThreads={threads.byFile.get(file.path) ?? []}
          lineThreads={threads.byLine.get(file.path) ?? NO_THREADS}
          openThreads={openThreadCount(threads, file.path)}
          verdicts={verdicts}
          myAuthor={myAuthor}
          canComment={canComment}
          canEdit={canEdit}
          onChanged={onChanged}
        />
      ))}
      {matching.length > limit && (
        <button type="button" onClick={() => setLimit(limit + PAGE)}>
          Show {Math.min(PAGE, matching.length - limit)} more of {matching.length - limit} files
        </button>
      )}
    </section>
  );
}
