export { analyzeChange } from './analyze.js';
export { coverageDelta, detectCoverageFormat, parseCoverage } from './coverage-report/parse.js';
export type { CoverageFormat, CoverageReport, FileCoverage } from './coverage-report/report.js';
export { CoverageReportError } from './coverage-report/report.js';
export { diffToChanges } from './diff-input.js';
export { languageOf, parseSource, warmUp } from './languages.js';
export { isPatternId, PATTERN_IDS } from './pattern-ids.js';
export type {
  ChangedFile,
  LanguageContext,
  LazinessPatternId,
  PatternDefinition,
  PatternExample,
} from './patterns/index.js';
export { detectCrossFileLaziness, detectLaziness, LAZINESS_PATTERNS } from './patterns/index.js';
export type {
  AnalysisResult,
  ChangeFacts,
  ChangeInput,
  CoverageSummary,
  FileChange,
  Finding,
  FindingKind,
  LanguageId,
  Severity,
} from './types.js';
