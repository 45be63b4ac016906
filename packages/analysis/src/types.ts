/** How bad a finding is, lowest first. */
export type Severity = 'low' | 'medium' | 'high' | 'critical';

/** Languages parsed with a tree-sitter grammar; `other` falls back to line rules at lower confidence. */
export type LanguageId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'java' | 'rust' | 'other';

/** What a finding is about, for the gate rules and the metrics. */
export type FindingKind =
  | 'test_removed'
  | 'test_added'
  | 'test_replaced'
  | 'assertion_removed'
  | 'assertion_weakened'
  | 'skip_added'
  | 'export_removed'
  | 'coverage_dropped'
  | 'laziness';

/** One thing the analysis noticed in a change. */
export interface Finding {
  kind: FindingKind;
  /** Stable id of the pattern in the catalog, e.g. `test.removed`, `lazy.placeholder_body`. */
  pattern: string;
  severity: Severity;
  /** 0–1: how sure the analysis is (lower for line rules and partial code). */
  confidence: number;
  file: string;
  /** 1-based line in the new file (the old file for removals); null for a whole-file finding. */
  line: number | null;
  /** A test's, an export's or a function's name, when the finding is about one. */
  name: string | null;
  /** One sentence a reviewer reads. */
  message: string;
}

/** One file of a change: its text before and after (null when added or deleted). */
export interface FileChange {
  path: string;
  /** Before a rename. */
  oldPath?: string | null;
  before: string | null;
  after: string | null;
  /**
   * True when `before`/`after` hold only the hunks of a diff rather than whole files (a diff with no
   * repository behind it): parses are of fragments, so confidence is lower.
   */
  partial?: boolean;
}

/** Coverage before and after, as parsed from lcov, Istanbul JSON summary or Cobertura XML. */
export interface CoverageSummary {
  /** Covered lines / all lines, 0–100. */
  linePercent: number;
  linesFound: number;
  linesHit: number;
}

/** What `analyzeChange` is given. */
export interface ChangeInput {
  files: FileChange[];
  coverage?: { before: CoverageSummary; after: CoverageSummary } | undefined;
}

/** The counts seed 001's destructive-action rules read (trigger-verdict facts). */
export interface ChangeFacts {
  testsRemoved: number;
  testsAdded: number;
  /** Removed tests whose name (or body) reappears in the change: moved or renamed. */
  replacementTests: number;
  assertionsRemoved: number;
  assertionsWeakened: number;
  skipPatternsAdded: number;
  featuresRemoved: number;
  /** Percentage points, after − before; null without coverage reports. */
  coverageDelta: number | null;
  lazinessFindings: number;
}

export interface AnalysisResult {
  findings: Finding[];
  facts: ChangeFacts;
  /** Files analysed by language, for reports. */
  languages: Partial<Record<LanguageId, number>>;
  durationMs: number;
}
