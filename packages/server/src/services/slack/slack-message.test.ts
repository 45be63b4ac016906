import { buildBriefing, type Gate } from 'gatehouse-hitl-core';
import type { GateDocument } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { releaseFreeze } from '../../testing/release-freeze-gate.js';
import { headlineOf } from '../gates/gate-headline.js';
import { closedMessage, type MessageFacts, pendingMessage } from './slack-message.js';
import { escapeMrkdwn } from './slack-text.js';

function option(
  id: string,
  outcome: 'approved' | 'rejected' | 'steered',
  requires: ('instructions' | 'reason')[] = [],
) {
  return {
    id,
    label: id[0]?.toUpperCase() + id.slice(1),
    key: id[0] ?? 'x',
    description: `${id} it`,
    ends: true,
    outcome,
    requires,
  };
}

function gate(overrides: Partial<GateDocument> = {}): GateDocument {
  return {
    id: 'gate_1',
    type: 'tool_call',
    status: 'pending',
    threshold: 'conditional',
    risk: 'medium',
    runId: 'run_1',
    agentId: 'agent_1',
    title: 'Delete <!channel> & build/',
    action: { tool: 'delete_file', args: { path: 'build/<@U123>' } },
    payloadHash: 'h',
    context: {},
    artifacts: [],
    options: [
      option('approve', 'approved'),
      option('reject', 'rejected'),
      option('steer', 'steered', ['instructions']),
      { id: 'view', label: 'View', key: 'v', description: 'more', ends: false, requires: [] },
    ],
    confidence: null,
    createdAt: 0,
    timeoutAt: 1_700_000_000_000,
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
    ...overrides,
  };
}

type Block = {
  type: string;
  text?: { type: string; text: string };
  fields?: { text: string }[];
  elements?: Record<string, unknown>[];
};

// What the channel hands the message: the agent's registered name and the briefing the gate's page shows.
function factsOf(document: GateDocument, agentName: string | null): MessageFacts {
  return { agentName, briefing: buildBriefing(document as unknown as Gate, { agent: agentName }) };
}

function headerOf(message: { blocks: unknown[] }): string | undefined {
  const header = blocksOf(message).find((block) => block.type === 'header');
  return header?.text?.text;
}

function blocksOf(message: { blocks: unknown[] }): Block[] {
  return message.blocks as Block[];
}

function buttons(message: { blocks: unknown[] }): Record<string, unknown>[] {
  return blocksOf(message).find((block) => block.type === 'actions')?.elements ?? [];
}

const NO_FACTS: MessageFacts = { agentName: null, briefing: null };

describe('Slack messages', () => {
  it('escapes Slack’s control characters so agent text cannot mention or link', () => {
    expect(escapeMrkdwn('<!channel> & <https://x|y>')).toBe('&lt;!channel&gt; &amp; &lt;https://x|y&gt;');
    const message = pendingMessage(gate(), factsOf(gate(), '<!here> bot'), 'http://gh/gates/gate_1');
    const mrkdwn = JSON.stringify(blocksOf(message).flatMap((block) => block.fields ?? []));
    expect(mrkdwn).toContain('&lt;!here&gt; bot');
    expect(mrkdwn).not.toContain('<!here>');
    // The title and the action are plain_text blocks, which Slack never formats.
    expect(blocksOf(message)[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
  });

  it('leads with the headline the gate’s page leads with, the agent’s own title beside it', () => {
    const tidy = gate({ title: 'Tidy up' });
    const message = pendingMessage(tidy, factsOf(tidy, 'build-bot'), 'u');
    const headline = 'build-bot wants to run delete_file: build/<@U123>';
    expect(blocksOf(message)[0]).toMatchObject({ type: 'header', text: { text: headline } });
    expect(JSON.stringify(blocksOf(message)[1])).toContain("Agent's title: Tidy up");
    expect(message.text).toBe(`Gate waiting for you: ${headline}`);
    const named = gate({ title: 'delete_file' });
    const closed = closedMessage(named, factsOf(named, 'build-bot'), 'u', { text: 'Done' });
    expect(closed.text).toBe(`Done: ${headline}`);
    expect(JSON.stringify(closed.blocks)).not.toContain("Agent's title");
  });

  it('names a gate by the headline rule its page uses, a custom type’s briefing and no briefing alike', () => {
    const custom = gate({ type: 'release_freeze', title: 'budget', context: { version: '2.4.0' } });
    const briefing = buildBriefing(custom as unknown as Gate, { agent: 'build-bot' }, releaseFreeze.briefing);
    expect(briefing.summary).toBe('build-bot wants to release 2.4.0 during the freeze');
    const briefed = pendingMessage(custom, { agentName: 'build-bot', briefing }, 'u');
    expect(headerOf(briefed)).toBe(headlineOf(custom, briefing));
    expect(briefed.text).toBe(`Gate waiting for you: ${headlineOf(custom, briefing)}`);

    const unbriefed = gate({ title: 'Tidy up' });
    const closed = closedMessage(unbriefed, { agentName: 'build-bot', briefing: null }, 'u', {
      text: 'Done',
    });
    expect(headlineOf(unbriefed, null)).toBe('Tidy up');
    expect(headerOf(closed)).toBe(headlineOf(unbriefed, null));
    expect(closed.text).toBe(`Done: ${headlineOf(unbriefed, null)}`);
  });

  it('marks hidden characters and warns about them', () => {
    const hidden = gate({ title: 'rm\u202Efdp.exe' });
    const message = pendingMessage(hidden, factsOf(hidden, null), 'u');
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('⟨U+202E⟩');
    expect(text).toContain('hidden characters');
  });

  it('offers a button per ending option, a modal for steer, a link, and confirms risky approvals', () => {
    const low = buttons(pendingMessage(gate(), NO_FACTS, 'http://gh/gates/gate_1'));
    expect(low.map((button) => button.action_id)).toEqual([
      'gatehouse_decide:approve',
      'gatehouse_decide:reject',
      'gatehouse_modal:steer',
      'gatehouse_open',
    ]);
    expect(JSON.parse(String(low[0]?.value))).toEqual({ gateId: 'gate_1', option: 'approve' });
    expect(low[0]?.confirm).toBeUndefined();
    expect(low[3]?.url).toBe('http://gh/gates/gate_1');
    const high = buttons(pendingMessage(gate({ risk: 'high' }), NO_FACTS, 'u'));
    expect(high[0]?.confirm).toBeDefined();
    const editable = buttons(pendingMessage(gate({ editable: true }), NO_FACTS, 'u'));
    expect(editable.map((button) => button.action_id)).toContain('gatehouse_edit:approve');
  });

  it('gives a signed gate no decision buttons, only the way to the web app', () => {
    const message = pendingMessage(gate({ signatureRequired: true }), NO_FACTS, 'http://gh/gates/gate_1');
    expect(buttons(message).map((button) => button.action_id)).toEqual(['gatehouse_open']);
    expect(JSON.stringify(message.blocks)).toContain('signed decision');
  });

  it('replaces the buttons with the outcome once the gate ended', () => {
    const message = closedMessage(gate({ status: 'approved' }), NO_FACTS, 'u', {
      text: 'approved by ana',
    });
    expect(buttons(message)).toEqual([]);
    expect(JSON.stringify(message.blocks)).toContain('approved by ana');
  });
});
