import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coverageDelta, detectCoverageFormat, parseCoverage } from './parse.js';
import { CoverageReportError } from './report.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseCoverage', () => {
  it.each([
    ['lcov.info', 'lcov'],
    ['coverage-summary.json', 'istanbul'],
    ['coverage-final.json', 'istanbul'],
    ['cobertura-coverage.xml', 'cobertura'],
  ] as const)('tells %s is %s', (name, format) => {
    expect(detectCoverageFormat(fixture(name))).toBe(format);
  });

  it('reads the same run alike from lcov, the Istanbul summary and the Istanbul final report', () => {
    const summaries = ['lcov.info', 'coverage-summary.json', 'coverage-final.json'].map((name) => {
      const { linePercent, linesFound, linesHit } = parseCoverage(fixture(name));
      return { linePercent, linesFound, linesHit };
    });
    expect(summaries).toEqual(Array(3).fill({ linePercent: 95.65, linesFound: 23, linesHit: 22 }));
  });

  it('reads a report as the format it is told, and says so when it is not', () => {
    expect(parseCoverage(fixture('lcov.info'), 'lcov').format).toBe('lcov');
    expect(() => parseCoverage(fixture('lcov.info'), 'istanbul')).toThrow(
      /^Istanbul JSON report: not valid JSON/,
    );
  });

  it('refuses text in no known format with a CoverageReportError listing the formats', () => {
    const read = () => parseCoverage('hello\n');
    expect(read).toThrow(CoverageReportError);
    expect(read).toThrow('expected lcov (SF:/DA: lines), Istanbul JSON or Cobertura XML');
  });
});

describe('coverageDelta', () => {
  it('is after minus before in percentage points, from the line counts', () => {
    const before = parseCoverage('SF:a.ts\nLF:3\nLH:3\nend_of_record\n');
    const after = parseCoverage('SF:a.ts\nLF:3\nLH:2\nend_of_record\n');
    expect(coverageDelta(before, after)).toBe(-33.33);
    expect(coverageDelta(after, before)).toBe(33.33);
  });

  it('is exactly zero for equal coverage, and falls back to linePercent without line counts', () => {
    const a = { linePercent: 80, linesFound: 10, linesHit: 8 };
    expect(coverageDelta(a, { linePercent: 80, linesFound: 20, linesHit: 16 })).toBe(0);
    expect(coverageDelta({ linePercent: 91.5, linesFound: 0, linesHit: 0 }, a)).toBe(-11.5);
  });
});
