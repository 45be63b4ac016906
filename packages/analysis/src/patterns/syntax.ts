import type { Node } from 'web-tree-sitter';
import { COMMENT_TYPES } from './tree-index.js';

export function isComment(node: Node): boolean {
  return COMMENT_TYPES.includes(node.type);
}

/** Collapses whitespace so reformatting does not count as a change. */
export function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `normalize` for one line, fast on the common line with no runs of whitespace inside. */
export function normalizeLine(line: string): string {
  const trimmed = line.trim();
  return /\s\s|\t/.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
}

/** The statements of a block, without comments; Go wraps them in a statement list. */
export function blockStatements(block: Node): Node[] {
  const named = block.namedChildren.filter((child): child is Node => child !== null && !isComment(child));
  if (named.length === 1 && named[0]?.type === 'statement_list') {
    return named[0].namedChildren.filter((child): child is Node => child !== null && !isComment(child));
  }
  return named;
}

/** A comment's text without its markers (line, hash and block comment markers, and a block's leading stars). */
export function commentBody(text: string): string {
  return text
    .replace(/^\s*(\/\/+|#+|\/\*+|--)/, '')
    .replace(/\*+\/\s*$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*(?!\/)\s?/, ''))
    .join('\n')
    .trim();
}

/** A number or string literal in source text: `42`, `42u32`, `1.5`, `'ok'`, `"ok"`, `r"ok"`. */
export const LITERAL = String.raw`[rbfuRBFU]?(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\x60[^\x60$]*\x60)|-?\d[\d_]*(?:\.\d+)?(?:[iu](?:8|16|32|64|128|size)|f32|f64|[lLfFdD])?`;

/** The value of a literal's text, comparable across languages (`n:42`, `s:ok`); null when not one. */
export function literalValue(text: string): string | null {
  const quoted = /^[rbfuRBFU]?(["'`])([\s\S]*)\1$/.exec(text);
  if (quoted) return quoted[1] === '`' && quoted[2]?.includes('${') ? null : `s:${quoted[2]}`;
  if (!/^-?\d/.test(text)) return null;
  const number = Number(
    text.replace(/_/g, '').replace(/(?:[iu](?:8|16|32|64|128|size)|f32|f64|[lLfFdD])$/, ''),
  );
  return Number.isFinite(number) ? `n:${number}` : null;
}

/** Every literal value written in a piece of source text. */
export function literalValuesIn(text: string): string[] {
  const values: string[] = [];
  for (const match of text.matchAll(new RegExp(`(?<![\\w.$])(?:${LITERAL})(?![\\w.])`, 'g'))) {
    const value = literalValue(match[0]);
    if (value !== null) values.push(value);
  }
  return values;
}

/** Values too common to mean anything when a function returns them and a test expects them. */
export function isTrivialValue(value: string): boolean {
  return ['n:0', 'n:1', 'n:-1', 's:'].includes(value);
}

/** 1-based line of a node. */
export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/** Text to match literally inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
