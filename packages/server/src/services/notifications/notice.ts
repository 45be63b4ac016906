import type { Gate } from 'gatehouse-hitl-core';
import type { GateDocument } from 'gatehouse-hitl-protocol';
import type { ClaimedNotification, StoreTx } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { GateNotice, NotificationTrigger, ReviewNotice } from './channel.js';

/** The web app's base URL for links in notices. */
export function siteUrlOf(ctx: AppContext): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl.replace(/\/+$/, '');
  const host = ctx.config.host === '0.0.0.0' || ctx.config.host === '::' ? '127.0.0.1' : ctx.config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${ctx.config.port}`;
}

/** A stored gate as the wire shows it (the document has the same fields as core's Gate). */
export function gateDocumentOf(gate: Gate & { version?: number }): GateDocument {
  const { version: _version, ...document } = gate;
  return document as unknown as GateDocument;
}

/** Everything a channel needs for one claimed notification; null when the gate or person is gone. */
export async function noticeOf(
  ctx: AppContext,
  tx: StoreTx,
  claimed: ClaimedNotification,
): Promise<GateNotice | null> {
  const [stored, user] = await Promise.all([tx.getGate(claimed.gateId), tx.getUser(claimed.userId)]);
  if (stored === null || user === null) return null;
  const preference = await tx.getNotificationPreference(user.id);
  const slack = await tx.getSlackUser(user.id);
  const decision = stored.decision;
  return {
    notificationId: claimed.id,
    trigger: claimed.trigger as NotificationTrigger,
    gate: gateDocumentOf(stored),
    recipient: {
      userId: user.id,
      displayName: user.name,
      role: user.role,
      email: preference?.email ?? null,
      slackUserId: slack?.slackUserId ?? null,
    },
    previousRef: claimed.previousRef,
    gateUrl: `${siteUrlOf(ctx)}/gates/${encodeURIComponent(stored.id)}`,
    ...(claimed.trigger === 'gate.decided' && decision
      ? {
          outcome: {
            option: decision.option,
            decidedBy: decision.decidedBy,
            reason: decision.reason ?? null,
          },
        }
      : {}),
  };
}

/** A claimed notice about review itself, with its recipient; null when the person is gone. */
export async function reviewNoticeOf(
  tx: StoreTx,
  claimed: ClaimedNotification,
): Promise<ReviewNotice | null> {
  const user = await tx.getUser(claimed.userId);
  if (user === null) return null;
  const preference = await tx.getNotificationPreference(user.id);
  const slack = await tx.getSlackUser(user.id);
  const content = JSON.parse(claimed.data) as { subject?: unknown; text?: unknown; url?: unknown };
  return {
    notificationId: claimed.id,
    trigger: claimed.trigger,
    recipient: {
      userId: user.id,
      displayName: user.name,
      role: user.role,
      email: preference?.email ?? null,
      slackUserId: slack?.slackUserId ?? null,
    },
    subject: String(content.subject ?? 'Gatehouse review health'),
    text: String(content.text ?? ''),
    url: String(content.url ?? ''),
  };
}
