import type { Node } from 'web-tree-sitter';
import { goStrength, javaStrength, rustStrength } from './assertion-strength.js';
import type { RawScan } from './test-scan.js';
import { lineOf, normalise, squeeze, stringValue } from './test-scan.js';

const GO_TEST = /^(Test|Benchmark|Fuzz)([A-Z0-9_]|$)/;
const GO_ASSERT = /^(Error|Errorf|Fatal|Fatalf|Fail|FailNow)$/;
const GO_SKIP = /^(Skip|Skipf|SkipNow)$/;
/** A helper that asserts, called on its own: `assertTotal(t, cart, 6)`. */
const GO_ASSERT_HELPER = /^assert[A-Z_]/;

/** The condition of the `if` a call sits in, when it is the only reason the call runs. */
function ifCondition(node: Node): string | null {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === 'if_statement') return normalise(parent.childForFieldName('condition')?.text ?? '');
    if (parent.type === 'function_declaration' || parent.type === 'func_literal') return null;
  }
  return null;
}

function enclosing(node: Node, keys: Map<number, string>): string {
  for (let parent = node.parent; parent; parent = parent.parent) {
    const key = keys.get(parent.id);
    if (key !== undefined) return key;
  }
  return '';
}

/** Go: `func TestX(t *testing.T)` and its `t.Run` subtests; `t.Error`/`t.Fatal` and testify. */
export function goTests(root: Node): RawScan {
  const scan: RawScan = { tests: [], assertions: [], skips: [] };
  const keys = new Map<number, string>();
  for (const fn of root.descendantsOfType('function_declaration')) {
    const name = fn?.childForFieldName('name')?.text ?? '';
    if (
      !fn ||
      !GO_TEST.test(name) ||
      !/\*testing\.[TBF]\b/.test(fn.childForFieldName('parameters')?.text ?? '')
    )
      continue;
    keys.set(fn.id, name);
    const body = normalise(fn.childForFieldName('body')?.text ?? '');
    scan.tests.push({
      name,
      key: name,
      line: lineOf(fn),
      endLine: fn.endPosition.row + 1,
      skipped: false,
      body,
    });
  }
  // testify suites: `func (s *CartSuite) TestTotal()` runs as a test of the suite.
  for (const method of root.descendantsOfType('method_declaration')) {
    const name = method?.childForFieldName('name')?.text ?? '';
    if (!method || !GO_TEST.test(name)) continue;
    const receiver =
      method.childForFieldName('receiver')?.descendantsOfType('type_identifier')[0]?.text ?? '';
    const key = `${receiver}.${name}`;
    keys.set(method.id, key);
    const body = normalise(method.childForFieldName('body')?.text ?? '');
    scan.tests.push({
      name,
      key,
      line: lineOf(method),
      endLine: method.endPosition.row + 1,
      skipped: false,
      body,
    });
  }
  const calls = root.descendantsOfType('call_expression');
  for (const call of calls) {
    const callee = call?.childForFieldName('function');
    if (call && callee?.type === 'identifier' && GO_ASSERT_HELPER.test(callee.text)) {
      const args = call.childForFieldName('arguments')?.namedChildren ?? [];
      // The helper's first argument is the test's `t`; the second is what it checks.
      const subject = args.find((arg) => arg.text !== 't' && arg.text !== 'b') ?? null;
      scan.assertions.push({
        line: lineOf(call),
        text: normalise(call.text),
        subject: squeeze(subject?.text ?? ''),
        strength: 2,
      });
      continue;
    }
    if (!call || callee?.type !== 'selector_expression') continue;
    const operand = callee.childForFieldName('operand')?.text ?? '';
    // testify: `assert.X`, `require.X`, and in suites `s.X`, `s.Require().X`, `s.Assert().X`.
    const receiver =
      /^(assert|require|s|suite)$/.test(operand) || /\.(Require|Assert)\(\)$/.test(operand)
        ? 'assert'
        : operand;
    const method = callee.childForFieldName('field')?.text ?? '';
    const args = call.childForFieldName('arguments');
    if (method === 'Run' && args?.namedChildren[0]?.type === 'interpreted_string_literal') {
      const name = stringValue(args.namedChildren[0].text);
      const key = `${enclosing(call, keys)}/${name}`;
      const literal = args.namedChildren[1];
      if (literal) keys.set(literal.id, key);
      const body = normalise(literal?.text ?? '');
      scan.tests.push({
        name,
        key,
        line: lineOf(call),
        endLine: call.endPosition.row + 1,
        skipped: false,
        body,
      });
    } else if (GO_SKIP.test(method)) {
      scan.skips.push({
        line: lineOf(call),
        scope: enclosing(call, keys),
        kind: `t.${method.replace(/f$|Now$/, '')}`,
      });
    } else if (receiver === 'assert' || receiver === 'require' || GO_ASSERT.test(method)) {
      const condition = ifCondition(call);
      const subject =
        receiver === 'assert' || receiver === 'require'
          ? (args?.namedChildren[1]?.text ?? '')
          : (condition ?? '');
      scan.assertions.push({
        line: lineOf(call),
        // A `t.Fatal` is only as strict as its `if`: a loosened condition is a changed assertion.
        text: normalise(condition ? `if ${condition} { ${call.text} }` : call.text),
        subject: squeeze(subject),
        strength: goStrength(receiver, method, condition),
      });
    }
  }
  return scan;
}

const JAVA_TEST = /^@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property)\b/;
const JAVA_SKIP = /^@(Disabled\w*|Ignore|EnabledIf\w*|EnabledOn\w*)\b/;
const JAVA_ASSERT_ROOT = /^(assert\w*|fail|verify)$/;

function annotationsOf(declaration: Node): Node[] {
  const modifiers = declaration.namedChildren.find((child) => child?.type === 'modifiers');
  return (modifiers?.namedChildren ?? []).filter(
    (child): child is Node => child?.type === 'marker_annotation' || child?.type === 'annotation',
  );
}

/** The innermost call of a fluent chain: `assertThat(x)` in `assertThat(x).isEqualTo(1)`. */
function chainRoot(call: Node): Node {
  let node = call;
  for (let object = node.childForFieldName('object'); object?.type === 'method_invocation'; ) {
    node = object;
    object = node.childForFieldName('object');
  }
  return node;
}

/** JUnit 3: `public void testX()` in a class that extends a `TestCase`. */
function isJUnit3Test(method: Node, name: string): boolean {
  if (!name.startsWith('test') || method.childForFieldName('parameters')?.text !== '()') return false;
  const cls = method.parent?.parent;
  return /TestCase\b|Test\b/.test(cls?.childForFieldName('superclass')?.text ?? '');
}

/** JUnit 3/4/5 and TestNG: methods annotated `@Test`; `assert*`, AssertJ/Hamcrest `assertThat`, `fail`, `verify`. */
export function javaTests(root: Node): RawScan {
  const scan: RawScan = { tests: [], assertions: [], skips: [] };
  for (const cls of root.descendantsOfType('class_declaration')) {
    if (!cls) continue;
    const name = cls.childForFieldName('name')?.text ?? '';
    for (const annotation of annotationsOf(cls)) {
      const kind = JAVA_SKIP.exec(annotation.text)?.[0];
      if (kind) scan.skips.push({ line: lineOf(annotation), scope: name, kind });
    }
  }
  for (const method of root.descendantsOfType('method_declaration')) {
    if (!method) continue;
    const annotations = annotationsOf(method);
    const name = method.childForFieldName('name')?.text ?? '';
    if (!annotations.some((annotation) => JAVA_TEST.test(annotation.text)) && !isJUnit3Test(method, name))
      continue;
    const cls = method.parent?.parent?.childForFieldName('name')?.text ?? '';
    const key = cls ? `${cls}.${name}` : name;
    let skipped = false;
    for (const annotation of annotations) {
      const kind = JAVA_SKIP.exec(annotation.text)?.[0];
      if (!kind) continue;
      skipped = true;
      scan.skips.push({ line: lineOf(annotation), scope: key, kind });
    }
    const body = normalise(method.childForFieldName('body')?.text ?? '');
    const parameterised = annotations.some((annotation) =>
      /^@(ParameterizedTest|TestFactory|Theory)\b/.test(annotation.text),
    );
    scan.tests.push({
      name,
      key,
      line: lineOf(method),
      endLine: method.endPosition.row + 1,
      skipped,
      body,
      parameterised,
    });
  }
  for (const call of root.descendantsOfType('method_invocation')) {
    if (!call) continue;
    if (call.parent?.type !== 'expression_statement') continue;
    const first = chainRoot(call);
    const rootName = first.childForFieldName('name')?.text ?? '';
    if (!JAVA_ASSERT_ROOT.test(rootName)) continue;
    const decider = call.childForFieldName('name')?.text ?? '';
    const args = call.childForFieldName('arguments')?.text ?? '';
    const rootArgs = first.childForFieldName('arguments');
    const subject = rootArgs?.namedChildren.at(rootName === 'assertEquals' ? -1 : 0)?.text ?? '';
    scan.assertions.push({
      line: lineOf(call),
      text: normalise(call.text),
      subject: squeeze(subject),
      strength: javaStrength(decider, first.id === call.id ? args : `${rootArgs?.text ?? ''}${args}`),
    });
  }
  return scan;
}

/** The `#[...]` attributes written just before a Rust item. */
function attributesOf(item: Node): Node[] {
  const attributes: Node[] = [];
  for (let node = item.previousNamedSibling; node; node = node.previousNamedSibling) {
    if (node.type === 'attribute_item') attributes.unshift(node);
    else if (node.type !== 'line_comment' && node.type !== 'block_comment') break;
  }
  return attributes;
}

/** `#[test]`, a runner's own (`#[tokio::test]`, `#[wasm_bindgen_test]`), or a case generator's. */
const RUST_TEST = /^#\[\s*(?:[\w:]*::)?(test|\w+_test|rstest|test_case|quickcheck|proptest)\b/;
const RUST_ASSERT = /^(debug_)?assert\w*$|^\w+_(eq|ne)$/;
/** A helper that asserts: `te.assert_output(…)`, `assert_parses(…)`, assert_cmd's `.assert()`. */
const RUST_ASSERT_CALL = /^assert(_\w+)?$/;

/** `#[cfg(test)]`, or a cfg that needs `test` among others (`#[cfg(all(test, loom))]`), not `not(test)`. */
export const isTestCfg = (attribute: string) =>
  /^#\[\s*cfg\(/.test(attribute) && /\btest\b/.test(attribute.replace(/\bnot\([^()]*\)/g, ''));

/** Whether an item sits in a module compiled only for tests (`#[cfg(test)] mod tests`). */
function inTestModule(item: Node): boolean {
  for (let node = item.parent; node; node = node.parent) {
    if (node.type !== 'mod_item') continue;
    if (attributesOf(node).some((attribute) => isTestCfg(attribute.text))) return true;
  }
  return false;
}

const RUST_TYPES = new Set(['struct_item', 'enum_item', 'trait_item', 'union_item']);

/** A file that declares a public type is a library's module: tests written beside it are unit tests. */
function declaresPublicType(root: Node): boolean {
  return root.namedChildren.some(
    (item) =>
      item !== null &&
      RUST_TYPES.has(item.type) &&
      item.namedChildren.some((child) => child?.type === 'visibility_modifier' && child.text === 'pub'),
  );
}

/** The call in a statement-level chain that is named like an assertion, and the chain's receiver. */
function assertingCall(call: Node): { call: Node; receiver: string } | null {
  for (let node: Node | null = call; node?.type === 'call_expression'; ) {
    const callee = node.childForFieldName('function');
    const field = callee?.type === 'field_expression' ? callee.childForFieldName('field') : null;
    const name = field?.text ?? (callee?.type === 'identifier' ? callee.text : '');
    if (RUST_ASSERT_CALL.test(name)) {
      return { call: node, receiver: callee?.childForFieldName('value')?.text ?? '' };
    }
    node = callee?.type === 'field_expression' ? callee.childForFieldName('value') : null;
  }
  return null;
}

/** Assertions made by calling a helper, at statement level (or as a block's last expression). */
function rustHelperAssertions(root: Node): RawScan['assertions'] {
  const found: RawScan['assertions'] = [];
  for (const call of root.descendantsOfType('call_expression')) {
    const parent = call?.parent;
    if (!call || !(parent?.type === 'expression_statement' || parent?.type === 'block')) continue;
    const asserting = assertingCall(call);
    if (!asserting) continue;
    const args = asserting.call.childForFieldName('arguments');
    found.push({
      line: lineOf(call),
      text: normalise(call.text),
      subject: squeeze(args?.namedChildren[0]?.text ?? asserting.receiver),
      strength: 2,
    });
  }
  return found;
}

/** Rust: fns with `#[test]`/`#[tokio::test]`/`#[rstest]`, `#[ignore]`; `assert!`, `assert_eq!`, `assert_ne!`, `x.assert_y(…)`. */
export function rustTests(root: Node): RawScan {
  const scan: RawScan = { tests: [], assertions: [], skips: [] };
  const library = declaresPublicType(root);
  for (const fn of root.descendantsOfType('function_item')) {
    if (!fn) continue;
    const attributes = attributesOf(fn);
    if (!attributes.some((attribute) => RUST_TEST.test(attribute.text))) continue;
    const name = fn.childForFieldName('name')?.text ?? '';
    const modules: string[] = [];
    for (let node = fn.parent; node; node = node.parent) {
      if (node.type === 'mod_item') modules.unshift(node.childForFieldName('name')?.text ?? '');
    }
    const key = [...modules, name].join('::');
    const ignore = attributes.find((attribute) => /^#\[\s*ignore\b/.test(attribute.text));
    if (ignore) scan.skips.push({ line: lineOf(ignore), scope: key, kind: '#[ignore]' });
    const line = lineOf(attributes[0] ?? fn);
    const body = normalise(fn.childForFieldName('body')?.text ?? '');
    scan.tests.push({
      name,
      key,
      line,
      endLine: fn.endPosition.row + 1,
      skipped: ignore !== undefined,
      body,
      ...(library || inTestModule(fn) ? { besideCode: true } : {}),
    });
  }
  scan.assertions.push(...rustHelperAssertions(root));
  for (const macro of root.descendantsOfType('macro_invocation')) {
    const name = macro?.childForFieldName('macro')?.text ?? '';
    if (!macro || !RUST_ASSERT.test(name)) continue;
    const tokens = macro.namedChildren.find((child) => child?.type === 'token_tree')?.text ?? '';
    scan.assertions.push({
      line: lineOf(macro),
      text: normalise(macro.text),
      subject: squeeze(tokens.slice(1).split(',')[0] ?? ''),
      strength: rustStrength(name, tokens),
    });
  }
  return scan;
}
