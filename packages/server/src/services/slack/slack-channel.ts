import type { GateDocument } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import type { ChannelDelivery, GateNotice, NotificationChannel } from '../notifications/channel.js';
import { createSlackApi, type SlackApi } from './slack-api.js';
import {
  closedMessage,
  deadlineText,
  type MessageNames,
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

async function namesOf(ctx: AppContext, gate: GateDocument): Promise<MessageNames> {
  if (gate.agentId === null) return { agentName: null };
  const agent = await ctx.store.read((tx) => tx.getAgent(gate.agentId ?? ''));
  return { agentName: agent?.name ?? null };
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

/** Slack DMs with buttons; later notices of the same gate update that message in place. */
export function createSlackChannel(
  ctx: AppContext,
  api: SlackApi = createSlackApi(ctx.config.slack),
): NotificationChannel {
  return {
    kind: 'slack',
    enabled: api.enabled,
    async deliver(notice) {
      const { recipient, gate, gateUrl } = notice;
      const names = await namesOf(ctx, gate);
      const outcome = await outcomeOf(ctx, notice);
      const previous = parseRef(notice.previousRef);
      if (outcome !== null && previous !== null) {
        return send(api, 'chat.update', { ...previous, ...closedMessage(gate, names, gateUrl, outcome) });
      }
      // Nothing was sent before: an ended gate needs no new message; an escalated one reaches its new reviewer.
      if (outcome !== null && notice.trigger !== 'gate.escalated') return { ok: true, ref: null };
      if (gate.status !== 'pending') return { ok: true, ref: notice.previousRef };
      if (notice.trigger === 'gate.timeout_warning' && previous !== null) {
        // A reply in the message's thread notifies; an edit of the message would not.
        const warned = await send(api, 'chat.postMessage', {
          channel: previous.channel,
          thread_ts: previous.ts,
          text: `:alarm_clock: This gate times out ${deadlineText(gate.timeoutAt)} and then ${gate.timeoutAction}s.`,
        });
        return warned.ok ? { ok: true, ref: notice.previousRef } : warned;
      }
      const message = pendingMessage(gate, names, gateUrl);
      if (previous !== null) return send(api, 'chat.update', { ...previous, ...message });
      if (recipient.slackUserId === null) {
        return {
          ok: false,
          error: `${recipient.displayName} has no Slack user id (gatehouse users slack <name> <member id>)`,
          retryable: false,
        };
      }
      return send(api, 'chat.postMessage', {
        channel: recipient.slackUserId,
        ...message,
        unfurl_links: false,
      });
    },
  };
}
