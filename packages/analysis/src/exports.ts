import type { Node, Tree } from 'web-tree-sitter';
import { pythonExports } from './exports-python.js';
import { isTestCfg } from './tests-compiled.js';
import type { LanguageId } from './types.js';

/** A name a file offers to other code. */
export interface ExportedName {
  name: string;
  /** 1-based. */
  line: number;
  /** `class` covers classes, structs, enums, traits and interfaces (a removed one is worse). */
  kind: 'class' | 'function' | 'value' | 'type';
}

const line = (node: Node) => node.startPosition.row + 1;
const nameOf = (node: Node | null) => node?.childForFieldName('name')?.text ?? '';

/**
 * Top-level nodes of a type: the root's children, and what error recovery nested in an ERROR node
 * (a diff's fragment). Walking only there is far cheaper than every descendant of a large test file.
 */
function topLevel(root: Node, type: string): Node[] {
  const found: Node[] = [];
  for (const child of root.namedChildren) {
    if (child?.type === type) found.push(child);
    else if (child?.type === 'ERROR')
      found.push(...child.descendantsOfType(type).filter((node): node is Node => node !== null));
  }
  return found;
}

const JS_KINDS: Record<string, ExportedName['kind']> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_signature: 'function',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  interface_declaration: 'class',
  enum_declaration: 'class',
  type_alias_declaration: 'type',
};

/** The declarators of `export const a = …, b = …` itself; the locals of a function it holds are not API. */
function declaratorsOf(declaration: Node): Node[] {
  if (declaration.type !== 'lexical_declaration' && declaration.type !== 'variable_declaration') return [];
  return declaration.namedChildren.filter((child): child is Node => child?.type === 'variable_declarator');
}

function jsExports(root: Node): ExportedName[] {
  const names: ExportedName[] = [];
  for (const statement of topLevel(root, 'export_statement')) {
    if (!statement) continue;
    const declaration = statement.childForFieldName('declaration');
    const isDefault = statement.children.some((child) => child?.type === 'default');
    if (declaration) {
      const kind = JS_KINDS[declaration.type];
      if (kind)
        names.push({ name: isDefault ? 'default' : nameOf(declaration), line: line(statement), kind });
      for (const declarator of declaratorsOf(declaration)) {
        const id = declarator.childForFieldName('name');
        if (id?.type === 'identifier') names.push({ name: id.text, line: line(declarator), kind: 'value' });
      }
    } else if (isDefault) {
      names.push({ name: 'default', line: line(statement), kind: 'value' });
    }
    const namespace = statement.namedChildren.find((child) => child?.type === 'namespace_export');
    const alias = namespace?.namedChildren.at(-1);
    if (alias)
      names.push({ name: alias.text.replace(/^['"]|['"]$/g, ''), line: line(statement), kind: 'value' });
    for (const specifier of statement.descendantsOfType('export_specifier')) {
      const name = specifier?.childForFieldName('alias') ?? specifier?.childForFieldName('name');
      if (specifier && name) names.push({ name: name.text, line: line(specifier), kind: 'value' });
    }
  }
  return names;
}

/** The names a `module.exports = …` value offers: an object's keys, an identifier, else `default`. */
function moduleExportNames(value: Node | null): string[] {
  if (value?.type === 'identifier') return [value.text];
  if (value?.type !== 'object') return ['default'];
  return value.namedChildren.flatMap((member) => {
    if (member?.type === 'shorthand_property_identifier') return [member.text];
    const key = member?.childForFieldName('key') ?? member?.childForFieldName('name');
    return key && /^(property_identifier|identifier|string)$/.test(key.type)
      ? [key.text.replace(/^['"]|['"]$/g, '')]
      : [];
  });
}

/** CommonJS: `exports.x = …`, `module.exports.x = …`, `module.exports = { a, b: c }` at the top level. */
function commonJsExports(root: Node): ExportedName[] {
  const names: ExportedName[] = [];
  const statements = topLevel(root, 'expression_statement');
  for (const assignment of statements.map((statement) => statement.firstNamedChild)) {
    if (assignment?.type !== 'assignment_expression') continue;
    const left = assignment.childForFieldName('left')?.text ?? '';
    const member = /^(?:module\.)?exports\.([\w$]+)$/.exec(left)?.[1];
    const listed = member
      ? [member]
      : left === 'module.exports'
        ? moduleExportNames(assignment.childForFieldName('right'))
        : [];
    for (const name of listed) names.push({ name, line: line(assignment), kind: 'function' });
  }
  return names;
}

const capitalised = (name: string) => /^[A-Z]/.test(name);

function insideFunction(node: Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) if (parent.type === 'block') return true;
  return false;
}

/** Go: capitalised top-level functions, methods (`Type.Method`), types, constants and variables. */
function goExports(root: Node): ExportedName[] {
  const names: ExportedName[] = [];
  for (const fn of root.descendantsOfType('function_declaration')) {
    if (fn && capitalised(nameOf(fn))) names.push({ name: nameOf(fn), line: line(fn), kind: 'function' });
  }
  for (const method of root.descendantsOfType('method_declaration')) {
    if (!method || !capitalised(nameOf(method))) continue;
    const receiver =
      method.childForFieldName('receiver')?.descendantsOfType('type_identifier')[0]?.text ?? '';
    if (capitalised(receiver))
      names.push({ name: `${receiver}.${nameOf(method)}`, line: line(method), kind: 'function' });
  }
  for (const spec of root.descendantsOfType(['type_spec', 'const_spec', 'var_spec'])) {
    if (!spec || insideFunction(spec)) continue;
    const kind = spec.type === 'type_spec' ? 'class' : 'value';
    for (const id of spec.childrenForFieldName('name')) {
      if (id && capitalised(id.text)) names.push({ name: id.text, line: line(id), kind });
    }
  }
  return names;
}

const JAVA_TYPES = ['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration'];
const hasModifier = (node: Node, modifier: RegExp) =>
  node.namedChildren.some((child) => child?.type === 'modifiers' && modifier.test(child.text));
const isPublic = (node: Node) => hasModifier(node, /\bpublic\b/);
/** Protected members are API too: subclasses outside the package call them. */
const isOffered = (node: Node) => hasModifier(node, /\b(public|protected)\b/);

function insideType(node: Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) if (/_body$/.test(parent.type)) return true;
  return false;
}

function javaMember(member: Node, owner: string): ExportedName[] {
  const prefix = owner ? `${owner}.` : '';
  if (member.type === 'method_declaration')
    return [{ name: `${prefix}${nameOf(member)}`, line: line(member), kind: 'function' }];
  if (member.type !== 'field_declaration') return [];
  return member
    .childrenForFieldName('declarator')
    .flatMap((declarator) =>
      declarator
        ? [{ name: `${prefix}${nameOf(declarator)}`, line: line(member), kind: 'value' as const }]
        : [],
    );
}

/**
 * Java: public classes (and interfaces, enums, records) and their public and protected methods and fields;
 * in a diff's hunk that shows no class head, the public and protected methods it holds, by name.
 */
function javaExports(root: Node): ExportedName[] {
  const names: ExportedName[] = [];
  for (const type of root.descendantsOfType(JAVA_TYPES)) {
    if (!type || !isPublic(type)) continue;
    const owner = nameOf(type);
    names.push({ name: owner, line: line(type), kind: 'class' });
    const inInterface = type.type === 'interface_declaration';
    for (const member of type.childForFieldName('body')?.namedChildren ?? []) {
      if (member && (inInterface || isOffered(member))) names.push(...javaMember(member, owner));
    }
  }
  for (const method of topLevel(root, 'method_declaration')) {
    if (isOffered(method) && !insideType(method)) names.push(...javaMember(method, ''));
  }
  return names;
}

const RUST_KINDS: Record<string, ExportedName['kind']> = {
  function_item: 'function',
  struct_item: 'class',
  enum_item: 'class',
  trait_item: 'class',
  union_item: 'class',
  const_item: 'value',
  static_item: 'value',
  type_item: 'type',
  mod_item: 'class',
  macro_definition: 'function',
};

const isPub = (item: Node) =>
  item.namedChildren.find((child) => child?.type === 'visibility_modifier')?.text === 'pub';

/** The impl an item belongs to (`''` for none), or null when it sits in a `#[cfg(test)]` module. */
function rustOwner(item: Node): string | null {
  let owner = '';
  for (let node = item.parent; node; node = node.parent) {
    if (node.type === 'impl_item' && owner === '') owner = node.childForFieldName('type')?.text ?? '';
    if (node.type === 'mod_item' && isTestCfg(node.previousNamedSibling?.text ?? '')) return null;
  }
  return owner;
}

/** The names a `pub use` offers: `a::B` → `B`, `B as C` → `C`, each of `{…}`; none for a glob. */
function usedNames(node: Node | null): Node[] {
  switch (node?.type) {
    case 'identifier':
      return [node];
    case 'scoped_identifier':
      return usedNames(node.childForFieldName('name'));
    case 'use_as_clause':
      return usedNames(node.childForFieldName('alias'));
    case 'scoped_use_list':
      return usedNames(node.childForFieldName('list'));
    case 'use_list':
      return node.namedChildren.flatMap(usedNames);
    default:
      return [];
  }
}

/** Rust: `pub` items (not `pub(crate)`) and `pub use` re-exports, methods as `Type::method`, outside `#[cfg(test)]` modules. */
function rustExports(root: Node): ExportedName[] {
  const names: ExportedName[] = [];
  for (const item of root.descendantsOfType(Object.keys(RUST_KINDS))) {
    const owner = item && isPub(item) ? rustOwner(item) : null;
    if (!item || owner === null) continue;
    const name = owner ? `${owner}::${nameOf(item)}` : nameOf(item);
    names.push({ name, line: line(item), kind: RUST_KINDS[item.type] ?? 'value' });
  }
  for (const use of root.descendantsOfType('use_declaration')) {
    if (!use || !isPub(use) || rustOwner(use) === null) continue;
    for (const name of usedNames(use.childForFieldName('argument')))
      names.push({ name: name.text, line: line(name), kind: 'value' });
  }
  return names;
}

const LINE_EXPORT =
  /^\s*(?:export\s+(?:default\s+)?(?:async\s+)?|pub\s+|public\s+(?:static\s+|final\s+|abstract\s+)*)(?<kind>function|class|interface|struct|enum|trait|const|let|var|fn|def|object|module)\s+(?<name>\w+)/;

/** Exported names by line rules, for languages without a grammar. */
function lineExports(text: string): ExportedName[] {
  const names: ExportedName[] = [];
  text.split('\n').forEach((source, index) => {
    const groups = LINE_EXPORT.exec(source)?.groups;
    if (!groups?.name) return;
    const kind = /class|interface|struct|enum|trait|object|module/.test(groups.kind ?? '')
      ? 'class'
      : 'function';
    names.push({ name: groups.name, line: index + 1, kind });
  });
  return names;
}

function declaredExports(
  language: LanguageId,
  tree: Tree | null,
  text: string,
  path: string,
): ExportedName[] {
  if (language === 'other' || tree === null) return lineExports(text);
  const root = tree.rootNode;
  switch (language) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return [...jsExports(root), ...commonJsExports(root)];
    case 'python':
      return pythonExports(root, path);
    case 'go':
      return goExports(root);
    case 'java':
      return javaExports(root);
    case 'rust':
      return rustExports(root);
  }
}

/** A leading underscore marks a name internal by convention (`_reset`, `Calc._cache`). */
const isPrivateName = (name: string) => /^_/.test(name.split(/\.|::/).pop() ?? name);

/** The public API one side of a file declares, without the names its convention marks internal. */
export function findExports(
  language: LanguageId,
  tree: Tree | null,
  text: string,
  path = '',
): ExportedName[] {
  return declaredExports(language, tree, text, path).filter((item) => !isPrivateName(item.name));
}

/**
 * A Python module named `_…` is internal to its package. A package directory named so is not: it often
 * holds a library's whole implementation, re-exported by its public package (`_pytest` for `pytest`).
 */
export function isPrivateModule(language: LanguageId, path: string): boolean {
  return language === 'python' && /^_(?!_)/.test(path.split('/').pop() ?? '');
}
