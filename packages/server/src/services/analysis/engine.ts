import {
  type AnalysisResult,
  analyzeChange,
  type ChangeInput,
  type CoverageSummary,
  diffToChanges,
  type FileChange,
  parseCoverage,
} from 'gatehouse-hitl-analysis';
import type { AppContext } from '../../context.js';
import { createAnalysisPool } from './analysis-pool.js';

/** The analysis package's entry points the server calls (a seam for tests that need another engine). */
export interface AnalysisEngine {
  analyzeChange(input: ChangeInput): Promise<AnalysisResult>;
  diffToChanges(diff: string): FileChange[];
  /** Reads an lcov, Istanbul JSON or Cobertura XML report; throws naming the format when it cannot. */
  parseCoverage(report: string): CoverageSummary;
  /** Stops whatever the engine runs on. */
  close(): Promise<void>;
}

/** The engine of the installed gatehouse-hitl-analysis package, on this thread. */
export function packageEngine(): AnalysisEngine {
  return {
    analyzeChange,
    diffToChanges,
    parseCoverage: (report) => parseCoverage(report),
    close: async () => {},
  };
}

/**
 * The package's engine with parsing moved to the configured worker threads: a large change costs a
 * worker its time budget, never the event loop. Splitting a diff and reading coverage stay here (cheap).
 */
export function workerEngine(ctx: AppContext): AnalysisEngine {
  const pool = createAnalysisPool({
    log: ctx.log,
    workers: ctx.config.analysisWorkers,
    timeoutMs: ctx.config.analysisTimeoutMs,
    maxQueued: ctx.config.analysisQueue,
  });
  return { ...packageEngine(), analyzeChange: pool.analyzeChange, close: pool.close };
}
