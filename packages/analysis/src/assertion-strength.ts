/**
 * How much an assertion pins down: 3 an exact value, 2 a relation or a part, 1 only that something
 * exists, is truthy or did not throw. A change that swaps an assertion for a lower one weakens it.
 */
export type Strength = 1 | 2 | 3;

const MATCHES_ANYTHING =
  /\bexpect\.(any|anything)\(|\bany\w*\(|\bArgumentMatchers\.any|\bmock\.ANY\b|\bANY\b/;
const ZERO_BOUND = /^\(?\s*(0|1|0n|0\.0)\s*\)?$/;

function capped(strength: Strength, args: string): Strength {
  return MATCHES_ANYTHING.test(args) ? 1 : strength;
}

const JS_EXACT = new Set([
  'toBe',
  'toEqual',
  'toStrictEqual',
  'toMatchObject',
  'toHaveBeenCalledWith',
  'toHaveBeenLastCalledWith',
  'toHaveBeenNthCalledWith',
  'toHaveBeenCalledTimes',
  'toHaveReturnedWith',
  'toMatchSnapshot',
  'toMatchInlineSnapshot',
  'toMatchFileSnapshot',
  'toHaveLength',
  'toBeCloseTo',
  'toBeNull',
  'toBeUndefined',
  'toBeNaN',
  'equal',
  'equals',
  'eql',
  'strictEqual',
  'deepEqual',
  'deepStrictEqual',
  'same',
  'match',
  'is',
  'strictSame',
  'snapshot',
  'matchSnapshot',
]);
const JS_WEAK = new Set([
  'toBeDefined',
  'toBeTruthy',
  'toBeTypeOf',
  'ok',
  'exist',
  'toBeOk',
  'notEqual',
  'truthy',
  'falsy',
  'notOk',
  'notThrows',
  'notThrowsAsync',
  'doesNotThrow',
]);
const BOUNDS =
  /^(toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|above|least|greaterThan|isGreaterThan|Greater|GreaterOrEqual)$/;

/** `assert(a == b)` pins a value, `assert(a > 0)` a relation, `assert(a)` only truth. */
function truthStrength(args: string): Strength {
  if (/[^=!<>]===?[^=]/.test(args)) return 3;
  if (/!==?/.test(args)) return 1;
  return /[<>]|\binstanceof\b/.test(args) ? 2 : 1;
}

/** Booleans and empty values pinned by chai/should properties (`.should.be.true`). */
const JS_EXACT_PROPERTIES = new Set(['true', 'false', 'null', 'undefined', 'NaN', 'empty']);

/** A JS/TS assertion by its last matcher (`toBe`), whether `.not` precedes it, and its arguments. */
export function jsStrength(matcher: string, negated: boolean, args: string): Strength {
  if (negated) return matcher === 'toThrow' || JS_EXACT.has(matcher) || JS_WEAK.has(matcher) ? 1 : 2;
  if (BOUNDS.test(matcher)) return ZERO_BOUND.test(args) ? 1 : 2;
  if (matcher === 'toThrow' || matcher === 'toThrowError' || matcher === 'throws' || matcher === 'rejects') {
    return args.replace(/[()\s]/g, '') === '' ? 2 : 3;
  }
  if (JS_EXACT.has(matcher) || JS_EXACT_PROPERTIES.has(matcher)) return capped(3, args);
  if (matcher === 'assert' || matcher === 'ok' || matcher === 'expect') return truthStrength(args);
  if (JS_WEAK.has(matcher)) return 1;
  return capped(2, args);
}

/** A Python `assert` statement by its expression's text. */
export function pythonAssertStrength(expression: string): Strength {
  const comparison = /\s(==|!=|is not|is|not in|in|<=|>=|<|>)\s/.exec(expression);
  if (!comparison) return 1;
  const operator = comparison[1];
  const right = expression.slice((comparison.index ?? 0) + comparison[0].length).trim();
  if (operator === '==') return capped(3, right);
  if (operator === 'is') return right === 'None' || right === 'True' || right === 'False' ? 3 : 2;
  if (operator === '>' || operator === '>=') return ZERO_BOUND.test(right) ? 1 : 2;
  if (operator === '!=' || operator === 'is not') return 1;
  return 2;
}

const PY_EXACT =
  /^(assertEqual|assertEquals|assertDictEqual|assertListEqual|assertSequenceEqual|assertTupleEqual|assertSetEqual|assertCountEqual|assertMultiLineEqual|assertAlmostEqual|assertIs|assertIsNone|assertRaises|assertRaisesRegex|assertWarns|assert_called_once_with|assert_called_with|assert_has_calls|assert_any_call|assert_called_once|assert_not_called|fail)$/;
const PY_WEAK = /^(assertIsNotNone|assertNotEqual|assertNotEquals|assertIsNot|assert_called|assertNotIn)$/;

/** A `self.assertX(...)` / `mock.assert_x(...)` call by its method name and arguments. */
export function pythonCallStrength(method: string, args: string): Strength {
  if (PY_EXACT.test(method)) return capped(3, args);
  if (PY_WEAK.test(method)) return 1;
  if (method === 'assertTrue' || method === 'assertFalse') return /==|\bis\b|\bin\b|[<>]/.test(args) ? 2 : 1;
  if (method === 'assertGreater' || method === 'assertGreaterEqual') {
    return ZERO_BOUND.test(args.split(',').pop() ?? '') ? 1 : 2;
  }
  return 2;
}

/** `pytest.raises(ValueError, match=…)` pins the error, `pytest.raises(Exception)` only that something failed. */
export function pytestRaisesStrength(args: string): Strength {
  if (/\bmatch\s*=/.test(args)) return 3;
  return /^\(\s*\(?\s*(Exception|BaseException)\b/.test(args) ? 1 : 2;
}

const GO_EXACT =
  /^(Equal|Equalf|EqualValues|Exactly|JSONEq|YAMLEq|ElementsMatch|Len|Nil|EqualError|ErrorIs|ErrorAs|Same|InDelta|InEpsilon|Zero|Empty|False|Panics|PanicsWithValue|PanicsWithError|Fail|Failf|FailNow)$/;
const GO_WEAK =
  /^(NotNil|NoError|NoErrorf|NotEmpty|NotZero|NotPanics|NotEqual|NotEqualValues|Error|Errorf|True)$/;

/**
 * A Go assertion: testify's `assert.X`/`require.X` by method; `t.Error`/`t.Fatal` by the condition
 * of the `if` around it (`got != want` pins a value, `err != nil` only that it worked).
 */
export function goStrength(receiver: string, method: string, condition: string | null): Strength {
  if (receiver === 'assert' || receiver === 'require' || receiver === 's' || receiver === 'suite') {
    if (GO_EXACT.test(method)) return 3;
    if (GO_WEAK.test(method)) return 1;
    return 2;
  }
  if (condition === null) return 2;
  if (/\berr\s*!=\s*nil\b/.test(condition) && !/&&|\|\|/.test(condition)) return 1;
  // `if got == 0 { t.Fatal }` only asks that something came back.
  if (/\s==\s*(0|nil|""|false)$/.test(condition) && !/&&|\|\|/.test(condition)) return 1;
  return /!=|==|!reflect\.DeepEqual|!cmp\.Equal|cmp\.Diff/.test(condition) ? 3 : 2;
}

const JAVA_EXACT =
  /^(assertEquals|assertArrayEquals|assertIterableEquals|assertLinesMatch|assertSame|assertNull|assertThrows|assertThrowsExactly|assertTimeout|isEqualTo|isEqualByComparingTo|isSameAs|containsExactly|containsExactlyInAnyOrder|hasSize|isNull|isEmpty|hasMessage|isFalse|isExactlyInstanceOf|verify|fail|isEqualToComparingFieldByField|usingRecursiveComparison|containsOnly)$/;
const JAVA_WEAK =
  /^(assertNotNull|isNotNull|assertDoesNotThrow|isNotEmpty|assertNotEquals|isNotEqualTo|isNotBlank|assertNotSame|doesNotThrowAnyException)$/;

/** A Java assertion by the method that decides it (`assertEquals`, AssertJ's last call) and its arguments. */
export function javaStrength(method: string, args: string): Strength {
  if (method === 'assertThat')
    return /\b(equalTo|is|sameInstance|contains)\(/.test(args) ? capped(3, args) : 2;
  if (method === 'assertTrue' || method === 'isTrue') return /==|\.equals\(/.test(args) ? 2 : 1;
  if (method === 'assertFalse' || method === 'isFalse') return 1;
  if (method === 'isGreaterThan' || method === 'isPositive')
    return ZERO_BOUND.test(args) || method === 'isPositive' ? 1 : 2;
  if (JAVA_EXACT.test(method)) return capped(3, args);
  if (JAVA_WEAK.test(method)) return 1;
  return 2;
}

/** A Rust assertion macro by its name and token tree. */
export function rustStrength(macro: string, tokens: string): Strength {
  if (macro.endsWith('_eq')) return 3;
  if (macro.endsWith('_ne')) return 1;
  if (macro === 'assert_matches' || macro === 'matches') return 2;
  if (/\.is_(ok|some|err|none)\(\)\s*\)?\s*$/.test(tokens) || /^\(\s*!?\s*[\w.]+\s*\)$/.test(tokens))
    return 1;
  if (/[^=!<>]==[^=]/.test(tokens)) return 3;
  return 2;
}
