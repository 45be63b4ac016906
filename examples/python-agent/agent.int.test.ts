import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LiveServer, startLiveServer } from 'gatehouse-hitl-sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPython } from '../../packages/sdk-python/testing/python-harness.js';

const agent = fileURLToPath(new URL('./agent.py', import.meta.url));
let server: LiveServer;
let workdir: string;

beforeEach(async () => {
  server = await startLiveServer();
  workdir = mkdtempSync(join(tmpdir(), 'gatehouse-python-agent-'));
  mkdirSync(join(workdir, 'build'));
  writeFileSync(join(workdir, 'build', 'out.js'), 'built\n');
});

afterEach(async () => {
  await server.close();
  rmSync(workdir, { recursive: true, force: true });
});

const start = () =>
  runPython([agent, '--url', server.url, '--token', server.test.tokens.agent, '--workdir', workdir], {
    timeoutMs: 60_000,
  });

/** Gate 0: approves the plan the agent sends before it implements anything, as the developer. */
async function approvePlanOfAgent() {
  const plan = await server.pendingGate('&type=intent_approval');
  expect(plan.action).toMatchObject({ operation: 'Clean up: delete the build folder' });
  expect((await server.decide(plan.id, { option: 'approve' })).status).toBe(200);
  return plan;
}

describe('the Python example agent', () => {
  it('deletes the build folder once a person approves, and hears a steer sent to its run', {
    timeout: 60_000,
  }, async () => {
    const finished = start();
    const plan = await approvePlanOfAgent();
    const gate = await server.pendingGate('&type=tool_call');
    expect(gate.runId).toBe(plan.runId);
    expect(gate.action).toEqual({ tool: 'delete_file', args: { path: 'build' } });
    expect(gate.title).toBe('Delete the build folder');
    expect(existsSync(join(workdir, 'build'))).toBe(true);
    await server.call(server.test.tokens.developer, 'POST', `/v1/runs/${gate.runId}/interventions`, {
      kind: 'steer',
      instruction: 'keep the logs',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await server.decide(gate.id, { option: 'approve' });
    const { code, stdout, stderr } = await finished;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`run ${gate.runId} started`);
    expect(stdout).toContain('read_file README.md: approved by policy');
    expect(stdout).toContain(`waiting for a person to approve the plan on gate ${plan.id}`);
    expect(stdout).toContain(`plan: approved by ${server.test.ids.developerId}`);
    expect(stdout).toContain(`waiting for a person on gate ${gate.id}`);
    expect(stdout).toContain('intervention: steer keep the logs');
    expect(stdout).toContain('deleted build');
    expect(existsSync(join(workdir, 'build'))).toBe(false);
  });

  it('leaves the folder and reports the reason when a person rejects', { timeout: 60_000 }, async () => {
    const finished = start();
    await approvePlanOfAgent();
    const gate = await server.pendingGate('&type=tool_call');
    await server.decide(gate.id, { option: 'reject', reason: 'the build is still needed' });
    const { code, stdout } = await finished;
    expect(code).toBe(1);
    expect(stdout).toContain('not deleted: denied (the build is still needed)');
    expect(existsSync(join(workdir, 'build', 'out.js'))).toBe(true);
  });
});
