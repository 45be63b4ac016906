import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspace, runCodingAgent, type Workspace } from 'gatehouse-hitl/demo';
import { Gatehouse } from 'gatehouse-hitl-sdk';
import { type Json, type LiveServer, startLiveServer } from 'gatehouse-hitl-sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let server: LiveServer;
let workspace: Workspace;

beforeEach(async () => {
  server = await startLiveServer();
  workspace = await createWorkspace();
});

afterEach(async () => {
  await workspace.close();
  await server.close();
});

/** A reviewer who answers every gate as it arrives, by a rule per gate. */
function reviewer(answer: (gate: Json) => Record<string, unknown>): { seen: Json[]; stop(): void } {
  const seen: Json[] = [];
  let running = true;
  void (async () => {
    while (running) {
      const { body } = await server.call(server.test.tokens.developer, 'GET', '/v1/gates?status=pending');
      for (const gate of body?.items ?? []) {
        seen.push(gate);
        await server.decide(gate.id, answer(gate));
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return { seen, stop: () => (running = false) };
}

describe('the scripted coding agent', () => {
  it('asks before each step and goes on with each answer', { timeout: 60_000 }, async () => {
    let reviews = 0;
    const person = reviewer((gate) => {
      const args = gate.action?.args ?? {};
      if (gate.type === 'phase_review' && reviews++ === 0) {
        return { option: 'request_changes', feedback: 'handle empty titles too' };
      }
      if (args.path === 'test/slugify.test.js')
        return { option: 'steer', instructions: 'name it slugify.spec.js' };
      if (args.command === 'rm -rf build') return { option: 'reject', reason: 'keep the build for now' };
      return { option: 'approve' };
    });
    const lines: string[] = [];
    const gate = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
    try {
      const outcomes = await runCodingAgent({ gate, workspace, log: (line) => lines.push(line) });
      expect(outcomes).toEqual({
        read: 'approved',
        intent: 'approved',
        plan: 'request_changes',
        replan: 'approved',
        edit: 'approved',
        'test-file': 'steered',
        tests: 'approved',
        cleanup: 'denied',
        confidence: 'approved',
        review: 'approved',
      });
    } finally {
      person.stop();
    }
    expect(person.seen.map((g) => g.type)).toEqual([
      'intent_approval',
      'phase_review',
      'phase_review',
      'tool_call',
      'tool_call',
      'tool_call',
      'tool_call',
      'confidence_threshold',
      'phase_review',
    ]);
    expect(readFileSync(join(workspace.dir, 'src/slugify.js'), 'utf8')).toContain('export function slugify');
    expect(existsSync(join(workspace.dir, 'test/slugify.test.js'))).toBe(false);
    expect(existsSync(join(workspace.dir, 'build/bundle.js'))).toBe(true);
    const output = lines.join('\n');
    expect(output).toMatch(/feedback: handle empty titles too/);
    expect(output).toMatch(/instructions: name it slugify.spec.js/);
    expect(output).toMatch(/ran `npm test`: exit 0/);
    expect(output).toMatch(/denied by user_dev \| reason: keep the build for now/);
    // Each phase is a pushed branch: the plan answered on -rev-2, the final review squash-merged.
    expect(output).toMatch(/pushed phase-1-strategic-rev-2 at [0-9a-f]{8}/);
    expect(output).toMatch(
      /pushed phase-2-tactical at [0-9a-f]{8}[\s\S]*squash-merged into main as [0-9a-f]{8}/,
    );
  });

  it('stops when a person stops the run', { timeout: 30_000 }, async () => {
    const gate = new Gatehouse({ url: server.url, token: server.test.tokens.agent });
    const lines: string[] = [];
    const running = runCodingAgent({ gate, workspace, log: (line) => lines.push(line) });
    const intent = await server.pendingGate('&type=intent_approval');
    await server.decide(intent.id, { option: 'approve' });
    const review = await server.pendingGate('&type=phase_review');
    await server.call(server.test.tokens.developer, 'POST', `/v1/runs/${review.runId}/interventions`, {
      kind: 'stop',
    });
    await expect(running).rejects.toThrow(/cancelled|stopped/);
    expect(lines.join('\n')).toMatch(/cancelled by|intervention stop/);
    expect(existsSync(join(workspace.dir, 'src/slugify.js'))).toBe(false);
  });
});
