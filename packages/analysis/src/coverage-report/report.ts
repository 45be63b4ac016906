import type { CoverageSummary } from '../types.js';

/** The coverage report formats `parseCoverage` reads. */
export type CoverageFormat = 'lcov' | 'istanbul' | 'cobertura';

/** Line counts of one source file in a coverage report. */
export interface FileCoverage {
  path: string;
  linesFound: number;
  linesHit: number;
}

/** A parsed coverage report: the summary the analysis reads, plus its format and per-file counts. */
export interface CoverageReport extends CoverageSummary {
  format: CoverageFormat;
  files: FileCoverage[];
}

/** A coverage report that could not be read; the message names the format and what is missing. */
export class CoverageReportError extends Error {
  override name = 'CoverageReportError';
  /** The format the report was read as; null when it could not be told. */
  readonly format: CoverageFormat | null;

  constructor(format: CoverageFormat | null, message: string) {
    super(format === null ? message : `${FORMAT_NAMES[format]} report: ${message}`);
    this.format = format;
  }
}

export const FORMAT_NAMES: Record<CoverageFormat, string> = {
  lcov: 'lcov',
  istanbul: 'Istanbul JSON',
  cobertura: 'Cobertura XML',
};

/** Covered lines in percent, 0–100; a report with no lines counts as fully covered. */
export function percentOf(linesHit: number, linesFound: number): number {
  return linesFound === 0 ? 100 : (linesHit / linesFound) * 100;
}

/** Rounds to hundredths, so reports read 83.33 and deltas carry no floating-point dust. */
export function roundPercent(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A report's summary from its files' counts. */
export function reportOf(format: CoverageFormat, files: FileCoverage[]): CoverageReport {
  let linesFound = 0;
  let linesHit = 0;
  for (const file of files) {
    linesFound += file.linesFound;
    linesHit += file.linesHit;
  }
  return { format, files, linesFound, linesHit, linePercent: roundPercent(percentOf(linesHit, linesFound)) };
}
