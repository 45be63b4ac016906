const TEST_PATH = [
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /(^|\/)(__tests__|__mocks__)\//,
  /_test\.go$/,
  /(^|\/)test_[^/]*\.py$/,
  /_test\.py$/,
  /(^|\/)conftest\.py$/,
  /(Test|Tests|IT)\.java$/,
  /(^|\/)src\/test\//,
  /(^|\/)tests?\/[^/]*\.rs$/,
];

/** Whether a path names a test file by the conventions of its language. */
export function isTestPath(path: string): boolean {
  return TEST_PATH.some((pattern) => pattern.test(path));
}

/** The module a test file tests, by name: `cart` for `cart.test.ts`, `test_cart.py`, `cart_test.go`, `CartTest.java`. */
export function subjectOf(path: string): string | null {
  const base = path.split('/').pop() ?? path;
  const match =
    /^(.+?)\.(test|spec)\.[cm]?[jt]sx?$/.exec(base) ??
    /^test_(.+)\.py$/.exec(base) ??
    /^(.+)_test\.(py|go)$/.exec(base) ??
    /^(.+?)(Test|Tests|IT)\.java$/.exec(base);
  return match?.[1] ?? null;
}

/** A file's name without directories and extension(s): `src/cart.ts` → `cart`. */
export function stemOf(path: string): string {
  const base = path.split('/').pop() ?? path;
  return base.replace(/\.[^.]+$/, '');
}
