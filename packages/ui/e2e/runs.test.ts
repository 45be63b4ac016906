import { isGatehouseApiError, type RunEvent } from 'gatehouse-hitl-sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y.js';
import { eventually } from './eventually.js';
import { withE2e } from './harness.js';
import { screenshot } from './screenshots.js';

const e2e = withE2e();

/** What the agent hears on its run's event stream, as the SDK delivers it. */
const heard: RunEvent[] = [];
const listening = new AbortController();
let runId = '';
let page: Page;

async function agentHears(kind: string, instruction?: string): Promise<void> {
  await eventually(
    () =>
      heard.some(
        (event) => event.kind === kind && (instruction === undefined || event.instruction === instruction),
      ),
    { what: `the agent hearing ${kind}` },
  );
}

beforeAll(async () => {
  const env = e2e();
  const run = await env.agent.sdk.createRun({ title: 'Nightly dependency upgrade', approvalMode: 'manual' });
  runId = run.id;
  const stream = env.agent.sdk.interventions(runId, { signal: listening.signal });
  void (async () => {
    try {
      for await (const event of stream) heard.push(event);
    } catch {
      // aborted at the end of the file
    }
  })();
  page = await env.pageAs(env.developer);
});

afterAll(() => listening.abort());

describe('runs', () => {
  it('lists the run and opens it', async () => {
    await page.goto('/runs');
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    const link = page.getByRole('link', { name: /Nightly dependency upgrade|run_/ }).first();
    await link.waitFor();
    await expectAccessible(page, 'the runs list');
    await screenshot(page, 'runs');
    await link.click();
    await page.getByRole('heading', { name: /^Run /, level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/runs/${runId}`);
  });

  it('pauses and resumes the run from its screen, and the agent hears both', async () => {
    await page.goto(`/runs/${runId}`);
    await page.getByRole('heading', { name: /^Run /, level: 1 }).waitFor();
    await expectAccessible(page, 'the run screen');
    await screenshot(page, 'run');

    await page.getByRole('button', { name: 'Pause' }).click();
    await agentHears('pause');
    expect((await e2e().agent.sdk.getRun(runId)).status).toBe('paused');
    await page
      .getByText(/paused/i)
      .first()
      .waitFor();

    await page.getByRole('button', { name: 'Resume' }).click();
    await agentHears('resume');
    expect((await e2e().agent.sdk.getRun(runId)).status).toBe('running');
  });

  it('steers the run with an instruction the agent receives verbatim', async () => {
    await page.getByRole('button', { name: 'Steer' }).click();
    await page
      .getByRole('textbox', { name: 'Instructions', exact: true })
      .fill('Skip the major-version upgrades; minor and patch only.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await agentHears('steer', 'Skip the major-version upgrades; minor and patch only.');
  });

  it('stops the run after a confirmation, and the agent hears it and can go no further', async () => {
    await page.getByRole('button', { name: 'Stop' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expectAccessible(page, 'the stop confirmation');
    // Nothing happens before the confirmation.
    expect((await e2e().agent.sdk.getRun(runId)).status).not.toBe('stopped');
    await dialog.getByRole('button', { name: 'Stop run' }).click();

    await agentHears('stop');
    expect((await e2e().agent.sdk.getRun(runId)).status).toBe('stopped');
    await page
      .getByText(/stopped/i)
      .first()
      .waitFor();
    const refused = await e2e()
      .agent.sdk.request({ runId, tool: 'shell_execute', args: { command: 'npm install' } })
      .catch((error: unknown) => error);
    expect(isGatehouseApiError(refused, 'RUN_STOPPED')).toBe(true);
  });
});
