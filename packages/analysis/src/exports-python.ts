import type { Node } from 'web-tree-sitter';
import type { ExportedName } from './exports.js';

const line = (node: Node) => node.startPosition.row + 1;

/** The names `__all__` lists (`=` and `+=` at module level) with their lines; null when it is not declared. */
function listedInAll(root: Node): Map<string, number> | null {
  let listed: Map<string, number> | null = null;
  for (const assignment of root.descendantsOfType(['assignment', 'augmented_assignment'])) {
    if (assignment?.startPosition.column !== 0 || assignment.childForFieldName('left')?.text !== '__all__')
      continue;
    if (assignment.type === 'assignment' || listed === null) listed = new Map();
    for (const string of assignment.childForFieldName('right')?.descendantsOfType('string') ?? []) {
      const name = /^[rbuf]*['"]([\w.]+)['"]$/i.exec(string?.text ?? '')?.[1];
      if (string && name && !listed.has(name)) listed.set(name, line(string));
    }
  }
  return listed;
}

/** Top-level functions and classes, by name. */
function definitions(root: Node): Map<string, ExportedName> {
  const found = new Map<string, ExportedName>();
  for (const type of ['function_definition', 'class_definition'] as const) {
    for (const definition of root.descendantsOfType(type)) {
      if (!definition) continue;
      const holder = definition.parent?.type === 'decorated_definition' ? definition.parent : definition;
      if (holder.startPosition.column !== 0) continue;
      const name = definition.childForFieldName('name')?.text ?? '';
      found.set(name, {
        name,
        line: line(definition),
        kind: type === 'class_definition' ? 'class' : 'function',
      });
    }
  }
  return found;
}

/** `src/geo/__init__.py` → `geo`; null for a module that is not a package's `__init__.py`. */
function packageOf(path: string): string | null {
  const parts = path.split('/');
  return parts.at(-1) === '__init__.py' ? (parts.at(-2) ?? null) : null;
}

/**
 * What a package's `__init__.py` imports from its own modules (`from .shapes import Circle`,
 * `from geo.units import metre as m`): the names its users import from the package.
 */
function packageImports(root: Node, pkg: string): ExportedName[] {
  const names: ExportedName[] = [];
  for (const statement of root.namedChildren) {
    if (statement?.type !== 'import_from_statement') continue;
    const from = statement.childForFieldName('module_name')?.text ?? '';
    if (!(from.startsWith('.') || from === pkg || from.startsWith(`${pkg}.`))) continue;
    for (const imported of statement.childrenForFieldName('name')) {
      const name = imported?.type === 'aliased_import' ? imported.childForFieldName('alias') : imported;
      if (name) names.push({ name: name.text, line: line(name), kind: 'value' });
    }
  }
  return names;
}

/**
 * Python: the names `__all__` lists when the module declares it; otherwise its top-level functions and
 * classes, and in a package's `__init__.py` what it imports from its own modules.
 */
export function pythonExports(root: Node, path: string): ExportedName[] {
  const defined = definitions(root);
  const listed = listedInAll(root);
  if (listed) {
    return [...listed].map(([name, at]) => defined.get(name) ?? { name, line: at, kind: 'value' });
  }
  const pkg = packageOf(path);
  return [...defined.values(), ...(pkg === null ? [] : packageImports(root, pkg))];
}
