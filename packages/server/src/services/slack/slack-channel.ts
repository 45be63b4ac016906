import { createGateCatalog, type Gate, type GateCatalog, hasRole, type Role } from 'gatehouse-hitl-core';
import type { GateDocument } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import { briefingOf } from '../gates/gate-headline.js';
import type { ChannelDelivery, GateNotice, NotificationChannel } from '../notifications/channel.js';
import { createSlackApi, type SlackApi } from './slack-api.js';
import {
  closedMessage,
  deadlineText,
  type MessageFacts,
  type MessageOutcome,
  pendingMessage,
} from './slack-message.js';
import { escapeMrkdwn } from './slack-text.js';

/** A sent message, as Slack names it: the DM channel and the message's timestamp. */
export function slackRef(channel: string, ts: string): string {
  return `${channel}:${ts}`;
}

function parseRef(ref: string | null): { channel: string; ts: string } | null {
  const match = ref === null ? null : /^([A-Z0-9]+):(\d+\.\d+)$/.exec(ref);
  return match?.[1] && match[2] ? { channel: match[1], ts: match[2] } : null;
}

// The briefing the gate's page shows, so the message leads with the same headline.
async function factsOf(ctx: AppContext, catalog: GateCatalog, gate: GateDocument): Promise<MessageFacts> {
  // The wire document carries the same fields as core's Gate.
  const { briefing, agentName } = await briefingOf(ctx, catalog, gate as unknown as Gate);
  return { agentName, briefing };
}

async function personName(ctx: AppContext, id: string): Promise<string> {
  const user = await ctx.store.read((tx) => tx.getUser(id));
  return user?.name ?? id;
}

async function outcomeOf(ctx: AppContext, notice: GateNotice): Promise<MessageOutcome | null> {
  const { gate } = notice;
  switch (notice.trigger) {
    case 'gate.decided': {
      const decision = gate.decision;
      const option = notice.outcome?.option ?? decision?.option ?? 'decided';
      const by = await personName(ctx, notice.outcome?.decidedBy ?? decision?.decidedBy ?? 'someone');
      const reason = notice.outcome?.reason ?? decision?.reason ?? null;
      const edited = decision?.editedArgs === undefined ? '' : ' (with edited arguments)';
      const why = reason === null ? '' : ` — “${escapeMrkdwn(reason.slice(0, 500))}”`;
      return { text: `:white_check_mark: *${escapeMrkdwn(option)}*${edited} by ${escapeMrkdwn(by)}${why}` };
    }
    case 'gate.expired':
      return { text: `:hourglass: Timed out; the gate ended as ${escapeMrkdwn(gate.status)}` };
    case 'gate.cancelled':
      return { text: ':no_entry_sign: Cancelled; nothing to decide any more' };
    case 'gate.escalated':
      return {
        text: `:arrow_up: Escalated to ${escapeMrkdwn(gate.minRole)}; decide it there or in the web app`,
      };
    default:
      return null;
  }
}

async function send(
  api: SlackApi,
  method: 'chat.postMessage' | 'chat.update',
  body: Record<string, unknown>,
): Promise<ChannelDelivery> {
  const result = await api.call(method, body);
  if (!result.ok) return result;
  const channel = typeof result.data.channel === 'string' ? result.data.channel : null;
  const ts = typeof result.data.ts === 'string' ? result.data.ts : null;
  return { ok: true, ref: channel !== null && ts !== null ? slackRef(channel, ts) : null };
}

const AT_DEADLINE: Record<string, string> = {
  deny: 'is denied',
  escalate: 'escalates',
  proceed: 'goes ahead',
};

/** A reply in the message's thread: it notifies, where an edit of the message would not. */
async function replyInThread(
  api: SlackApi,
  notice: GateNotice,
  previous: { channel: string; ts: string },
  text: string,
): Promise<ChannelDelivery> {
  const sent = await send(api, 'chat.postMessage', {
    channel: previous.channel,
    thread_ts: previous.ts,
    text,
  });
  return sent.ok ? { ok: true, ref: notice.previousRef } : sent;
}

function mayStillDecide(notice: GateNotice): boolean {
  return notice.gate.status === 'pending' && hasRole(notice.recipient.role as Role, notice.gate.minRole);
}

/**
 * Slack DMs with buttons; later notices of the same gate update that message in place. `catalog`
 * holds the gate types whose own briefings name a gate (the built-in ones unless given).
 */
export function createSlackChannel(
  ctx: AppContext,
  api: SlackApi = createSlackApi(ctx.config.slack),
  catalog: GateCatalog = createGateCatalog(),
): NotificationChannel {
  async function deliverPending(notice: GateNotice, facts: MessageFacts): Promise<ChannelDelivery> {
    const { recipient, gate, gateUrl } = notice;
    const previous = parseRef(notice.previousRef);
    const message = pendingMessage(gate, facts, gateUrl);
    if (previous !== null && notice.trigger === 'gate.timeout_warning') {
      const then = AT_DEADLINE[gate.timeoutAction] ?? gate.timeoutAction;
      const text = `:alarm_clock: This gate times out ${deadlineText(gate.timeoutAt)} and then ${then}.`;
      return replyInThread(api, notice, previous, text);
    }
    if (previous !== null) {
      const updated = await send(api, 'chat.update', { ...previous, ...message });
      if (!updated.ok || notice.trigger !== 'gate.escalated') return updated;
      const text = `:arrow_up: Escalated: it now waits for ${gate.minRole} or higher, you included.`;
      return replyInThread(api, notice, previous, text);
    }
    if (recipient.slackUserId === null) {
      return {
        ok: false,
        error: `${recipient.displayName} has no Slack user id (gatehouse users slack <name> <member id>)`,
        retryable: false,
      };
    }
    return send(api, 'chat.postMessage', { channel: recipient.slackUserId, ...message, unfurl_links: false });
  }

  return {
    kind: 'slack',
    enabled: api.enabled,
    async deliverReview(notice) {
      const { recipient } = notice;
      if (recipient.slackUserId === null)
        return { ok: false, error: `${recipient.displayName} has no Slack user id`, retryable: false };
      return send(api, 'chat.postMessage', {
        channel: recipient.slackUserId,
        text: `*${notice.subject}*\n${notice.text}`,
        unfurl_links: false,
      });
    },
    async deliver(notice) {
      const facts = await factsOf(ctx, catalog, notice.gate);
      // An escalation that still includes this person keeps their buttons.
      const outcome =
        notice.trigger === 'gate.escalated' && mayStillDecide(notice) ? null : await outcomeOf(ctx, notice);
      const previous = parseRef(notice.previousRef);
      if (outcome !== null && previous !== null) {
        return send(api, 'chat.update', {
          ...previous,
          ...closedMessage(notice.gate, facts, notice.gateUrl, outcome),
        });
      }
      // Nothing was sent before, and nothing is left for this person to decide: no new message.
      if (outcome !== null || notice.gate.status !== 'pending') return { ok: true, ref: notice.previousRef };
      return deliverPending(notice, facts);
    },
  };
}
