import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { launchChromium, openContext } from './browser.js';
import { DemoServeProcess } from './demo-process.js';
import { eventually } from './eventually.js';
import { UI_DIST } from './harness.js';

// `npm start`: `gatehouse serve --demo`, its scripted agent in the server's process, its first-start link.
let server: DemoServeProcess;
let browser: Browser;
let page: Page;
let session = '';
let dataDir = '';
const pageErrors: string[] = [];
const seen: string[] = [];

// biome-ignore lint/suspicious/noExplicitAny: test-only view of response bodies
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${session}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Fails with the page's address and what the server and its demo agent printed, so a stuck flow says where it was. */
async function step(what: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const printed = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('demo-agent |'));
    throw new Error(`${what} (at ${page.url()}): ${(error as Error).message}\n${printed.join('\n')}`, {
      cause: error,
    });
  }
}

/** The demo agent's next pending gate of `type` not seen before. */
async function nextGate(type: string): Promise<{ id: string; runId: string }> {
  return eventually(
    async () => {
      const stopped = /the demo agent stopped: .*/.exec(server.output());
      if (stopped) throw new Error(stopped[0]);
      const { items } = await api('GET', `/v1/gates?status=pending&type=${type}`);
      const gate = items.find((candidate: { id: string }) => !seen.includes(candidate.id));
      if (gate !== undefined) seen.push(gate.id);
      return gate;
    },
    { timeoutMs: 30_000, what: `the demo agent's ${type} gate` },
  );
}

const approve = (gateId: string) => api('POST', `/v1/gates/${gateId}/decide`, { option: 'approve' });
/** A line the branch adds, as the diff table names its cell. */
const added = (text: string) => page.getByRole('cell', { name: `added: ${text}`, exact: true });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-demo-'));
  server = await DemoServeProcess.start(join(dataDir, 'data'), { GATEHOUSE_UI_DIR: UI_DIST });
  browser = await launchChromium();
  const opened = await openContext(browser, server.url);
  page = opened.page;
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  // A new user's first step: the link `npm start` printed.
  const link = new URL(server.loginLink);
  await page.goto(`${link.pathname}${link.hash}`);
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  session =
    (await opened.context.cookies()).find((cookie) => cookie.name === 'gatehouse_session')?.value ?? '';
}, 60_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
  expect(pageErrors).toEqual([]);
});

/** The line a person adds to the agent's src/slugify.js before approving it. */
const EDITED_LINE = '// Reviewed: empty titles give an empty slug.';

describe('npm start: the demo agent’s reviews in the browser', () => {
  it('shows the plan at Gate 0: the design and the tasks', async () => {
    const intent = await nextGate('intent_approval');
    await step('the intent gate', async () => {
      await page.goto(`/gates/${intent.id}`);
      const briefing = page.getByRole('region', { name: 'Summary of Action' });
      await briefing.getByText(/^slugify\(title\) in src\/slugify\.js/).waitFor();
      await briefing.getByText('4 atomic tasks, estimated total 2 hours').waitFor();
    });
    await approve(intent.id);
  });

  it('opens the phase 1 review from its gate: the pushed branch, its diff and the plan, axe clean', async () => {
    const gate = await nextGate('phase_review');
    await step('the phase 1 review', async () => {
      await page.goto(`/gates/${gate.id}`);
      await page.getByRole('link', { name: /Open the review/ }).click();
      await page
        .getByRole('heading', { name: 'Review of phase-1-strategic', level: 1 })
        .waitFor({ timeout: 20_000 });
      await page.getByRole('heading', { name: 'Files changed (2)' }).waitFor();
      await page.getByRole('region', { name: 'PLAN.md', exact: true }).waitFor();
      await page.getByRole('region', { name: 'README.md', exact: true }).waitFor();
      for (const line of ['## Design', '## Tasks', '1. Write src/slugify.js (1 h)', '## Post URLs'])
        await added(line).waitFor();
      await expectAccessible(page, 'the demo’s phase 1 review', { strict: true });
    });
  });

  it('approves & merges phase 1 in the browser: a squash commit on main', async () => {
    await step('merging phase 1', async () => {
      await page.getByRole('button', { name: 'Approve & merge' }).click();
      await page.getByText(/Squash-merged into main as/).waitFor();
    });
  });

  it('edits the agent’s write_file before approving it; the agent writes the edit', async () => {
    const write = await nextGate('tool_call');
    await step('editing the write_file', async () => {
      await page.goto(`/gates/${write.id}`);
      await page.getByRole('button', { name: 'Edit & approve' }).click();
      const form = page.getByRole('form', { name: 'Edit the arguments, then approve' });
      const content = form.getByLabel('content');
      await content.fill(`${await content.inputValue()}${EDITED_LINE}\n`);
      await form.getByRole('button', { name: 'Approve edited action' }).click();
      await page.getByRole('region', { name: 'Decision' }).getByText('Approved with edits').waitFor();
    });
  });

  it('shows the edit in the final review, and Approve & merge puts its squash commit on main', async () => {
    for (const type of ['tool_call', 'tool_call', 'tool_call', 'confidence_threshold']) {
      await approve((await nextGate(type)).id);
    }
    const final = await nextGate('phase_review');
    await step('the final review', async () => {
      await page.goto(`/gates/${final.id}`);
      await page.getByRole('link', { name: /Open the review/ }).click();
      await page
        .getByRole('heading', { name: 'Review of phase-2-tactical', level: 1 })
        .waitFor({ timeout: 20_000 });
      await page.getByRole('region', { name: 'src/slugify.js', exact: true }).waitFor();
      await added('export function slugify(title) {').waitFor();
      await added(EDITED_LINE).waitFor();
      await expectAccessible(page, 'the demo’s final review', { strict: true });
      await page.getByRole('button', { name: 'Approve & merge' }).click();
      const notice = page.getByText(/Squash-merged into main as/);
      await notice.waitFor();
      const merge = /as ([0-9a-f]{40})/.exec((await notice.textContent()) ?? '')?.[1];
      const { branches } = await api('GET', `/v1/runs/${final.runId}/workspace`);
      expect(branches).toContainEqual({ name: 'main', head: merge });
    });
  });
});
