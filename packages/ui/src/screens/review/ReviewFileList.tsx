import { type ReactNode, useCallback, useDeferredValue, useId, useMemo, useState } from 'react';
import { errorText } from '../../api/client.js';
import {
  listReviewFiles,
  type ReviewDocument,
  type ReviewFile,
  type ReviewVerdictDocument,
} from '../../api/reviews.js';
import { useResource } from '../../lib/use-resource.js';
import { ReviewFileSection } from './ReviewFileSection.js';
import { openThreadCount, startsCollapsed, type ThreadIndex } from './review-threads.js';

/** Files rendered at a time; a 500-file review stays light, the rest come on request or by filter. */
const PAGE = 100;
const NO_THREADS = new Map();

/** The person's choice of a side-by-side diff, remembered in this browser. */
function useSplitView(person: string): [boolean, (split: boolean) => void] {
  const key = `gatehouse.review.split.${person}`;
  const [split, setSplit] = useState(() => {
    try {
      return localStorage.getItem(key) === '1';
    } catch {
      return false;
    }
  });
  const remember = useCallback(
    (next: boolean) => {
      setSplit(next);
      try {
        localStorage.setItem(key, next ? '1' : '0');
      } catch {
        // Storage refused (private mode): the choice lasts for this page only.
      }
    },
    [key],
  );
  return [split, remember];
}

/** "Changes since revision N": the earlier revisions to compare the current head with. */
function SinceSelect({
  review,
  since,
  onChange,
}: {
  review: ReviewDocument;
  since: number | null;
  onChange(since: number | null): void;
}) {
  const id = useId();
  const earlier = review.revisions.filter((revision) => revision.revision < review.revision);
  if (earlier.length === 0) return null;
  return (
    <div className="review-since">
      <label htmlFor={id}>Show</label>
      <select
        id={id}
        value={since === null ? '' : String(since)}
        onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      >
        <option value="">All changes against main</option>
        {earlier.map((revision) => (
          <option key={revision.revision} value={String(revision.revision)}>
            Changes since revision {revision.revision}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The files changed since an earlier revision's head, read when the person picks one. */
function useSinceFiles(review: ReviewDocument, since: number | null) {
  const load = useCallback(
    async (signal: AbortSignal) =>
      since === null ? null : (await listReviewFiles(review.id, signal, since)).files,
    [review.id, since],
  );
  return useResource(`${since ?? 'main'}@${review.headCommit}`, load).resource;
}

/**
 * The changed files with their totals, a filter, and each file's section (diff, comments, verdicts);
 * on a later revision, "changes since revision N" shows only what changed since that revision's head.
 */
export function ReviewFileList(props: {
  review: ReviewDocument;
  files: readonly ReviewFile[];
  viewed: readonly string[];
  canMarkViewed: boolean;
  threads: ThreadIndex;
  verdicts: ReviewVerdictDocument[];
  myAuthor: string;
  canComment: boolean;
  canEdit: boolean;
  onChanged(): void;
}) {
  const [since, setSince] = useState<number | null>(null);
  const [split, setSplit] = useSplitView(props.myAuthor);
  const sinceFiles = useSinceFiles(props.review, since);
  const picker = (
    <>
      <SinceSelect review={props.review} since={since} onChange={setSince} />
      <button type="button" aria-pressed={split} onClick={() => setSplit(!split)}>
        Split view
      </button>
    </>
  );
  if (since === null) return <FileList {...props} since={null} split={split} picker={picker} />;
  if (sinceFiles.status === 'ready' && sinceFiles.value !== null) {
    return <FileList {...props} files={sinceFiles.value} since={since} split={split} picker={picker} />;
  }
  return (
    <section className="review-files" aria-label="Files changed">
      {picker}
      {sinceFiles.status === 'error' ? (
        <p className="notice error" role="alert">
          Could not load the changes since revision {since}: {errorText(sinceFiles.error)}
        </p>
      ) : (
        <p role="status">Loading the changes since revision {since}…</p>
      )}
    </section>
  );
}

function FileList({
  review,
  files,
  viewed,
  canMarkViewed,
  threads,
  verdicts,
  myAuthor,
  canComment,
  canEdit,
  onChanged,
  since,
  split,
  picker,
}: {
  review: ReviewDocument;
  files: readonly ReviewFile[];
  viewed: readonly string[];
  canMarkViewed: boolean;
  threads: ThreadIndex;
  verdicts: ReviewVerdictDocument[];
  myAuthor: string;
  canComment: boolean;
  canEdit: boolean;
  onChanged(): void;
  since: number | null;
  split: boolean;
  picker: ReactNode;
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
  const viewedSet = useMemo(() => new Set(viewed), [viewed]);
  const viewedCount = files.filter((file) => viewedSet.has(file.path)).length;

  return (
    <section className="review-files" aria-labelledby={`${id}-heading`}>
      <div className="row review-files-head">
        <h2 id={`${id}-heading`}>
          {since === null
            ? `Files changed (${files.length})`
            : `Changed since revision ${since} (${files.length})`}
        </h2>
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
        {picker}
        {canMarkViewed && files.length > 0 && (
          <span className="review-viewed-progress">
            <progress
              max={files.length}
              value={viewedCount}
              aria-label={`${viewedCount} of ${files.length} files viewed`}
            />{' '}
            {viewedCount} of {files.length} files viewed
          </span>
        )}
      </div>
      {since !== null && (
        <p className="muted small">
          Comparing revision {since}’s head with revision {review.revision}’s; comment on lines in the full
          view against main.
        </p>
      )}
      {files.length === 0 && (
        <p className="muted">
          {since === null ? 'The branch changes no files.' : `Nothing changed since revision ${since}.`}
        </p>
      )}
      {query && (
        <p className="muted small" role="status">
          {matching.length} of {files.length} files match.
        </p>
      )}
      {matching.slice(0, limit).map((file) => (
        <ReviewFileSection
          key={`${since ?? 'main'}:${file.path}`}
          review={review}
          file={file}
          since={since}
          split={split}
          viewed={viewedSet.has(file.path)}
          canMarkViewed={canMarkViewed}
          startOpen={!viewedSet.has(file.path) && !startsCollapsed(file, positions.get(file.path) ?? 0)}
          fileThreads={threads.byFile.get(file.path) ?? []}
          lineThreads={threads.byLine.get(file.path) ?? NO_THREADS}
          openThreads={openThreadCount(threads, file.path)}
          verdicts={verdicts}
          myAuthor={myAuthor}
          canComment={canComment}
          canEdit={canEdit && since === null}
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
