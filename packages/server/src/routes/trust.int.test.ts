import { createFakeClock } from 'gatehouse-hitl-core';
import { afterEach, describe, expect, it } from 'vitest';
import { decideTestGate, openTestGate, postGate, useTestPolicy } from '../testing/gates.js';
import { emailNotifications, mailAbout, techLeadChoosesEmail } from '../testing/notice-mail.js';
import { startSmtpInbox } from '../testing/smtp-inbox.js';
import { bearer, createTestApp, type TestApp, type TestDialect } from '../testing/test-app.js';

const dialects: TestDialect[] = ['sqlite', 'postgres'];
const DAY = 86_400_000;

// Every tool call waits for a person, so only a learned rule lets one through.
const POLICY = `name: trust-tests
defaultAction: gate
rules: []
trust:
  minApprovals: 6
  minPeople: 2
  minDays: 3
`;

describe.each(dialects)('trust ramp on %s', (dialect) => {
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

  const bash = (command: string) => ({ tool: 'bash', args: { command } });

  async function answer(command: string, option: string, token: string, extra: object = {}) {
    const gateId = await openTestGate(test, bash(command));
    test.clock.advance(3000);
    const decided = await decideTestGate(test, token, gateId, { option, ...extra });
    expect(decided.statusCode, decided.body).toBe(200);
    return gateId;
  }

  /** Six approvals of npm test by two people over five days. */
  async function earnTrust() {
    for (let i = 0; i < 6; i++) {
      await answer('npm test', 'approve', i % 2 === 0 ? test.tokens.developer : test.tokens.techLead);
      test.clock.advance(DAY);
    }
  }

  function request(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
    return test.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  }

  async function onlyProposal() {
    const listed = await request('GET', '/v1/trust/proposals', test.tokens.viewer);
    expect(listed.statusCode, listed.body).toBe(200);
    const { proposals } = listed.json();
    expect(proposals).toHaveLength(1);
    return proposals[0];
  }

  async function outcomeOf(command: string): Promise<string> {
    const response = await postGate(test, bash(command));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().outcome;
  }

  it('proposes npm test from repeated approvals, with its evidence and replay', async () => {
    await start();
    await earnTrust();
    const proposal = await onlyProposal();
    expect(proposal).toMatchObject({
      agentId: test.ids.agentId,
      tool: 'bash',
      scope: { kind: 'prefix', prefix: 'npm test' },
      description: 'bash(npm test:*)',
      status: 'proposed',
      evidence: { approvals: 6, spanDays: 5, medianDecisionMs: 3000 },
      replay: { wouldAllow: 6, rejected: 0, steered: 0, edited: 0, failed: 0 },
    });
    expect(proposal.evidence.people).toHaveLength(2);
    // A second refresh finds the same proposal rather than making another.
    expect((await onlyProposal()).id).toBe(proposal.id);
  });

  it('a rejection of a call only the prefix covers leaves only the exact command to propose', async () => {
    await start();
    await earnTrust();
    await answer('npm test -- --ci', 'reject', test.tokens.developer, { reason: 'not now' });
    expect((await onlyProposal()).scope).toEqual({ kind: 'command', command: 'npm test' });
  });

  it('makes no proposal when a covered call was rejected, or for always-gated calls', async () => {
    await start();
    await earnTrust();
    await answer('npm test', 'reject', test.tokens.developer, { reason: 'not now' });
    for (let i = 0; i < 6; i++) {
      await answer(
        'git push --force origin main',
        'approve',
        i % 2 ? test.tokens.developer : test.tokens.admin,
      );
      test.clock.advance(DAY);
    }
    const listed = await request('GET', '/v1/trust/proposals', test.tokens.viewer);
    expect(listed.json().proposals).toEqual([]);
  });

  it('learns nothing for an agent whose autonomy a person pinned', async () => {
    await start();
    await earnTrust();
    await test.store.transaction((tx) => tx.updateAgentAutonomy(test.ids.agentId, 'guided'));
    const listed = await request('GET', '/v1/trust/proposals', test.tokens.viewer);
    expect(listed.json().proposals).toEqual([]);
  });

  it('lets only a tech lead or admin accept, and only a narrower scope', async () => {
    await start();
    await earnTrust();
    const { id } = await onlyProposal();
    const url = `/v1/trust/proposals/${id}/accept`;
    expect((await request('POST', url, test.tokens.developer, {})).json().error.code).toBe('ROLE_TOO_LOW');
    expect((await request('POST', url, test.tokens.agent, {})).json().error.code).toBe('FORBIDDEN');
    // Agents neither refresh nor read what is being learned about them.
    expect((await request('GET', '/v1/trust/proposals', test.tokens.agent)).json().error.code).toBe(
      'FORBIDDEN',
    );
    const wider = await request('POST', url, test.tokens.techLead, {
      scope: { kind: 'prefix', prefix: 'npm' },
    });
    expect(wider.statusCode).toBe(400);
    expect(wider.json().error.details.field).toBe('scope');
    const bad = await request('POST', url, test.tokens.techLead, { scope: { kind: 'everything' } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().error)).toContain('scope');
    expect(
      (await request('POST', '/v1/trust/proposals/tp_nope/accept', test.tokens.admin, {})).statusCode,
    ).toBe(404);
    expect((await request('POST', '/v1/trust/proposals/nope/accept', test.tokens.admin, {})).statusCode).toBe(
      400,
    );
    expect(await outcomeOf('npm test')).toBe('gated');
  });

  it('accepting writes a policy version and lets covered calls through without a gate', async () => {
    await start();
    await earnTrust();
    const { id } = await onlyProposal();
    const before = (await test.services.policies.get()).version;
    const accepted = await request('POST', `/v1/trust/proposals/${id}/accept`, test.tokens.techLead, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    const { proposal, rule } = accepted.json();
    expect(proposal).toMatchObject({ status: 'accepted', policyVersion: before + 1, ruleId: rule.id });
    expect(rule).toMatchObject({ state: 'active', description: 'bash(npm test:*)' });
    expect(rule.expiresAt).toBe(test.clock.now() + 30 * DAY);
    expect((await test.services.policies.get()).source).toContain(`learned rule ${rule.id}`);
    const audited = (await test.services.audit.query({ subject: id })).items.map((e) => e.kind);
    expect(audited).toEqual(['trust.proposed', 'trust.accepted']);
    expect(await outcomeOf('npm test')).toBe('allowed');
    const explained = (await postGate(test, bash('npm test'))).json();
    expect(explained).toMatchObject({ outcome: 'allowed', ruleId: rule.id });
    expect(explained.reason).toBe(
      `a learned rule allows calls like this one: people approved them repeatedly and the proposal was accepted (rule ${rule.id})`,
    );
    expect(await outcomeOf('npm test -- --watch')).toBe('allowed');
    expect(await outcomeOf('npm publish')).toBe('gated');
    expect(await outcomeOf('npm test && rm -rf /')).toBe('gated');
    const again = await request('POST', `/v1/trust/proposals/${id}/accept`, test.tokens.admin, {});
    expect(again.json().error.code).toBe('INVALID_TRANSITION');
    // Another agent's calls are not covered.
    const other = await postGate(test, bash('npm test'), { token: test.tokens.otherAgent });
    expect(other.json().outcome).toBe('gated');
  });

  it('a narrowed scope covers only what was narrowed to', async () => {
    await start();
    await earnTrust();
    const { id } = await onlyProposal();
    const accepted = await request('POST', `/v1/trust/proposals/${id}/accept`, test.tokens.admin, {
      scope: { kind: 'command', command: 'npm test' },
      days: 7,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await outcomeOf('npm test')).toBe('allowed');
    expect(await outcomeOf('npm test -- --watch')).toBe('gated');
    test.clock.advance(7 * DAY);
    expect(await outcomeOf('npm test')).toBe('gated');
    const rules = await request('GET', '/v1/trust/rules?includeEnded=true', test.tokens.viewer);
    expect(rules.json().rules.map((r: { state: string }) => r.state)).toEqual(['expired']);
    expect((await request('GET', '/v1/trust/rules', test.tokens.viewer)).json().rules).toEqual([]);
  });

  it('a rejection of a covered call revokes the learned rule at once and tells who accepted it', async () => {
    await start();
    await earnTrust();
    const pending = await openTestGate(test, bash('npm test -- --bail'));
    const { id } = await onlyProposal();
    const accepted = await request('POST', `/v1/trust/proposals/${id}/accept`, test.tokens.techLead, {});
    const ruleId = accepted.json().rule.id;
    expect(await outcomeOf('npm test')).toBe('allowed');
    const rejected = await decideTestGate(test, test.tokens.developer, pending, {
      option: 'reject',
      reason: 'broke CI',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await outcomeOf('npm test')).toBe('gated');
    const rules = (await request('GET', '/v1/trust/rules?includeEnded=true', test.tokens.viewer)).json()
      .rules;
    expect(rules).toMatchObject([
      { id: ruleId, state: 'revoked', revokedBy: `user:${test.ids.developerId}` },
    ]);
    expect(rules[0].revokedReason).toContain(pending);
    const events = (await test.services.audit.query({ subject: ruleId })).items;
    const revoked = events.find((e) => e.kind === 'trust.rule_revoked');
    expect(revoked?.data).toMatchObject({ gateId: pending, notify: [`user:${test.ids.techLeadId}`] });
  });

  it('tells the person who accepted a rule by email when a rejection revokes it', async () => {
    const inbox = await startWithEmail();
    await earnTrust();
    const pending = await openTestGate(test, bash('npm test -- --bail'));
    const { id } = await onlyProposal();
    const accepted = await request('POST', `/v1/trust/proposals/${id}/accept`, test.tokens.techLead, {});
    const ruleId = accepted.json().rule.id;
    await decideTestGate(test, test.tokens.developer, pending, { option: 'reject', reason: 'broke CI' });
    const mail = await mailAbout(inbox, /A learned rule you accepted was revoked: bash\(npm test:\*\)/);
    expect(mail.to).toContain('lead@example.test');
    expect(mail.text).toContain(ruleId);
    expect(mail.text).toContain(`gate ${pending}`);
  });

  it('a person may revoke a learned rule or report it harmful; agents may not', async () => {
    await start();
    await earnTrust();
    const { id } = await onlyProposal();
    const { rule } = (
      await request('POST', `/v1/trust/proposals/${id}/accept`, test.tokens.admin, {})
    ).json();
    const harmful = `/v1/trust/rules/${rule.id}/harmful`;
    expect((await request('POST', harmful, test.tokens.agent, {})).json().error.code).toBe('FORBIDDEN');
    expect(
      (await request('POST', `/v1/trust/rules/${rule.id}/revoke`, test.tokens.developer, {})).statusCode,
    ).toBe(403);
    const reported = await request('POST', harmful, test.tokens.developer, { reason: 'deleted fixtures' });
    expect(reported.statusCode, reported.body).toBe(200);
    expect(reported.json().rule).toMatchObject({
      state: 'revoked',
      revokedReason: 'reported harmful: deleted fixtures',
    });
    expect(await outcomeOf('npm test')).toBe('gated');
    const twice = await request('POST', `/v1/trust/rules/${rule.id}/revoke`, test.tokens.admin, {});
    expect(twice.json().error.code).toBe('INVALID_TRANSITION');
    expect(
      (await request('POST', '/v1/trust/rules/rule_nope/revoke', test.tokens.admin, {})).statusCode,
    ).toBe(404);
  });

  it('a dismissed proposal stays dismissed on refresh', async () => {
    await start();
    await earnTrust();
    const { id } = await onlyProposal();
    const dismissed = await request('POST', `/v1/trust/proposals/${id}/dismiss`, test.tokens.techLead, {
      reason: 'tests touch the network',
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json().proposal.status).toBe('dismissed');
    expect((await request('GET', '/v1/trust/proposals', test.tokens.viewer)).json().proposals).toEqual([]);
    const all = (await request('GET', '/v1/trust/proposals?status=all', test.tokens.viewer)).json().proposals;
    expect(all.map((p: { status: string }) => p.status)).toEqual(['dismissed']);
    const bad = await request('GET', '/v1/trust/proposals?status=maybe', test.tokens.viewer);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('status');
  });
});
