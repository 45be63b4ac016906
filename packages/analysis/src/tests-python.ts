import type { Node } from 'web-tree-sitter';
import { pytestRaisesStrength, pythonAssertStrength, pythonCallStrength } from './assertion-strength.js';
import type { Assertion, RawScan, SkipMarker } from './test-scan.js';
import { lineOf, normalise, squeeze } from './test-scan.js';

const SKIP_DECORATOR =
  /^@\s*(pytest\.mark\.(skip|skipif|xfail)|unittest\.(skip|skipIf|skipUnless|expectedFailure)|(skip|skipIf|skipUnless|expectedFailure))\b/;
const SKIP_CALL = /^(pytest\.(skip|xfail)|self\.skipTest|unittest\.skip)\b/;
/** A helper that asserts, called on its own: `assert_total(cart, 6)`, `assert_frame_equal(a, b)`. */
const ASSERT_HELPER = /^assert(_|[A-Z])/;

function helperAssertion(call: Node): Assertion {
  const args = call.childForFieldName('arguments');
  return {
    line: lineOf(call),
    text: normalise(call.text),
    subject: squeeze(args?.namedChildren[0]?.text ?? ''),
    strength: 2,
  };
}

function decoratorsOf(definition: Node): Node[] {
  const parent = definition.parent;
  if (parent?.type !== 'decorated_definition') return [];
  return parent.namedChildren.filter((child): child is Node => child?.type === 'decorator');
}

function isTestClass(node: Node): boolean {
  const name = node.childForFieldName('name')?.text ?? '';
  return name.startsWith('Test') || /TestCase\b/.test(node.childForFieldName('superclasses')?.text ?? '');
}

/** The enclosing class of a definition, through a decorated definition and the class body. */
function classOf(definition: Node): Node | null {
  for (let node = definition.parent; node; node = node.parent) {
    if (node.type === 'class_definition') return node;
    if (node.type === 'function_definition') return null;
  }
  return null;
}

/** A condition on the interpreter or the platform: the test runs wherever it holds. */
const ENVIRONMENT =
  /^@\s*(pytest\.mark\.skipif|(unittest\.)?(skipIf|skipUnless))\s*\(\s*(not\s+)?\(?\s*(sys\.(version_info|platform|implementation|maxsize)|platform\.\w+\(\)|os\.name)\b/;

function skipMarker(decorator: Node, scope: string): SkipMarker | null {
  const kind = skipKind(decorator);
  if (!kind) return null;
  const marker = { line: lineOf(decorator), scope, kind };
  return ENVIRONMENT.test(decorator.text) ? { ...marker, environmental: true } : marker;
}

function skipKind(decorator: Node): string | null {
  const match = SKIP_DECORATOR.exec(decorator.text);
  if (match) return match[1] ?? null;
  // `pytest.param(…, marks=pytest.mark.skip(…))` skips one case of a parametrised test.
  return /\bmarks\s*=[^)]*?pytest\.mark\.(skip|skipif|xfail)\b/.exec(decorator.text)
    ? 'pytest.param marks'
    : null;
}

/** pytest and unittest: `test_*` functions and `Test*`/`TestCase` classes' methods; `assert` and `self.assert*`. */
export function pythonTests(root: Node): RawScan {
  const scan: RawScan = { tests: [], assertions: [], skips: [] };
  for (const cls of root.descendantsOfType('class_definition')) {
    if (!cls || !isTestClass(cls)) continue;
    const name = cls.childForFieldName('name')?.text ?? '';
    for (const decorator of decoratorsOf(cls)) {
      const marker = skipMarker(decorator, name);
      if (marker) scan.skips.push(marker);
    }
  }
  const keyOfFunction = new Map<number, string>();
  for (const fn of root.descendantsOfType('function_definition')) {
    const name = fn?.childForFieldName('name')?.text ?? '';
    if (!fn || !name.startsWith('test')) continue;
    const cls = classOf(fn);
    if (cls && !isTestClass(cls)) continue;
    const key = cls ? `${cls.childForFieldName('name')?.text ?? ''}.${name}` : name;
    keyOfFunction.set(fn.id, key);
    const decorators = decoratorsOf(fn);
    let skipped = false;
    for (const decorator of decorators) {
      const marker = skipMarker(decorator, key);
      if (!marker) continue;
      skipped = true;
      scan.skips.push(marker);
    }
    const start = decorators[0] ?? fn;
    scan.tests.push({
      name,
      key,
      line: lineOf(start),
      endLine: fn.endPosition.row + 1,
      skipped,
      body: normalise(fn.childForFieldName('body')?.text ?? ''),
      parameterised: decorators.some((decorator) => /\.parametrize\b|\bparameterized\b/.test(decorator.text)),
    });
  }
  for (const statement of root.descendantsOfType('assert_statement')) {
    if (!statement) continue;
    const expression = normalise(statement.text.replace(/^assert\s+/, '').split(/,\s*(?=["'f])/)[0] ?? '');
    const subject = expression.split(/\s(==|!=|is|in|not in|<|>|<=|>=)\s/)[0] ?? expression;
    scan.assertions.push({
      line: lineOf(statement),
      text: normalise(statement.text),
      subject: squeeze(subject),
      strength: pythonAssertStrength(expression),
    });
  }
  for (const call of root.descendantsOfType('call')) {
    const callee = call?.childForFieldName('function');
    if (call && callee?.type === 'identifier' && ASSERT_HELPER.test(callee.text)) {
      scan.assertions.push(helperAssertion(call));
      continue;
    }
    if (!call || callee?.type !== 'attribute') continue;
    const method = callee.childForFieldName('attribute')?.text ?? '';
    const args = call.childForFieldName('arguments');
    if (SKIP_CALL.test(callee.text) && call.parent?.type !== 'decorator') {
      scan.skips.push({ line: lineOf(call), scope: enclosingKey(call, keyOfFunction), kind: callee.text });
    } else if (callee.text === 'pytest.raises' || callee.text === 'pytest.warns') {
      scan.assertions.push({
        line: lineOf(call),
        text: normalise(call.text),
        subject: squeeze(args?.namedChildren[0]?.text ?? ''),
        strength: pytestRaisesStrength(args?.text ?? ''),
      });
    } else if (/^(assert|fail$)/.test(method)) {
      scan.assertions.push({
        line: lineOf(call),
        text: normalise(call.text),
        subject: squeeze(args?.namedChildren[0]?.text ?? ''),
        strength: pythonCallStrength(method, args?.text ?? ''),
      });
    }
  }
  for (const assignment of root.descendantsOfType('assignment')) {
    if (assignment?.childForFieldName('left')?.text !== 'pytestmark') continue;
    const kind = /pytest\.mark\.(skip|skipif|xfail)\b/.exec(assignment.text)?.[0];
    if (kind) scan.skips.push({ line: lineOf(assignment), scope: '', kind });
  }
  return scan;
}

function enclosingKey(node: Node, keys: Map<number, string>): string {
  for (let parent = node.parent; parent; parent = parent.parent) {
    const key = keys.get(parent.id);
    if (key !== undefined) return key;
  }
  return '';
}
