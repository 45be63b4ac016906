import type { Tree } from 'web-tree-sitter';
import type { FileChange, Finding, LanguageId, Severity } from '../types.js';

/** The ids of the laziness catalog; every laziness finding's `pattern` is one of them. */
export type LazinessPatternId =
  | 'lazy.placeholder_body'
  | 'lazy.test_commented_out'
  | 'lazy.suppression_added'
  | 'lazy.error_swallowed'
  | 'lazy.hardcoded_result'
  | 'lazy.mock_unit_under_test'
  | 'lazy.assertion_deleted_to_pass';

/** A file's language and its trees before and after the change, each parsed once by `parseSource`. */
export interface LanguageContext {
  language: LanguageId;
  /** Null when the file was added, or for `other` languages (line rules then). */
  before: Tree | null;
  /** Null when the file was deleted, or for `other` languages (line rules then). */
  after: Tree | null;
}

/** One changed file with its trees, for the patterns that compare a test with the code it tests. */
export interface ChangedFile {
  file: FileChange;
  context: LanguageContext;
}

/** A code sample of a pattern: the cut corner, and the legitimate code that must not be flagged. */
export interface PatternExample {
  language: LanguageId;
  bad: string;
  good: string;
}

/** One entry of the laziness catalog (documented in docs/laziness-patterns.md). */
export interface PatternDefinition {
  id: LazinessPatternId;
  title: string;
  severity: Severity;
  /** The languages the pattern has rules for; `other` when line rules cover unparsed files. */
  languages: readonly LanguageId[];
  description: string;
  examples: readonly PatternExample[];
}

/** What one pattern's detector reads. */
export interface DetectorInput {
  file: FileChange;
  context: LanguageContext;
  /** 0.9 for whole files, 0.75 for a diff's fragments. */
  baseConfidence: number;
}

/** A laziness finding before the catalog fills in kind and severity. */
export type LazinessHit = Omit<Finding, 'kind' | 'severity' | 'file'> & {
  pattern: LazinessPatternId;
  /** Set only for a pattern's weaker forms, reported below the catalog's severity. */
  severity?: Severity;
};
