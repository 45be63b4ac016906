import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCobertura } from './cobertura.js';
import { parseCoverage } from './parse.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseCobertura', () => {
  it('reads the root counts of a real report, and each class file', () => {
    const report = parseCobertura(fixture('cobertura-coverage.xml'));
    expect(report).toMatchObject({ format: 'cobertura', linesFound: 23, linesHit: 22, linePercent: 95.65 });
    expect(report.files.map((file) => file.path)).toContain('packages/analysis/src/languages.ts');
    expect(parseCoverage(fixture('cobertura-coverage.xml')).format).toBe('cobertura');
  });

  it('counts <line> elements when the root has no counts, then falls back to line-rate', () => {
    const lines = `<?xml version="1.0"?><coverage><packages><package><classes>
      <class filename="a.ts"><lines><line number="1" hits="3"/><line number="2" hits="0"/></lines></class>
      <class filename="b.ts"><lines><line number="1" hits="1"/><line number="2" hits="2"/></lines></class>
      </classes></package></packages></coverage>`;
    expect(parseCobertura(lines)).toMatchObject({ linesFound: 4, linesHit: 3, linePercent: 75 });
    expect(parseCobertura('<coverage line-rate="0.5"/>')).toMatchObject({ linePercent: 50 });
  });

  it('names what is wrong with a broken report', () => {
    expect(() => parseCobertura('<coverage')).toThrow(/not well-formed XML at line 1/);
    expect(() => parseCobertura('<report/>')).toThrow(/no <coverage> root element/);
    expect(() => parseCobertura('<coverage lines-valid="x" lines-covered="1"/>')).toThrow(/is not a number/);
    expect(() => parseCobertura('<coverage lines-valid="2" lines-covered="3"/>')).toThrow(/is more than/);
  });

  it('refuses a DOCTYPE that names an external entity, and never reads it', () => {
    const hostile = `<?xml version="1.0"?><!DOCTYPE coverage [<!ENTITY x SYSTEM "file:///etc/passwd">]>
      <coverage lines-valid="1" lines-covered="1"><sources><source>&x;</source></sources></coverage>`;
    expect(() => parseCobertura(hostile)).toThrow(
      /Cobertura XML report: cannot read the XML: External entities are not supported/,
    );
  });
});
