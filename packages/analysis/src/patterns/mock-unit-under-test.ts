import { addedOccurrences } from './added.js';
import { normalizeLine } from './syntax.js';
import { subjectOf } from './test-files.js';
import type { DetectorInput, LazinessHit } from './types.js';

interface Line {
  row: number;
  text: string;
}

function linesOf(text: string | null): Line[] {
  return (text ?? '').split('\n').map((line, row) => ({ row, text: normalizeLine(line) }));
}

/** `./cart`, `../src/cart.js`, `./cart/index` all name the module `cart`. */
function moduleStem(specifier: string): string {
  const parts = specifier.replace(/\.[cm]?[jt]sx?$/, '').split('/');
  const last = parts.pop() ?? '';
  return last === 'index' ? (parts.pop() ?? '') : last;
}

function scriptMock(line: string, subject: string, after: string): { weight: number; what: string } | null {
  const match = /\b(vi|jest)\.(do)?[mM]ock\(\s*(['"`])([^'"`]+)\3/.exec(line);
  if (!match?.[4] || moduleStem(match[4]) !== subject) return null;
  const imported = [...after.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)].some(
    (found) => moduleStem(found[1] ?? found[2] ?? '') === subject,
  );
  if (!imported) return null;
  // A factory that spreads the real module keeps the unit and mocks a neighbour of it.
  const partial = /importActual|importOriginal|requireActual|async\s*\(\s*\w+\s*\)\s*=>/.test(after);
  return { weight: partial ? 0.65 : 1, what: match[0] };
}

function pythonPatch(line: string, subject: string, after: string): { weight: number; what: string } | null {
  const object = /\bpatch\.object\(\s*([\w.]+)\s*,\s*(['"])(\w+)\2/.exec(line);
  if (object?.[1] && object[3] && object[1].split('.').pop() === subject) {
    const called = new RegExp(`\\b${subject}\\.${object[3]}\\(`).test(after.replace(object[0], ''));
    return called ? { weight: 1, what: `patch.object(${object[1]}, '${object[3]}')` } : null;
  }
  const match = /\bpatch\(\s*(['"])([\w.]+)\1/.exec(line);
  if (!match?.[2]) return null;
  const parts = match[2].split('.');
  const at = parts.lastIndexOf(subject);
  const name = at >= 0 ? parts[at + 1] : undefined;
  if (!name || at + 2 !== parts.length) return null;
  const importedName = new RegExp(`from\\s+[\\w.]*\\b${subject}\\s+import\\s+[^\\n]*\\b${name}\\b`).test(
    after,
  );
  const calledOnModule = new RegExp(`\\b${subject}\\.${name}\\(`).test(after.replace(match[0], ''));
  return importedName || calledOnModule ? { weight: 1, what: `patch('${match[2]}')` } : null;
}

function javaMock(line: string, subject: string, previous: string): { weight: number; what: string } | null {
  const call = new RegExp(`\\b(Mockito\\.)?mock\\(\\s*${subject}\\.class\\b`).exec(line);
  if (call) return { weight: 1, what: `${call[0]})` };
  const field = new RegExp(`^(private\\s+|protected\\s+)?${subject}\\s+\\w+\\s*;`).test(line);
  const annotated =
    /@(Mock|MockBean|MockitoBean)\b/.test(line) || /^@(Mock|MockBean|MockitoBean)$/.test(previous);
  return field && annotated ? { weight: 1, what: `@Mock ${subject}` } : null;
}

/** A test file that mocks the module or class it tests, added by the change. */
export function detectMockedUnit({ file, context, baseConfidence }: DetectorInput): LazinessHit[] {
  const subject = subjectOf(file.path);
  if (!subject || file.after === null || !/mock|patch/i.test(file.after)) return [];
  const after = file.after;
  const added = addedOccurrences(linesOf(file.before), linesOf(after), [(line) => line.text]);
  const allLines = linesOf(after);
  const hits: LazinessHit[] = [];
  for (const line of added) {
    const previous = allLines[line.row - 1]?.text ?? '';
    const found =
      context.language === 'python'
        ? pythonPatch(line.text, subject, after)
        : context.language === 'java'
          ? javaMock(line.text, subject, previous)
          : scriptMock(line.text, subject, after);
    if (!found) continue;
    hits.push({
      pattern: 'lazy.mock_unit_under_test',
      confidence: baseConfidence * found.weight,
      line: line.row + 1,
      name: subject,
      message: `mocks \`${subject}\`, the unit this test file tests (\`${found.what}\`), so the test checks the mock`,
    });
  }
  return hits;
}
