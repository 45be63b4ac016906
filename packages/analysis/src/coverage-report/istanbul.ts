import {
  type CoverageReport,
  CoverageReportError,
  type FileCoverage,
  percentOf,
  reportOf,
  roundPercent,
} from './report.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): never {
  throw new CoverageReportError('istanbul', message);
}

function lineCounts(entry: unknown, where: string): { total: number; covered: number } {
  const lines = isObject(entry) ? entry.lines : undefined;
  if (!isObject(lines)) fail(`${where} has no "lines" object`);
  const { total, covered } = lines;
  if (typeof total !== 'number' || typeof covered !== 'number' || total < 0 || covered < 0) {
    fail(`${where}.lines needs numeric "total" and "covered"`);
  }
  if (covered > total) fail(`${where}.lines.covered ${covered} is more than total ${total}`);
  return { total, covered };
}

/** `coverage-summary.json`: the `total` entry, and every other key as one file. */
function parseSummary(json: Json): CoverageReport {
  const total = lineCounts(json.total, 'total');
  const files: FileCoverage[] = [];
  for (const [path, entry] of Object.entries(json)) {
    if (path === 'total') continue;
    const counts = lineCounts(entry, JSON.stringify(path));
    files.push({ path, linesFound: counts.total, linesHit: counts.covered });
  }
  return {
    format: 'istanbul',
    files,
    linesFound: total.total,
    linesHit: total.covered,
    linePercent: roundPercent(percentOf(total.covered, total.total)),
  };
}

interface Location {
  start?: { line?: unknown };
}

/** One file of `coverage-final.json`: a line's hits are those of the statements that start on it. */
function fileOf(key: string, value: unknown): FileCoverage {
  // Older reporters wrap each file's coverage in `data`.
  const entry = isObject(value) && isObject(value.data) ? value.data : value;
  if (!isObject(entry) || !isObject(entry.statementMap) || !isObject(entry.s)) {
    fail(
      `${JSON.stringify(key)} has no "statementMap" and "s" (expected coverage-summary.json or coverage-final.json)`,
    );
  }
  const hitsByLine = new Map<number, number>();
  for (const [id, location] of Object.entries(entry.statementMap)) {
    const line = (location as Location | null)?.start?.line;
    const hits = entry.s[id];
    if (typeof line !== 'number' || typeof hits !== 'number') {
      fail(`${JSON.stringify(key)}: statement ${id} needs statementMap.${id}.start.line and a count in s`);
    }
    hitsByLine.set(line, Math.max(hitsByLine.get(line) ?? 0, hits));
  }
  const linesHit = [...hitsByLine.values()].filter((hits) => hits > 0).length;
  const path = typeof entry.path === 'string' ? entry.path : key;
  return { path, linesFound: hitsByLine.size, linesHit };
}

/** Reads Istanbul's `coverage-summary.json` (json-summary) or `coverage-final.json` (json). */
export function parseIstanbul(text: string): CoverageReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    fail(`not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(json)) fail('expected a JSON object keyed by file (and "total" in a summary)');
  if ('total' in json) return parseSummary(json);
  const entries = Object.entries(json);
  if (entries.length === 0) fail('no files and no "total" entry');
  return reportOf(
    'istanbul',
    entries.map(([key, value]) => fileOf(key, value)),
  );
}
