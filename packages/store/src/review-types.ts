/** A phase branch's review (pull request) against main, as stored. */
export interface ReviewRecord {
  id: string;
  runId: string;
  agentId: string;
  gateId: string | null;
  phase: number;
  type: 'strategic' | 'tactical';
  jobComplete: boolean;
  branch: string;
  /** Earlier branches of this review (`-rev-` cycles), deleted with it on merge. */
  previousBranches: string[];
  revision: number;
  baseCommit: string;
  headCommit: string;
  status: 'open' | 'changes_requested' | 'merged' | 'closed';
  mergeCommit: string | null;
  autoMerged: boolean;
  conflicts: string[];
  /** The phase's retrospective, the squash commit's message when there is one. */
  retrospective: string | null;
  /** Earlier revisions with the head each had when the next one arrived (absent on reviews from before). */
  revisions?: ReviewRevisionRecord[];
  /** The squash commit's title and body as a person edited them; absent: the default from the phase. */
  squashMessage?: { title: string; body: string } | null;
  createdAt: number;
  updatedAt: number;
}

/** One earlier revision of a review: its branch and the head it ended on. */
export interface ReviewRevisionRecord {
  revision: number;
  branch: string;
  head: string;
}

/** A comment on a review: general, on a file, or on a line. */
export interface ReviewCommentRecord {
  id: string;
  reviewId: string;
  parentId: string | null;
  path: string | null;
  line: number | null;
  side: 'new' | 'old' | null;
  commit: string;
  lineText: string | null;
  author: string;
  authorName: string;
  body: string;
  resolved: boolean;
  /** In its author's pending review: seen by them only until they submit it. */
  pending: boolean;
  /** The first line of a multi-line comment (`line` is the last); null for one line. */
  startLine?: number | null;
  /** Replacement text for the lines `startLine`..`line` of the new side; null when none. */
  suggestion?: string | null;
  createdAt: number;
}

/** An entry of a review's timeline: a submitted review with its summary, or a request for changes. */
export interface ReviewSummaryRecord {
  id: string;
  reviewId: string;
  /** The revision it was given on. */
  revision: number;
  kind: 'approve' | 'comment' | 'request_changes';
  body: string;
  author: string;
  authorName: string;
  commit: string;
  createdAt: number;
}

/** One person's latest verdict on a file (`path`) or the whole review (`path` null). */
export interface ReviewVerdictRecord {
  reviewId: string;
  path: string | null;
  author: string;
  authorName: string;
  verdict: 'approve' | 'request_changes';
  commit: string;
  createdAt: number;
}

/** Reviews, their comments and verdicts. */
export interface ReviewsRepo {
  insertReview(review: ReviewRecord): Promise<void>;
  getReview(id: string): Promise<(ReviewRecord & { version: number }) | null>;
  /** The review of one phase boundary of a run. */
  findReview(boundary: {
    runId: string;
    phase: number;
    type: string;
    jobComplete: boolean;
  }): Promise<(ReviewRecord & { version: number }) | null>;
  /** Oldest first. */
  listReviews(runId: string): Promise<ReviewRecord[]>;
  /** Writes `review` when the stored version still equals `expectedVersion`. */
  updateReview(review: ReviewRecord, expectedVersion: number): Promise<boolean>;

  insertReviewComment(comment: ReviewCommentRecord): Promise<void>;
  getReviewComment(id: string): Promise<ReviewCommentRecord | null>;
  /** Oldest first. */
  listReviewComments(reviewId: string): Promise<ReviewCommentRecord[]>;
  setReviewCommentResolved(id: string, resolved: boolean): Promise<boolean>;
  /** Publishes `author`'s pending comments on the review; returns how many. */
  publishReviewComments(reviewId: string, author: string): Promise<number>;

  insertReviewSummary(summary: ReviewSummaryRecord): Promise<void>;

  /** Marks a file viewed by `author` at `blobId`, or (blobId null) not viewed. */
  setReviewFileView(view: {
    reviewId: string;
    author: string;
    path: string;
    blobId: string | null;
    at: number;
  }): Promise<void>;
  /** The files `author` marked viewed, with the blob each was viewed at. */
  listReviewFileViews(reviewId: string, author: string): Promise<{ path: string; blobId: string }[]>;
  /** Oldest first. */
  listReviewSummaries(reviewId: string): Promise<ReviewSummaryRecord[]>;

  /** Records a person's verdict, replacing their earlier one on the same file (or the whole review). */
  putReviewVerdict(verdict: ReviewVerdictRecord): Promise<void>;
  /** Oldest first. */
  listReviewVerdicts(reviewId: string): Promise<ReviewVerdictRecord[]>;
}
