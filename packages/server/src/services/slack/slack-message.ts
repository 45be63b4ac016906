import { agentTitleBeside, type Briefing, findingLines, gateFindings } from 'gatehouse-hitl-core';
import type { GateDocument, GateOptionDocument } from 'gatehouse-hitl-protocol';
import { HIDDEN_CHARACTERS_WARNING } from 'gatehouse-hitl-protocol';
import { headlineOf } from '../gates/gate-headline.js';
import { agentText, escapeMrkdwn, plainAgentText, showsHidden } from './slack-text.js';

type Block = Record<string, unknown>;

/** What a decision button carries back: the gate and the option, nothing the server trusts. */
export const DECIDE_ACTION = 'gatehouse_decide';
/** A button that opens the modal for an option needing text. */
export const MODAL_ACTION = 'gatehouse_modal';
/** The Edit button: a modal with the arguments to approve instead. */
export const EDIT_ACTION = 'gatehouse_edit';

/** What the message shows beside the gate itself. */
export interface MessageFacts {
  /** The agent's registered name, shown instead of its id. */
  agentName: string | null;
  /** The Summary of Action the gate's page shows (null when none could be built); its summary is the headline. */
  briefing: Briefing | null;
}

/** How a gate ended (or moved on), for the message that replaces the buttons. */
export interface MessageOutcome {
  text: string;
}

export function buttonValue(gateId: string, option: string): string {
  return JSON.stringify({ gateId, option });
}

const RISKY_OPTIONS = /abort|rollback|delete|merge/;

function isRisky(gate: GateDocument, option: GateOptionDocument): boolean {
  const approves = option.outcome === 'approved' || option.outcome === 'resolved';
  const highRisk = gate.risk === 'high' || gate.risk === 'critical';
  return (approves && highRisk) || RISKY_OPTIONS.test(option.id);
}

/** A deadline Slack shows in the reader's own time zone. */
export function deadlineText(timeoutAt: number | null): string {
  if (timeoutAt === null) return 'none (waits until decided)';
  const seconds = Math.floor(timeoutAt / 1000);
  return `<!date^${seconds}^{date_short_pretty} {time}|${new Date(timeoutAt).toISOString()}>`;
}

function actionText(gate: GateDocument): string {
  if (gate.action === null) return '(no tool call)';
  const what = gate.action.tool ?? gate.action.operation ?? 'action';
  return `${what} ${JSON.stringify(gate.action.args, null, 2)}`;
}

function summaryBlocks(gate: GateDocument, facts: MessageFacts): Block[] {
  const headline = headlineOf(gate, facts.briefing);
  const title = agentTitleBeside(gate, headline);
  const hidden = showsHidden(gate.title) || showsHidden(JSON.stringify([gate.action, gate.context]));
  const fields = [
    `*Risk:* ${escapeMrkdwn(gate.risk)}`,
    `*Type:* ${escapeMrkdwn(gate.type)}`,
    `*Agent:* ${agentText(facts.agentName ?? gate.agentId ?? 'none', 200)}`,
    `*Run:* ${escapeMrkdwn(gate.runId ?? 'none')}`,
    `*Deadline:* ${deadlineText(gate.timeoutAt)}`,
    `*Decided by:* ${escapeMrkdwn(gate.minRole)} or higher`,
  ];
  const blocks: Block[] = [
    { type: 'header', text: { type: 'plain_text', text: plainAgentText(headline, 150), emoji: false } },
    ...(title === null
      ? []
      : [
          {
            type: 'context',
            elements: [{ type: 'plain_text', text: plainAgentText(`Agent's title: ${title}`, 300) }],
          },
        ]),
    { type: 'section', fields: fields.map((text) => ({ type: 'mrkdwn', text })) },
    {
      type: 'section',
      text: { type: 'plain_text', text: plainAgentText(actionText(gate), 2900), emoji: false },
    },
  ];
  const findings = findingLines(gateFindings(gate.context));
  if (findings.length > 0) {
    const text = ['*Findings:*', ...findings.map((line) => `• ${agentText(line, 300)}`)].join('\n');
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text } });
  }
  if (hidden) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `:warning: ${HIDDEN_CHARACTERS_WARNING}` }],
    });
  }
  return blocks;
}

function optionButton(gate: GateDocument, option: GateOptionDocument): Block {
  const needsText = option.requires.length > 0;
  const button: Block = {
    type: 'button',
    action_id: `${needsText ? MODAL_ACTION : DECIDE_ACTION}:${option.id}`,
    text: { type: 'plain_text', text: plainAgentText(needsText ? `${option.label}…` : option.label, 75) },
    value: buttonValue(gate.id, option.id),
  };
  if (option.outcome === 'approved') button.style = 'primary';
  if (option.outcome === 'rejected') button.style = 'danger';
  if (!needsText && isRisky(gate, option)) {
    button.confirm = {
      title: { type: 'plain_text', text: 'Are you sure?' },
      text: { type: 'plain_text', text: plainAgentText(`${option.label}: ${option.description}`, 300) },
      confirm: { type: 'plain_text', text: plainAgentText(option.label, 30) },
      deny: { type: 'plain_text', text: 'Cancel' },
    };
  }
  return button;
}

function linkButton(gateUrl: string): Block {
  return {
    type: 'button',
    action_id: 'gatehouse_open',
    text: { type: 'plain_text', text: 'Open in Gatehouse' },
    url: gateUrl,
  };
}

function decisionBlocks(gate: GateDocument, gateUrl: string): Block[] {
  if (gate.signatureRequired) {
    const note = 'This gate needs a signed decision, which Slack cannot make: decide it in the web app.';
    return [
      { type: 'section', text: { type: 'mrkdwn', text: `:lock: ${note}` } },
      { type: 'actions', elements: [linkButton(gateUrl)] },
    ];
  }
  const buttons = gate.options.filter((option) => option.ends).map((option) => optionButton(gate, option));
  if (gate.editable) {
    buttons.push({
      type: 'button',
      action_id: `${EDIT_ACTION}:approve`,
      text: { type: 'plain_text', text: 'Edit, then approve…' },
      value: buttonValue(gate.id, 'approve'),
    });
  }
  return [
    {
      type: 'actions',
      block_id: `gate:${gate.id}`,
      elements: [...buttons.slice(0, 24), linkButton(gateUrl)],
    },
  ];
}

/** The DM for a pending gate: its Summary of Action and a button per option. */
export function pendingMessage(
  gate: GateDocument,
  facts: MessageFacts,
  gateUrl: string,
): { text: string; blocks: Block[] } {
  return {
    text: `Gate waiting for you: ${plainAgentText(headlineOf(gate, facts.briefing), 200)}`,
    blocks: [...summaryBlocks(gate, facts), ...decisionBlocks(gate, gateUrl)],
  };
}

/** The same message once the gate ended or moved on: the outcome instead of the buttons. */
export function closedMessage(
  gate: GateDocument,
  facts: MessageFacts,
  gateUrl: string,
  outcome: MessageOutcome,
): { text: string; blocks: Block[] } {
  return {
    text: `${outcome.text}: ${plainAgentText(headlineOf(gate, facts.briefing), 200)}`,
    blocks: [
      ...summaryBlocks(gate, facts),
      { type: 'section', text: { type: 'mrkdwn', text: outcome.text } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${gateUrl}|Open in Gatehouse>` }] },
    ],
  };
}
