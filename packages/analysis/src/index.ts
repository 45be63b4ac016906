export { diffToChanges } from './diff-input.js';
export { languageOf, parseSource, warmUp } from './languages.js';
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
