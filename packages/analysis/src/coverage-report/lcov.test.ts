import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLcov } from './lcov.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseLcov', () => {
  it('reads the LF and LH of a tracefile written by vitest', () => {
    const report = parseLcov(fixture('lcov.info'));
    expect(report).toMatchObject({ format: 'lcov', linesFound: 23, linesHit: 22, linePercent: 95.65 });
    expect(report.files).toEqual([
      { path: 'packages/analysis/src/languages.ts', linesFound: 23, linesHit: 22 },
    ]);
  });

  it('adds up several records and counts DA lines where LF and LH are missing', () => {
    const text = [
      'TN:unit',
      'SF:src/a.ts',
      'DA:1,3',
      'DA:2,0',
      'DA:3,1',
      'DA:4,0',
      'end_of_record',
      'SF:src/b.ts',
      'DA:1,1',
      'LF:10',
      'LH:5',
      'end_of_record',
      '',
    ].join('\n');
    const report = parseLcov(text);
    expect(report.files).toEqual([
      { path: 'src/a.ts', linesFound: 4, linesHit: 2 },
      { path: 'src/b.ts', linesFound: 10, linesHit: 5 },
    ]);
    expect(report).toMatchObject({ linesFound: 14, linesHit: 7, linePercent: 50 });
  });

  it('reads CRLF line ends and a last record without end_of_record', () => {
    const report = parseLcov('SF:x.py\r\nDA:1,1\r\nDA:2,1\r\nDA:3,0\r\n');
    expect(report).toMatchObject({ linesFound: 3, linesHit: 2, linePercent: 66.67 });
  });

  it.each([
    ['no source files', 'TN:\n', 'lcov report: no SF: records (no source files)'],
    ['a DA before any SF', 'DA:1,1\nend_of_record\n', 'lcov report: line 1: DA: before any SF: record'],
    [
      'a LF that is no number',
      'SF:a.ts\nLF:many\n',
      "lcov report: line 2: LF must be a whole number (got 'many')",
    ],
    ['a DA without hits', 'SF:a.ts\nDA:7\n', "lcov report: line 2: DA needs <line>,<hits> (got '7')"],
    ['more hit than found', 'SF:a.ts\nLF:2\nLH:3\n', 'lcov report: a.ts: LH 3 is more than LF 2'],
  ])('refuses %s, naming the format and the line', (_name, text, message) => {
    expect(() => parseLcov(text)).toThrow(message);
  });
});
