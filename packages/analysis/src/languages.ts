import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import type { LanguageId } from './types.js';

const require = createRequire(import.meta.url);

/** The grammar package and wasm file of each parsed language. */
const GRAMMARS: Record<Exclude<LanguageId, 'other'>, string> = {
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript/tree-sitter-javascript.wasm',
  python: 'tree-sitter-python/tree-sitter-python.wasm',
  go: 'tree-sitter-go/tree-sitter-go.wasm',
  java: 'tree-sitter-java/tree-sitter-java.wasm',
  rust: 'tree-sitter-rust/tree-sitter-rust.wasm',
};

const EXTENSIONS: Record<string, LanguageId> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  go: 'go',
  java: 'java',
  rs: 'rust',
};

/** The language of a file by its extension; `other` for everything else. */
export function languageOf(path: string): LanguageId {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return EXTENSIONS[extension] ?? 'other';
}

let ready: Promise<void> | null = null;
const languages = new Map<LanguageId, Promise<Language>>();

function loadLanguage(id: Exclude<LanguageId, 'other'>): Promise<Language> {
  let loading = languages.get(id);
  if (!loading) {
    ready ??= Parser.init();
    loading = ready.then(() => Language.load(require.resolve(GRAMMARS[id])));
    languages.set(id, loading);
  }
  return loading;
}

/** A parser per language, made once per process (loading a grammar takes tens of milliseconds). */
const parsers = new Map<LanguageId, Parser>();

/**
 * Parses source text with the language's grammar; null for `other`. Tree-sitter recovers from
 * syntax errors, so fragments (a diff's hunks) parse too, with `hasError` set.
 */
export async function parseSource(id: LanguageId, text: string): Promise<Tree | null> {
  if (id === 'other') return null;
  let parser = parsers.get(id);
  if (!parser) {
    const language = await loadLanguage(id);
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(id, parser);
  }
  return parser.parse(text);
}

/** Loads every grammar now, so the first analysis does not pay for it (a server does this at start). */
export async function warmUp(): Promise<void> {
  await Promise.all((Object.keys(GRAMMARS) as Exclude<LanguageId, 'other'>[]).map((id) => loadLanguage(id)));
}
