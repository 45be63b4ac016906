import type { Node } from 'web-tree-sitter';
import type { Strength } from './assertion-strength.js';

/** One assertion in a test. */
export interface Assertion {
  /** 1-based. */
  line: number;
  /** Whitespace-normalised source text. */
  text: string;
  /** What is asserted about (the `expect(...)` argument, the compared expression), for pairing old and new. */
  subject: string;
  strength: Strength;
}

/** One test case found in a source. */
export interface TestCase {
  /** The test's own name (`adds two numbers`, `test_add`, `TestAdd`). */
  name: string;
  /** The name with its suites/classes/modules (`math > adds two numbers`, `TestMath.test_add`), unique in a file. */
  key: string;
  /** 1-based lines of its first and last line. */
  line: number;
  endLine: number;
  /** Skipped by its own marker (`it.skip`, `@Disabled`, `#[ignore]`…) or a skip call in its body. */
  skipped: boolean;
  /** The body's text, white space collapsed, to recognise a test moved under another name. */
  body: string;
  assertions: Assertion[];
  /** Found by a line rule in a fragment the parser could not read (lower confidence). */
  byLine?: boolean;
  /** Runs once per row of a table (`it.each`, `@pytest.mark.parametrize`, `@ParameterizedTest`). */
  parameterised?: boolean;
  /** Sits in a module compiled only for tests, beside the code it tests (Rust's `#[cfg(test)] mod tests`). */
  besideCode?: boolean;
}

/** A skip: a marker on a test or suite, or a skip call in a body. */
export interface SkipMarker {
  line: number;
  /** The skipped test's or suite's name, `''` for a whole file. */
  scope: string;
  /** The marker normalised (`it.skip`, `pytest.mark.skip`, `t.Skip`, `@Disabled`, `#[ignore]`). */
  kind: string;
  /** Skips only where the environment lacks what the test needs (a Python version, a platform). */
  environmental?: boolean;
}

/** The tests of one side of a file. */
export interface TestScan {
  tests: TestCase[];
  /** Assertions outside any test found (a hunk that shows a test's body without its head). */
  orphanAssertions: Assertion[];
  skips: SkipMarker[];
}

/** What a language module finds in a tree; the shared code puts assertions into their tests. */
export interface RawScan {
  tests: Omit<TestCase, 'assertions'>[];
  assertions: Assertion[];
  skips: SkipMarker[];
}

export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function squeeze(text: string): string {
  return text.replace(/\s+/g, '');
}

/** 1-based first line of a node. */
export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/** Unquotes a string literal's text (`'a'`, `"a"`, `` `a` ``, `r"a"`). */
export function stringValue(text: string): string {
  return text.replace(/^[rbuf]*(['"`]{1,3})([\s\S]*)\1$/i, '$2');
}
