import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let axeSource: string | null = null;

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Runs axe-core (WCAG 2.2 A/AA, target size included) on the page as it is now and fails, naming each rule and element,
 * when it finds a serious or critical violation (with `strict`, any violation at all).
 */
export async function expectAccessible(
  page: Page,
  screen: string,
  options: { strict?: boolean } = {},
): Promise<void> {
  axeSource ??= readFileSync(require.resolve('axe-core'), 'utf8');
  // Evaluated through the DevTools protocol: the app's CSP forbids inline <script> tags, rightly.
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<unknown> } }).axe;
    const result = (await axe.run(document, { runOnly: { type: 'tag', values: tags } })) as {
      violations: Violation[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, WCAG_TAGS);
  const blocking = options.strict
    ? violations
    : violations.filter((v) => v.impact !== null && BLOCKING.has(v.impact));
  if (blocking.length === 0) return;
  const lines = blocking.flatMap((v) => [
    `${v.impact} ${v.id}: ${v.help}`,
    ...v.nodes.slice(0, 5).map((n) => `    at ${JSON.stringify(n.target)} — ${n.failureSummary ?? ''}`),
  ]);
  const what = options.strict ? 'problem(s)' : 'serious or critical problem(s)';
  throw new Error(`axe found ${blocking.length} ${what} on ${screen}:\n${lines.join('\n')}`);
}
