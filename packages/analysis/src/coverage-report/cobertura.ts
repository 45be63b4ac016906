import {
  type CoverageReport,
  CoverageReportError,
  type FileCoverage,
  percentOf,
  roundPercent,
} from './report.js';
import { parseXml, XmlError } from './xml.js';

type Element = Record<string, unknown>;

function fail(message: string): never {
  throw new CoverageReportError('cobertura', message);
}

function isElement(value: unknown): value is Element {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function children(parent: unknown, name: string): Element[] {
  if (!isElement(parent)) return [];
  const value = parent[name];
  return Array.isArray(value) ? value.filter(isElement) : [];
}

function attribute(element: Element, name: string): number | null {
  const value = element[`@${name}`];
  if (value === undefined) return null;
  const number = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(number) || number < 0) {
    fail(`<coverage ${name}="${String(value)}"> is not a number`);
  }
  return number;
}

/** Per-file counts from `<class filename>` elements; classes of one file share its lines. */
function filesOf(root: Element): FileCoverage[] {
  const byFile = new Map<string, Map<number, number>>();
  for (const pkg of children(root.packages, 'package')) {
    for (const cls of children(pkg.classes, 'class')) {
      const path = cls['@filename'];
      if (typeof path !== 'string') fail('a <class> has no filename attribute');
      const lines = byFile.get(path) ?? new Map<number, number>();
      byFile.set(path, lines);
      for (const line of children(cls.lines, 'line')) {
        const number = Number(line['@number']);
        const hits = Number(line['@hits']);
        if (!Number.isInteger(number) || Number.isNaN(hits)) {
          fail(`${path}: a <line> needs number and hits attributes`);
        }
        lines.set(number, Math.max(lines.get(number) ?? 0, hits));
      }
    }
  }
  return [...byFile].map(([path, lines]) => ({
    path,
    linesFound: lines.size,
    linesHit: [...lines.values()].filter((hits) => hits > 0).length,
  }));
}

/**
 * Reads a Cobertura XML report: the root's lines-valid/lines-covered, else its `<line>` elements,
 * else its line-rate.
 */
export function parseCobertura(text: string): CoverageReport {
  let document: Element;
  try {
    document = parseXml(text, { arrays: ['package', 'class', 'line'] });
  } catch (error) {
    if (error instanceof XmlError) fail(error.message);
    throw error;
  }
  const root = document.coverage;
  if (!isElement(root)) fail('no <coverage> root element');
  const files = filesOf(root);
  const valid = attribute(root, 'lines-valid');
  const covered = attribute(root, 'lines-covered');
  const rate = attribute(root, 'line-rate');
  if (valid !== null && covered !== null) {
    if (covered > valid) fail(`lines-covered ${covered} is more than lines-valid ${valid}`);
    return {
      format: 'cobertura',
      files,
      linesFound: valid,
      linesHit: covered,
      linePercent: roundPercent(percentOf(covered, valid)),
    };
  }
  const linesFound = files.reduce((sum, file) => sum + file.linesFound, 0);
  const linesHit = files.reduce((sum, file) => sum + file.linesHit, 0);
  if (linesFound > 0) {
    return {
      format: 'cobertura',
      files,
      linesFound,
      linesHit,
      linePercent: roundPercent(percentOf(linesHit, linesFound)),
    };
  }
  if (rate === null || rate > 1)
    fail('<coverage> needs lines-valid and lines-covered, <line> elements or a line-rate from 0 to 1');
  return { format: 'cobertura', files, linesFound: 0, linesHit: 0, linePercent: roundPercent(rate * 100) };
}
