import { createGateCatalog, type Gate, type GateCatalog } from 'gatehouse-hitl-core';
import nodemailer from 'nodemailer';
import type { AppContext } from '../../../context.js';
import { briefingOf } from '../../gates/gate-headline.js';
import type { ChannelDelivery, GateNotice, NotificationChannel, ReviewNotice } from '../channel.js';
import { linkSecretOf } from '../link-secret.js';
import { siteUrlOf } from '../notice.js';
import { actionLinkPath, newActionLinkId, signActionLink } from './action-links.js';
import { type OptionLink, renderEmail } from './email-render.js';

/** Triggers that ask the person to act: only these carry decision links. */
const ACTIONABLE = new Set(['gate.opened', 'gate.timeout_warning', 'gate.escalated', 'gate.assigned']);

/** SMTP replies that will not change on a retry (5xx: mailbox unknown, policy refusal). */
function permanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * SMTP connections kept open at most: a gate change's notices to 20 people go out at once instead of
 * in waves, each wave waiting a whole SMTP answer. `?maxConnections=` in the SMTP URL overrides it.
 */
const POOLED_CONNECTIONS = 20;

type Transport = ReturnType<typeof nodemailer.createTransport>;

/**
 * Email through any SMTP server (GATEHOUSE_SMTP_URL); the Message-ID is the ref later notices reply to.
 * Connections are pooled: a notice does not pay for a new connection and greeting each time.
 */
export function createEmailChannel(
  ctx: AppContext,
  catalog: GateCatalog = createGateCatalog(),
): NotificationChannel {
  const { smtpUrl, smtpFrom, emailLinkTtlMs } = ctx.config.notifications;
  let pool: Transport | null = null;
  // Opened on first use and again after close(), so a worker started anew still sends.
  const transportOf = (): Transport | null => {
    if (smtpUrl === null) return null;
    pool ??= nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: POOLED_CONNECTIONS });
    return pool;
  };
  const secret = linkSecretOf(ctx);

  async function linksFor(notice: GateNotice): Promise<OptionLink[]> {
    const { gate, recipient } = notice;
    if (!ACTIONABLE.has(notice.trigger) || gate.status !== 'pending') return [];
    const key = await secret();
    // The database's clock, the one the confirmation page checks expiry against.
    const expiresAt = (await ctx.store.databaseNow()) + emailLinkTtlMs;
    return gate.options
      .filter((option) => option.ends)
      .map((option) => {
        const token = signActionLink(key, {
          id: newActionLinkId(),
          gateId: gate.id,
          userId: recipient.userId,
          option: option.id,
          payloadHash: gate.payloadHash ?? '',
          expiresAt,
        });
        return {
          label: option.label,
          description: option.description,
          url: `${siteUrlOf(ctx)}${actionLinkPath(token)}`,
        };
      });
  }

  async function send(
    to: string | null,
    name: string,
    mail: Record<string, unknown>,
  ): Promise<ChannelDelivery> {
    const transport = transportOf();
    if (transport === null)
      return { ok: false, error: 'email is not configured (GATEHOUSE_SMTP_URL)', retryable: false };
    if (to === null) return { ok: false, error: `${name} has no email address`, retryable: false };
    try {
      const sent = await transport.sendMail({ from: smtpFrom, to, ...mail });
      return { ok: true, ref: sent.messageId ?? null };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: message.slice(0, 500), retryable: !permanent(error) };
    }
  }

  return {
    kind: 'email',
    enabled: smtpUrl !== null,
    async close() {
      pool?.close();
      pool = null;
    },
    deliverReview(notice: ReviewNotice) {
      return send(notice.recipient.email, notice.recipient.displayName, {
        subject: notice.subject,
        text: notice.text,
      });
    },
    async deliver(notice: GateNotice): Promise<ChannelDelivery> {
      const transport = transportOf();
      if (transport === null)
        return { ok: false, error: 'email is not configured (GATEHOUSE_SMTP_URL)', retryable: false };
      const to = notice.recipient.email;
      if (to === null)
        return { ok: false, error: `${notice.recipient.displayName} has no email address`, retryable: false };
      // The wire document carries the same fields as core's Gate.
      const { briefing } = await briefingOf(ctx, catalog, notice.gate as unknown as Gate);
      const mail = renderEmail(notice, briefing, await linksFor(notice));
      const thread =
        notice.previousRef === null ? {} : { inReplyTo: notice.previousRef, references: notice.previousRef };
      try {
        const sent = await transport.sendMail({ from: smtpFrom, to, ...mail, ...thread });
        return { ok: true, ref: sent.messageId ?? null };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, error: message.slice(0, 500), retryable: !permanent(error) };
      }
    },
  };
}
