import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Specifiers a module loads at run time (type-only imports and exports are erased by the compiler). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      const named = statement.importClause?.namedBindings;
      const allTypes =
        named !== undefined &&
        ts.isNamedImports(named) &&
        statement.importClause?.name === undefined &&
        named.elements.length > 0 &&
        named.elements.every((element) => element.isTypeOnly);
      if (!allTypes) found.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier) {
      found.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return found;
}

/** The packages an entry point loads, following its relative imports through the source tree. */
function packagesLoadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(resolve(src, entry));
  return packages;
}

/** The one package every entry loads: the protocol's rules, without zod. */
const PROTOCOL = 'gatehouse-hitl-protocol/rules';

describe('entry points', () => {
  it('keeps the main entry free of agent framework packages, loading only the protocol rules', () => {
    expect([...packagesLoadedBy('index.ts')]).toEqual([PROTOCOL]);
  });

  it.each([
    ['./ai', 'adapters/ai.ts', [PROTOCOL]],
    ['./openai-agents', 'adapters/openai-agents.ts', [PROTOCOL, '@openai/agents']],
    ['./langgraph', 'adapters/langgraph.ts', [PROTOCOL, '@langchain/langgraph']],
    ['./langchain', 'adapters/langchain.ts', [PROTOCOL, '@langchain/langgraph']],
  ])('exports %s, which loads only its own framework', (subpath, file, expected) => {
    const exported = (pkg.exports as Record<string, Record<string, string>>)[subpath];
    expect(exported?.default).toBe(`./dist/${file.replace(/\.ts$/, '.js')}`);
    expect([...packagesLoadedBy(file)].sort()).toEqual([...expected].sort());
  });

  it('declares every framework as an optional peer dependency', () => {
    const frameworks = ['@langchain/langgraph', '@openai/agents', 'ai', 'langchain'];
    expect(Object.keys(pkg.peerDependencies)).toEqual(frameworks);
    for (const framework of frameworks) {
      expect(pkg.peerDependenciesMeta).toHaveProperty([framework, 'optional'], true);
    }
  });
});
