import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate, insertTestRun, useTestPolicy } from '../testing/gates.js';
import { emailNotifications, mailAbout, techLeadChoosesEmail } from '../testing/notice-mail.js';
import { startSmtpInbox } from '../testing/smtp-inbox.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const DAY = 86_400_000;

const POLICY = `name: autonomy-tests
defaultAction: gate
rules: []
trust:
  autonomyMinApprovals: 4
  autonomyMinPeople: 2
  autonomyMinDays: 2
`;

describe.each(dialects)('autonomy proposals on %s', (dialect) => {
  let test: TestApp<ReturnType<typeof createFakeClock>>;
  afterEach(async () => {
    await test?.close();
  });

  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function start(notifications: Record<string, unknown> = {}) {
    test = await createTestApp({
      dialect,
      clock: createFakeClock(Date.UTC(2026, 0, 1)),
      config: { sweepIntervalMs: 3_600_000, ...notifications },
    });
    await useTestPolicy(test, POLICY);
  }

  /** A server that sends email to an inbox, and a tech lead who chose email. */
  async function startWithEmail() {
    const inbox = await startSmtpInbox();
    cleanup.push(() => inbox.close());
    await start(emailNotifications(inbox.url));
    expect(await techLeadChoosesEmail(test)).toBe(200);
    return inbox;
  }

  function request(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) {
    return test.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  }

  /** Opens a phase review of a fresh run of the test agent and answers it. */
  async function review(token: string, body: Record<string, unknown>): Promise<string> {
    const run = await insertTestRun(test);
    const gate = await test.services.gates.open({
      type: 'phase_review',
      runId: run.id,
      agentId: test.ids.agentId,
      requestedBy: `agent:${test.ids.agentId}`,
      operation: 'phase 1 (strategic) is ready for review',
    });
    test.clock.advance(60_000);
    const decided = await decideTestGate(test, token, gate.id, body);
    expect(decided.statusCode, decided.body).toBe(200);
    return gate.id;
  }

  /** Four approved phase reviews by two people over three days. */
  async function earnAutonomy(): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(
        await review(i % 2 === 0 ? test.tokens.developer : test.tokens.techLead, { option: 'approve' }),
      );
      test.clock.advance(DAY);
    }
    return ids;
  }

  async function autonomyProposals(status = 'proposed') {
    const listed = await request('GET', `/v1/trust/proposals?status=${status}`, test.tokens.viewer);
    expect(listed.statusCode, listed.body).toBe(200);
    return listed.json().proposals.filter((p: { kind: string }) => p.kind === 'autonomy');
  }

  async function autonomyOfAgent() {
    return (await test.store.read((tx) => tx.getAgent(test.ids.agentId)))?.autonomy;
  }

  it('proposes one level up from approved phase reviews, with its evidence', async () => {
    await start();
    const ids = await earnAutonomy();
    const [proposal, ...rest] = await autonomyProposals();
    expect(rest).toEqual([]);
    expect(proposal).toMatchObject({
      kind: 'autonomy',
      agentId: test.ids.agentId,
      tool: '',
      autonomy: { from: 'partial', to: 'review' },
      description: `agent ${test.ids.agentId} autonomy: partial → review`,
      status: 'proposed',
      evidence: { approvals: 4, spanDays: 3, medianDecisionMs: 60_000 },
      replay: { wouldAllow: 4, rejected: 0, steered: 0 },
    });
    expect(proposal.evidence.people).toHaveLength(2);
    expect([...proposal.replay.gateIds].sort()).toEqual([...ids].sort());
    expect((await autonomyProposals())[0].id).toBe(proposal.id);
  });

  it('makes no proposal after a phase review with changes requested, nor for a pinned agent', async () => {
    await start();
    await earnAutonomy();
    await review(test.tokens.developer, { option: 'request_changes', feedback: 'split the migration' });
    expect(await autonomyProposals()).toEqual([]);

    await test.close();
    await start();
    await test.services.agents.setAutonomy(test.ids.adminId, test.ids.agentId, 'partial');
    await earnAutonomy();
    expect(await autonomyProposals()).toEqual([]);
  });

  it('a tech lead accepts: the agent moves up one level, audited with the evidence', async () => {
    await start();
    await earnAutonomy();
    const [proposal] = await autonomyProposals();
    const refused = await request(
      'POST',
      `/v1/trust/proposals/${proposal.id}/accept`,
      test.tokens.developer,
      {},
    );
    expect(refused.statusCode).toBe(403);
    const withScope = await request(
      'POST',
      `/v1/trust/proposals/${proposal.id}/accept`,
      test.tokens.techLead,
      {
        days: 3,
      },
    );
    expect(withScope.statusCode).toBe(400);
    const accepted = await request(
      'POST',
      `/v1/trust/proposals/${proposal.id}/accept`,
      test.tokens.techLead,
      {},
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ proposal: { status: 'accepted', kind: 'autonomy' }, rule: null });
    expect(await autonomyOfAgent()).toBe('review');
    const changed = (await test.services.audit.query({ subject: test.ids.agentId })).items.find(
      (e) => e.kind === 'agent.autonomy_changed',
    );
    expect(changed?.data).toMatchObject({
      from: null,
      to: 'review',
      proposalId: proposal.id,
      evidence: { approvals: 4 },
    });
    const audited = (await test.services.audit.query({ subject: proposal.id })).items.map((e) => e.kind);
    expect(audited).toEqual(['trust.proposed', 'trust.accepted']);
    // The level the ramp set is not a pin, but review is the highest level proposed.
    expect(await autonomyProposals()).toEqual([]);
  });

  it('a later rejected phase review sets the agent back and revokes the proposal', async () => {
    await start();
    await earnAutonomy();
    const [proposal] = await autonomyProposals();
    await request('POST', `/v1/trust/proposals/${proposal.id}/accept`, test.tokens.techLead, {});
    expect(await autonomyOfAgent()).toBe('review');
    const rejected = await review(test.tokens.developer, { option: 'reject', reason: 'skipped the tests' });
    expect(await autonomyOfAgent()).toBeNull();
    const [revoked] = await autonomyProposals('revoked');
    expect(revoked).toMatchObject({ id: proposal.id, status: 'revoked' });
    expect(revoked.revokedReason).toContain(rejected);
    const events = (await test.services.audit.query({ subject: proposal.id })).items;
    expect(events.find((e) => e.kind === 'trust.autonomy_revoked')?.data).toMatchObject({
      from: 'review',
      to: null,
      gateId: rejected,
      notify: [`user:${test.ids.techLeadId}`],
    });
  });

  it('tells the person who accepted an autonomy step by email when a steered phase review revokes it', async () => {
    const inbox = await startWithEmail();
    await earnAutonomy();
    const [proposal] = await autonomyProposals();
    await request('POST', `/v1/trust/proposals/${proposal.id}/accept`, test.tokens.techLead, {});
    const steered = await review(test.tokens.developer, {
      option: 'steer',
      instructions: 'write the tests first',
    });
    const mail = await mailAbout(
      inbox,
      /An autonomy change you accepted was revoked: agent \S+ partial to review/,
    );
    expect(mail.to).toContain('lead@example.test');
    expect(mail.text).toContain(`gate ${steered}`);
    expect(await autonomyOfAgent()).toBeNull();
  });

  it('dismissing an autonomy proposal works as for a scope', async () => {
    await start();
    await earnAutonomy();
    const [proposal] = await autonomyProposals();
    const dismissed = await request('POST', `/v1/trust/proposals/${proposal.id}/dismiss`, test.tokens.admin, {
      reason: 'not yet',
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(await autonomyProposals()).toEqual([]);
    expect(await autonomyOfAgent()).toBeNull();
  });
});
