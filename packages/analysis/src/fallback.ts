import type { Strength } from './assertion-strength.js';
import type { Assertion, SkipMarker, TestCase, TestScan } from './test-scan.js';
import type { LanguageId } from './types.js';

/** Test heads by line, for languages without a grammar and for fragments the parser could not read. */
const HEADS: readonly RegExp[] = [
  /^\s*(?:x?it|x?test|specify|fit|scenario|example)(?:\.\w+)*\s*\(\s*(['"`])(?<name>.+?)\1/,
  /^\s*(?:it|test|specify|scenario|example)\s+(['"])(?<name>.+?)\1\s*(?:,|do\b|\{)/,
  /^\s*(?:async\s+)?def\s+(?<name>test\w*)\s*\(/,
  /^\s*func\s+(?<name>(?:Test|Benchmark|Fuzz)\w*)\s*\(\s*\w+\s+\*testing\./,
  /^\s*(?:public\s+)?function\s+(?<name>test\w+)\s*\(/,
  /^\s*(?:override\s+)?func\s+(?<name>test\w+)\s*\(/,
];
/** A test marked by an annotation or attribute on the line(s) before its declaration. */
const MARKER =
  /^\s*(?:@(?:Test|ParameterizedTest|RepeatedTest)\b|#\[(?:test|[\w:]*::test|rstest)\]|\[(?:Test|Fact|Theory|TestMethod|TestCase)\b)/;
const DECLARATION =
  /^\s*(?:(?:pub|public|private|protected|internal|override|suspend|async|static|final|open)\s+)*(?:fn|fun|void|def|func|Task|async\s+Task|[A-Z]\w*)\s+`?(?<name>[^`(\s]+)`?\s*\(/;

const SKIP =
  /\b(?:xit|xtest|xdescribe|xcontext|(?:it|test|describe|context|suite)\.(?:skip|todo|skipIf|fails)|pytest\.mark\.(?:skip|skipif|xfail)|pytest\.skip|unittest\.skip\w*|self\.skipTest|t\.Skip(?:f|Now)?|markTestSkipped|markTestIncomplete|XCTSkip\w*)\b|@(?:Disabled|Ignore)\b|#\[ignore\]|\[Ignore\]|\bSkip\s*=\s*"|^\s*(?:skip|pending)\b\s*(?:['"(]|$)/;
const ASSERTION =
  /\b(?:expect\w*\s*[(.{]|assert\w*!?\s*[(\s]|XCTAssert\w*\s*\(|should\w*[\s(.]|t\.(?:Error|Errorf|Fatal|Fatalf|Fail)\s*\(|require\.\w+\s*\(|verify\s*\(|(?:refute|assert_\w+)\b)|\$this->assert\w+\s*\(|\.should\b|\bshould\s*==/;
const EXACT = /Equal|toBe\b|toEqual|to eq\b|\beq\(|==|_eq!|\bis\(|equalTo|toMatchSnapshot|assertSame/;
const WEAK =
  /NotNull|NotNil|Defined|Truthy|NoError|is_ok|is_some|not_to raise|to be_truthy|not_to be_nil|\bNotEmpty|toBeTypeOf|\bassert\s*\(\s*\w+\s*\)/;

function strengthOfLine(text: string): Strength {
  if (WEAK.test(text)) return 1;
  return EXACT.test(text) ? 3 : 2;
}

function headName(lines: readonly string[], index: number): string | null {
  const line = lines[index] as string;
  for (const head of HEADS) {
    const name = head.exec(line)?.groups?.name;
    if (name) return name;
  }
  if (!MARKER.test(line)) return null;
  for (let next = index + 1; next < Math.min(lines.length, index + 6); next++) {
    const name = DECLARATION.exec(lines[next] as string)?.groups?.name;
    if (name) return name;
  }
  return null;
}

/** The test an annotation line belongs to: the next head within a few lines. */
function nextHeadName(lines: readonly string[], index: number): string | null {
  for (let next = index + 1; next < Math.min(lines.length, index + 6); next++) {
    const name = headName(lines, next);
    if (name) return name;
  }
  return null;
}

/** Tests, assertions and skips by line rules (confidence ≤ 0.6 when alone). */
export function lineTestScan(text: string, _language: LanguageId): TestScan {
  const lines = text.split('\n');
  const tests: TestCase[] = [];
  const orphanAssertions: Assertion[] = [];
  const skips: SkipMarker[] = [];
  let current: TestCase | null = null;
  const bodyLines: string[] = [];
  const close = (endLine: number) => {
    if (!current) return;
    current.endLine = endLine;
    current.body = bodyLines.join(' ').replace(/\s+/g, ' ').trim();
    bodyLines.length = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const name = headName(lines, i);
    if (name !== null) {
      close(i);
      current = { name, key: name, line: i + 1, endLine: i + 1, skipped: false, body: '', assertions: [] };
      tests.push(current);
    } else if (current) bodyLines.push(line);
    const skip = SKIP.exec(line);
    if (skip) {
      const scope =
        name ?? (/^\s*(@|#\[|\[)/.test(line) ? nextHeadName(lines, i) : null) ?? current?.name ?? '';
      skips.push({ line: i + 1, scope, kind: skip[0].trim() });
    }
    if (ASSERTION.test(line) && name === null) {
      const text = line.trim().replace(/\s+/g, ' ');
      const assertion: Assertion = { line: i + 1, text, subject: '', strength: strengthOfLine(text) };
      (current ? current.assertions : orphanAssertions).push(assertion);
    }
  }
  close(lines.length);
  for (const skip of skips) {
    const test = tests.find((candidate) => candidate.name === skip.scope);
    if (test) test.skipped = true;
  }
  return { tests, orphanAssertions, skips };
}
