/** Row shapes of the review tables, as Kysely sees them. */
export interface ReviewsTable {
  id: string;
  run_id: string;
  phase: number;
  type: string;
  job_complete: number;
  status: string;
  created_at: number;
  version: number;
  data: string;
}

export interface ReviewCommentsTable {
  id: string;
  review_id: string;
  parent_id: string | null;
  path: string | null;
  line: number | null;
  side: string | null;
  commit_id: string;
  line_text: string | null;
  author: string;
  author_name: string;
  body: string;
  resolved: number;
  /** 1 while the comment waits in its author's pending review. */
  pending: number;
  start_line: number | null;
  suggestion: string | null;
  created_at: number;
}

export interface ReviewSummariesTable {
  id: string;
  review_id: string;
  revision: number;
  kind: string;
  body: string;
  author: string;
  author_name: string;
  commit_id: string;
  created_at: number;
}

export interface ReviewVerdictsTable {
  review_id: string;
  /** '' for the whole review. */
  path: string;
  author: string;
  author_name: string;
  verdict: string;
  commit_id: string;
  created_at: number;
}

export interface ReviewFileViewsTable {
  review_id: string;
  author: string;
  path: string;
  /** The file's blob at the head it was viewed at; '' for a deleted file. */
  blob_id: string;
  viewed_at: number;
}
