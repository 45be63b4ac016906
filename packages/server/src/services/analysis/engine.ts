import {
  type AnalysisResult,
  analyzeChange,
  type ChangeInput,
  type CoverageSummary,
  diffToChanges,
  type FileChange,
  parseCoverage,
} from 'gatehouse-hitl-analysis';

/** The analysis package's entry points the server calls (a seam for tests that need another engine). */
export interface AnalysisEngine {
  analyzeChange(input: ChangeInput): Promise<AnalysisResult>;
  diffToChanges(diff: string): FileChange[];
  /** Reads an lcov, Istanbul JSON or Cobertura XML report; throws naming the format when it cannot. */
  parseCoverage(report: string): CoverageSummary;
}

/** The engine of the installed gatehouse-hitl-analysis package. */
export function packageEngine(): AnalysisEngine {
  return { analyzeChange, diffToChanges, parseCoverage: (report) => parseCoverage(report) };
}
