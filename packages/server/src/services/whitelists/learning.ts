import type { FileChange, Finding } from 'gatehouse-hitl-analysis';

/** Token-set similarity at or above which a finding looks like a confirmed false positive. */
export const SIMILARITY_THRESHOLD = 0.8;
/** What a similar confirmed example multiplies a finding's confidence by. */
export const LEARNED_CONFIDENCE_FACTOR = 0.5;
/** Lines each side of the finding's line that make its snippet. */
const CONTEXT_LINES = 2;

const TOKEN = /[A-Za-z_$][A-Za-z0-9_$]*|\d+(?:\.\d+)?|[^\sA-Za-z0-9_$]/g;

/** The snippet's tokens joined by one space: layout and indentation do not count. */
export function normaliseSnippet(text: string): string {
  return (text.match(TOKEN) ?? []).join(' ');
}

/** |A ∩ B| / |A ∪ B| over the two texts' token sets; 1 for two empty texts. */
export function tokenJaccard(a: string, b: string): number {
  const left = new Set(normaliseSnippet(a).split(' ').filter(Boolean));
  const right = new Set(normaliseSnippet(b).split(' ').filter(Boolean));
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const token of left) if (right.has(token)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/** The normalised lines around the finding, from the side of the change it points at. */
export function snippetOf(
  files: readonly FileChange[],
  finding: Pick<Finding, 'file' | 'line' | 'kind'>,
): string {
  const file = files.find((candidate) => candidate.path === finding.file);
  if (file === undefined) return '';
  const removal = finding.kind.endsWith('_removed') || file.after === null;
  const text = (removal ? file.before : file.after) ?? file.after ?? file.before ?? '';
  const lines = text.split('\n');
  if (finding.line === null) return normaliseSnippet(lines.slice(0, 2 * CONTEXT_LINES + 1).join('\n'));
  const at = finding.line - 1;
  return normaliseSnippet(lines.slice(Math.max(0, at - CONTEXT_LINES), at + CONTEXT_LINES + 1).join('\n'));
}

/**
 * The finding's confidence after learning: halved when its snippet is similar (token Jaccard ≥ 0.8)
 * to an example people confirmed as legitimate for the same pattern, unchanged otherwise.
 * @example learnedConfidence(0.9, 'try { a() } catch {}', ['try { b() } catch {}']) // 0.45 when similar enough
 */
export function learnedConfidence(confidence: number, snippet: string, examples: readonly string[]): number {
  if (snippet === '') return confidence;
  const similar = examples.some((example) => tokenJaccard(snippet, example) >= SIMILARITY_THRESHOLD);
  return similar ? confidence * LEARNED_CONFIDENCE_FACTOR : confidence;
}
