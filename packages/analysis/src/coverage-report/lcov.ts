import { type CoverageReport, CoverageReportError, type FileCoverage, reportOf } from './report.js';

interface LcovRecord {
  path: string;
  found: number | null;
  hit: number | null;
  /** Hits by line from DA lines, for records without LF/LH. */
  lines: Map<number, number>;
}

function count(value: string, line: number, what: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < 0) {
    throw new CoverageReportError('lcov', `line ${line}: ${what} must be a whole number (got '${value}')`);
  }
  return number;
}

function close(record: LcovRecord): FileCoverage {
  const daHit = [...record.lines.values()].filter((hits) => hits > 0).length;
  return {
    path: record.path,
    linesFound: record.found ?? record.lines.size,
    linesHit: record.hit ?? daHit,
  };
}

/** Reads an lcov tracefile: LF/LH per SF record, or its DA lines when those are missing. */
export function parseLcov(text: string): CoverageReport {
  const files: FileCoverage[] = [];
  let record: LcovRecord | null = null;
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const number = index + 1;
    if (line === 'end_of_record') {
      if (record === null) throw new CoverageReportError('lcov', `line ${number}: end_of_record without SF:`);
      files.push(close(record));
      record = null;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const tag = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (tag === 'SF') {
      if (record !== null) files.push(close(record));
      record = { path: value, found: null, hit: null, lines: new Map() };
      continue;
    }
    if (tag !== 'DA' && tag !== 'LF' && tag !== 'LH') continue;
    if (record === null)
      throw new CoverageReportError('lcov', `line ${number}: ${tag}: before any SF: record`);
    if (tag === 'LF') record.found = count(value, number, 'LF');
    else if (tag === 'LH') record.hit = count(value, number, 'LH');
    else {
      const [at = '', hits = ''] = value.split(',');
      const lineNumber = count(at, number, 'the DA line number');
      // Some tools write fractional or negative hit counts for excluded lines: only "more than 0" matters.
      const hitCount = Number(hits);
      if (hits.trim() === '' || Number.isNaN(hitCount)) {
        throw new CoverageReportError('lcov', `line ${number}: DA needs <line>,<hits> (got '${value}')`);
      }
      record.lines.set(lineNumber, Math.max(record.lines.get(lineNumber) ?? 0, hitCount));
    }
  }
  if (record !== null) files.push(close(record));
  if (files.length === 0) throw new CoverageReportError('lcov', 'no SF: records (no source files)');
  for (const file of files) {
    if (file.linesHit > file.linesFound) {
      throw new CoverageReportError(
        'lcov',
        `${file.path}: LH ${file.linesHit} is more than LF ${file.linesFound}`,
      );
    }
  }
  return reportOf('lcov', files);
}
