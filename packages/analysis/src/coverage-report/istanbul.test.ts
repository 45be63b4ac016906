import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseIstanbul } from './istanbul.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseIstanbul', () => {
  it("reads coverage-summary.json's total lines and each file's", () => {
    const report = parseIstanbul(fixture('coverage-summary.json'));
    expect(report).toMatchObject({ format: 'istanbul', linesFound: 23, linesHit: 22, linePercent: 95.65 });
    expect(report.files).toEqual([
      { path: '/home/ci/project/packages/analysis/src/languages.ts', linesFound: 23, linesHit: 22 },
    ]);
  });

  it('derives line coverage from the statements of coverage-final.json, as Istanbul does', () => {
    const report = parseIstanbul(fixture('coverage-final.json'));
    // The same run's summary says 22 of 23 lines.
    expect(report).toMatchObject({ format: 'istanbul', linesFound: 23, linesHit: 22, linePercent: 95.65 });
  });

  it('counts a line covered when any statement starting on it ran, and reads the old data wrapper', () => {
    const statement = (line: number) => ({ start: { line, column: 0 }, end: { line, column: 9 } });
    const text = JSON.stringify({
      'src/a.js': {
        data: {
          path: 'src/a.js',
          statementMap: { 0: statement(1), 1: statement(1), 2: statement(2), 3: statement(3) },
          s: { 0: 0, 1: 4, 2: 0, 3: 1 },
        },
      },
    });
    expect(parseIstanbul(text)).toMatchObject({ linesFound: 3, linesHit: 2, linePercent: 66.67 });
  });

  it('takes a summary with no lines as fully covered, whatever its pct says', () => {
    const text = JSON.stringify({ total: { lines: { total: 0, covered: 0, skipped: 0, pct: 'Unknown' } } });
    expect(parseIstanbul(text)).toMatchObject({ linesFound: 0, linesHit: 0, linePercent: 100 });
  });

  it.each([
    ['text that is not JSON', 'SF:a', /^Istanbul JSON report: not valid JSON/],
    ['an array', '[]', 'Istanbul JSON report: expected a JSON object keyed by file'],
    [
      'a total without lines',
      '{"total":{"statements":{}}}',
      'Istanbul JSON report: total has no "lines" object',
    ],
    [
      'lines without counts',
      '{"total":{"lines":{"pct":50}}}',
      'Istanbul JSON report: total.lines needs numeric "total" and "covered"',
    ],
    [
      'a file without statements',
      '{"a.js":{"fnMap":{}}}',
      'Istanbul JSON report: "a.js" has no "statementMap" and "s"',
    ],
    ['an empty object', '{}', 'Istanbul JSON report: no files and no "total" entry'],
  ])('refuses %s, naming the format and what is missing', (_name, text, message) => {
    expect(() => parseIstanbul(text)).toThrow(message);
  });
});
