import { Gatehouse } from 'gatehouse-hitl-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestGatehouse, type TestGatehouse } from './index.js';

const HOUR = 60 * 60 * 1000;

describe('the testing kit', () => {
  let env: TestGatehouse;
  beforeEach(async () => {
    env = await startTestGatehouse();
  });
  afterEach(() => env.close());

  it('answers an agent through a scripted reviewer over real HTTP', async () => {
    const agent = await env.agent('builder');
    const reviewer = await env.reviewer('carol', (gate) =>
      gate.action?.tool === 'delete_file' ? { option: 'approve', reason: 'scripted' } : null,
    );
    const gatehouse = new Gatehouse({ url: env.url, token: agent.token });

    const result = await gatehouse.request({ tool: 'delete_file', args: { path: 'build/' } });

    expect(result.outcome).toBe('approved');
    expect(result.decidedBy).toBe(reviewer.userId);
    expect(reviewer.decisions).toEqual([
      { gateId: result.gateId, body: { option: 'approve', reason: 'scripted' }, refused: null },
    ]);
  });

  it('leaves a gate the script passes on for the next reviewer', async () => {
    const agent = await env.agent('builder');
    const shy = await env.reviewer('dan', () => null);
    const strict = await env.reviewer('erin', () => ({ option: 'reject', reason: 'not today' }));
    const gatehouse = new Gatehouse({ url: env.url, token: agent.token });

    const result = await gatehouse.request({ tool: 'delete_file', args: { path: 'dist/' } });

    expect(result.outcome).toBe('denied');
    expect(result.reason).toBe('not today');
    expect(result.decidedBy).toBe(strict.userId);
    expect(shy.decisions).toEqual([]);
  });

  it('fires a timeout when the test moves the clock past it, not before', async () => {
    const agent = await env.agent('builder');
    const gatehouse = new Gatehouse({ url: env.url, token: agent.token });
    const answer = gatehouse.request({
      tool: 'delete_file',
      args: { path: 'tmp/' },
      timeoutSeconds: 60,
      timeoutAction: 'deny',
    });
    const gate = await env.pendingGate((pending) => pending.action?.tool === 'delete_file');

    await env.advance(59_000);
    expect((await env.pendingGate((pending) => pending.id === gate.id)).status).toBe('pending');
    await env.advance(2_000);

    const result = await answer;
    expect(result.gateId).toBe(gate.id);
    expect(result.decidedBy).toBe('system:timeout');
    expect(result.outcome).not.toBe('approved');
  });

  it('keeps people signed in when the clock runs past their session', async () => {
    const agent = await env.agent('builder');
    const reviewer = await env.reviewer('frank', () => ({ option: 'approve' }));
    const gatehouse = new Gatehouse({ url: env.url, token: agent.token });
    await gatehouse.request({ tool: 'delete_file', args: { path: 'a/' } });

    await env.advance(13 * HOUR);
    const later = await gatehouse.request({ tool: 'delete_file', args: { path: 'b/' } });

    expect(later.outcome).toBe('approved');
    expect(reviewer.decisions.map((decision) => decision.refused)).toEqual([null, null]);
  });
});
