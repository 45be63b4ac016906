import { buildBriefing, type Gate } from 'gatehouse-hitl-core';
import type { GateDocument } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { pendingMessage } from '../slack/slack-message.js';
import { renderEmail } from './email/email-render.js';

function finding(n: number) {
  return {
    kind: 'test_removed',
    pattern: 'test.removed',
    file: `src/cart${n}.test.ts`,
    line: 10 + n,
    message: `Test "case ${n}" was removed.`,
    hunk: `@@ -${10 + n},1 +${10 + n},0 @@\n-it('case ${n}')`,
  };
}

function destructiveGate(count: number): GateDocument {
  return {
    id: 'gate_1',
    type: 'destructive_action',
    status: 'pending',
    threshold: 'mandatory',
    risk: 'high',
    runId: 'run_1',
    agentId: 'agent_1',
    title: 'Destructive change: tests removed',
    action: null,
    payloadHash: 'h',
    context: {
      actionType: 'test_deletion',
      testsRemoved: count,
      coverageDelta: 0,
      coverageReported: false,
      findings: Array.from({ length: count }, (_, n) => finding(n + 1)),
    },
    artifacts: [],
    options: [],
    confidence: null,
    createdAt: 0,
    timeoutAt: null,
    timeoutAction: 'deny',
    escalationChain: [],
    minRole: 'developer',
    requiredApprovals: 1,
    approvals: [],
    separationOfDuties: false,
    requestedBy: 'agent_1',
    assignees: [],
    signatureRequired: false,
    steerable: true,
    editable: false,
    policyRuleId: null,
    decision: null,
  } as unknown as GateDocument;
}

const FIRST_FIVE = [1, 2, 3, 4, 5].map((n) => `src/cart${n}.test.ts:${10 + n} test.removed`);

describe('change-analysis findings in notification summaries', () => {
  it('lists the findings in Slack with file:line, the first five then how many more', () => {
    const message = pendingMessage(
      destructiveGate(7),
      { agentName: null, briefing: null },
      'http://gh/gates/gate_1',
    );
    const texts = (message.blocks as { text?: { text: string } }[]).map((block) => block.text?.text ?? '');
    const findings = texts.find((text) => text.startsWith('*Findings:*')) ?? '';
    for (const place of FIRST_FIVE) expect(findings).toContain(place);
    expect(findings).not.toContain('src/cart6.test.ts');
    expect(findings).toContain('and 2 more');
  });

  it('lists the findings in the email’s text and HTML with file:line, bounded', () => {
    const notice = {
      notificationId: 'n_1',
      trigger: 'gate.opened' as const,
      gate: destructiveGate(7),
      recipient: { userId: 'u_1', email: 'dana@example.com' },
      previousRef: null,
      gateUrl: 'http://gh/gates/gate_1',
    };
    const briefing = buildBriefing(notice.gate as unknown as Gate);
    const email = renderEmail(notice as Parameters<typeof renderEmail>[0], briefing, []);
    for (const place of FIRST_FIVE) {
      expect(email.text).toContain(`- ${place}`);
      expect(email.html).toContain(place);
    }
    expect(email.text).toContain('- and 2 more');
    expect(email.text).not.toContain('src/cart6.test.ts');
    expect(email.subject).toContain('no coverage sent');
    expect(email.subject).not.toMatch(/coverage [+-]?0%/);
  });

  it('adds no findings block to a gate without findings', () => {
    const gate = { ...destructiveGate(0), type: 'tool_call', context: {} } as GateDocument;
    const message = pendingMessage(gate, { agentName: null, briefing: null }, 'http://gh/gates/gate_1');
    expect(JSON.stringify(message.blocks)).not.toContain('Findings');
  });
});
