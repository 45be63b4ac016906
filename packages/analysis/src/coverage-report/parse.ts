import type { CoverageSummary } from '../types.js';
import { parseCobertura } from './cobertura.js';
import { parseIstanbul } from './istanbul.js';
import { parseLcov } from './lcov.js';
import {
  type CoverageFormat,
  type CoverageReport,
  CoverageReportError,
  percentOf,
  roundPercent,
} from './report.js';

const PARSERS: Record<CoverageFormat, (text: string) => CoverageReport> = {
  lcov: parseLcov,
  istanbul: parseIstanbul,
  cobertura: parseCobertura,
};

/** Tells a report's format from its first characters and lines; null when it looks like none. */
export function detectCoverageFormat(text: string): CoverageFormat | null {
  const start = text.trimStart();
  if (start.startsWith('<')) return 'cobertura';
  if (start.startsWith('{')) return 'istanbul';
  if (/^(TN|SF):/m.test(start)) return 'lcov';
  return null;
}

/**
 * Parses a coverage report (lcov, Istanbul JSON summary or final, Cobertura XML), telling the format
 * when it is not given; throws CoverageReportError naming the format and what is missing.
 * @example coverageDelta(parseCoverage(before), parseCoverage(after)) // -2.5
 */
export function parseCoverage(text: string, format?: CoverageFormat): CoverageReport {
  const chosen = format ?? detectCoverageFormat(text);
  if (chosen === null) {
    throw new CoverageReportError(
      null,
      'unknown coverage report format: expected lcov (SF:/DA: lines), Istanbul JSON or Cobertura XML',
    );
  }
  const parse = PARSERS[chosen];
  if (parse === undefined) {
    throw new CoverageReportError(
      null,
      `unknown coverage format '${String(chosen)}'; use lcov, istanbul or cobertura`,
    );
  }
  return parse(text);
}

function exactPercent(summary: CoverageSummary): number {
  return summary.linesFound > 0 ? percentOf(summary.linesHit, summary.linesFound) : summary.linePercent;
}

/** Line coverage after minus before, in percentage points rounded to hundredths (negative: it dropped). */
export function coverageDelta(before: CoverageSummary, after: CoverageSummary): number {
  return roundPercent(exactPercent(after) - exactPercent(before));
}
