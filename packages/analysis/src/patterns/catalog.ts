import type { LazinessPatternId, PatternDefinition } from './types.js';

const PARSED = ['typescript', 'tsx', 'javascript', 'python', 'go', 'java', 'rust'] as const;

/** The laziness patterns: what each catches, how bad it is, and what it must not flag. */
export const LAZINESS_PATTERNS: readonly PatternDefinition[] = [
  {
    id: 'lazy.placeholder_body',
    title: 'Body replaced by a placeholder',
    severity: 'high',
    languages: [...PARSED, 'other'],
    description:
      'A function that had a real body now only throws or raises "not implemented", panics, calls todo!(), is pass/... or empty, returns an empty value (lower confidence), or lost code to a TODO comment or to a comment standing in for left-out code (`# ... existing code ...`).',
    examples: [
      {
        language: 'typescript',
        bad: "function total(cart: Cart) {\n  throw new Error('not implemented');\n}",
        good: 'abstract class Shape {\n  abstract area(): number;\n}',
      },
      {
        language: 'python',
        bad: 'def total(cart):\n    pass',
        good: '@abstractmethod\ndef total(self, cart):\n    pass  # was already pass',
      },
      {
        language: 'go',
        bad: 'func Total(c Cart) int {\n\tpanic("not implemented")\n}',
        good: 'func (NoopLogger) Log(string) {}',
      },
      {
        language: 'java',
        bad: 'int total(Cart c) {\n  throw new UnsupportedOperationException();\n}',
        good: 'public void remove() {\n  throw new UnsupportedOperationException(); // unchanged immutable view\n}',
      },
      {
        language: 'rust',
        bad: 'fn total(c: &Cart) -> u32 {\n    todo!()\n}',
        good: 'fn total(c: &Cart) -> u32 {\n    c.items.iter().sum()\n}',
      },
    ],
  },
  {
    id: 'lazy.test_commented_out',
    title: 'Test or assertion commented out',
    severity: 'high',
    languages: [...PARSED, 'other'],
    description: 'A test case or assertion was removed and its code reappears inside comments.',
    examples: [
      {
        language: 'typescript',
        bad: "// it('adds tax', () => {\n//   expect(total(cart)).toBe(110);\n// });",
        good: '// Totals include tax since 2024; see docs/pricing.md.',
      },
      { language: 'python', bad: '# assert total(cart) == 110', good: '# Totals include tax.' },
    ],
  },
  {
    id: 'lazy.suppression_added',
    title: 'Check suppressed',
    severity: 'high',
    languages: [...PARSED, 'other'],
    description:
      'A type-check (high outside tests) or lint (medium) suppression was added: @ts-ignore, @ts-expect-error, @ts-nocheck, eslint-disable, biome-ignore, `as any` or `as unknown as` outside tests, # type: ignore, # noqa, # pylint: disable, //nolint, @SuppressWarnings, #[allow(...)]. Coverage exclusions (pragma: no cover, istanbul/c8 ignore) are not reported.',
    examples: [
      {
        language: 'typescript',
        bad: '// @ts-ignore\nconst n: number = input;',
        good: 'const n = Number(input);  // or a suppression that was already there',
      },
      { language: 'python', bad: 'total = compute(cart)  # type: ignore', good: 'total = compute(cart)' },
      { language: 'go', bad: 'f, _ := os.Open(p) //nolint:errcheck', good: 'f, err := os.Open(p)' },
      {
        language: 'java',
        bad: '@SuppressWarnings("unchecked")\nList<String> names = (List<String>) raw;',
        good: 'List<String> names = List.copyOf(raw);',
      },
      {
        language: 'rust',
        bad: '#[allow(unused_must_use)]\nfn save() { write(); }',
        good: 'fn save() -> io::Result<()> { write() }',
      },
    ],
  },
  {
    id: 'lazy.error_swallowed',
    title: 'Error swallowed',
    severity: 'high',
    languages: [...PARSED, 'other'],
    description:
      'An error is caught and dropped (high for an empty catch-all handler outside tests, medium for the other forms): an empty catch, except: pass, .catch(() => {}), Go `_ = err`, `if err != nil { return nil }` or `return x, nil` there, Rust `let _ =` on a call or `.ok();`, or unwrap_or_default() where the error was handled.',
    examples: [
      {
        language: 'typescript',
        bad: 'try { save(); } catch {}',
        good: "try { save(); } catch (error) {\n  log.warn({ error }, 'save failed');\n  throw error;\n}",
      },
      {
        language: 'python',
        bad: 'try:\n    save()\nexcept Exception:\n    pass',
        good: 'try:\n    save()\nexcept OSError:\n    log.warning("save failed")\n    raise',
      },
      {
        language: 'go',
        bad: 'if err != nil {\n\treturn nil\n}',
        good: 'if err != nil {\n\treturn fmt.Errorf("save: %w", err)\n}',
      },
      {
        language: 'java',
        bad: 'try { save(); } catch (IOException e) {}',
        good: 'try { save(); } catch (IOException e) { throw new UncheckedIOException(e); }',
      },
      { language: 'rust', bad: 'let _ = save();', good: 'save()?;' },
    ],
  },
  {
    id: 'lazy.hardcoded_result',
    title: 'Result hard-coded to pass a test',
    severity: 'critical',
    languages: [...PARSED, 'other'],
    description:
      "Seed 001's hardcoded_test_bypass: a function now returns a literal that a test of it (in the file, or a test file of the change that tests this file) expects, written in an assertion, bound to a constant the assertion names, or imported from a helper module of the change, or production code branches on being under test (NODE_ENV === 'test', 'pytest' in sys.modules, testing.Testing(), cfg!(test)).",
    examples: [
      {
        language: 'typescript',
        bad: 'function total(cart: Cart) {\n  return 110; // test expects toBe(110)\n}',
        good: 'const TAX_RATE = 0.1; // no test expects 0.1',
      },
      {
        language: 'python',
        bad: "if 'pytest' in sys.modules:\n    return 110",
        good: 'return sum(item.price for item in cart)',
      },
      { language: 'go', bad: 'if testing.Testing() {\n\treturn 110\n}', good: 'return c.Sum()' },
      {
        language: 'rust',
        bad: 'if cfg!(test) { return 110; }',
        good: '#[cfg(test)]\nmod tests { /* tests */ }',
      },
    ],
  },
  {
    id: 'lazy.mock_unit_under_test',
    title: 'Unit under test mocked',
    severity: 'high',
    languages: ['typescript', 'tsx', 'javascript', 'python', 'java'],
    description:
      "A test mocks the module or class it is testing: vi.mock('./cart') in cart.test.ts, @patch('shop.cart.total') in test_cart.py while testing total, mock(Cart.class) in CartTest.java.",
    examples: [
      {
        language: 'typescript',
        bad: "import { total } from './cart';\nvi.mock('./cart');",
        good: "import { total } from './cart';\nvi.mock('./prices');",
      },
      {
        language: 'python',
        bad: "from shop.cart import total\n@patch('shop.cart.total')",
        good: "from shop.cart import total\n@patch('shop.cart.requests')",
      },
      {
        language: 'java',
        bad: 'Cart cart = mock(Cart.class);',
        good: 'Prices prices = mock(Prices.class);\nCart cart = new Cart(prices);',
      },
    ],
  },
  {
    id: 'lazy.assertion_deleted_to_pass',
    title: 'Assertion deleted while the code under test changed',
    severity: 'critical',
    languages: [...PARSED],
    description:
      "In one change a test loses an assertion and the production code it exercises changes too: the test was bent to the code. (An assertion removed on its own is the analysis's `assertion.removed` finding, high.)",
    examples: [
      {
        language: 'typescript',
        bad: '// cart.ts: total() changed\n// cart.test.ts: expect(total(cart)).toBe(110); removed',
        good: '// cart.test.ts: a duplicated assertion removed, cart.ts unchanged',
      },
    ],
  },
];

const BY_ID = new Map(LAZINESS_PATTERNS.map((pattern) => [pattern.id, pattern]));

/** The catalog entry of a pattern id. */
export function patternDefinition(id: LazinessPatternId): PatternDefinition {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown laziness pattern ${id}; add it to LAZINESS_PATTERNS`);
  return found;
}
