import { revealText } from 'gatehouse-hitl-protocol';
import hljs from 'highlight.js/lib/core';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';

// Only the source languages phase branches commonly hold: each one registered adds to the bundle,
// which has a budget (e2e/budgets.test.ts).
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('python', python);
hljs.registerLanguage('typescript', typescript);

const BY_EXTENSION: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  json: 'json',
  py: 'python',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
};

/** The registered language of a file, by its extension; null when none fits. */
export function languageOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? null : (BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null);
}

/**
 * One line as highlight.js's escaped HTML, or null to show it as plain text: no language, or a
 * line with hidden characters, which the plain view marks by their codes instead.
 */
export function highlightLine(language: string | null, text: string): string | null {
  if (language === null || text === '' || revealText(text, { multiline: true }) !== text) return null;
  return hljs.highlight(text, { language, ignoreIllegals: true }).value;
}
