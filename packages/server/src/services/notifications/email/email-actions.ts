import {
  buildBriefing,
  type Gate,
  GatehouseError,
  hasRole,
  isGatehouseError,
  type Role,
} from 'gatehouse-hitl-core';
import type { UserRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../../context.js';
import type { Principal } from '../../../http/principal.js';
import { checkDecisionTexts } from '../../gates/decision-texts.js';
import { delegateChoices } from '../../gates/gate-delegate.js';
import type { GateService } from '../../types.js';
import { linkSecretOf } from '../link-secret.js';
import { siteUrlOf } from '../notice.js';
import { type ActionLinkClaims, actionLinkPath, verifyActionLink } from './action-links.js';
import { type ActionField, confirmPage, messagePage, signInPage } from './action-page.js';

/** A form's number; what is not one goes on as NaN, which the decision refuses naming the field. */
function numberOf(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** An HTML answer with its status. */
export interface ActionPage {
  status: number;
  html: string;
}

export interface ActionForm {
  reason?: string | undefined;
  instructions?: string | undefined;
  feedback?: string | undefined;
  answer?: string | undefined;
  delegateTo?: string | undefined;
  newLimit?: string | undefined;
}

/** Emailed decision links: a GET shows what would be decided, only the POST decides. */
export interface EmailActions {
  view(token: string, principal: Principal): Promise<ActionPage>;
  confirm(token: string, principal: Principal, form: ActionForm): Promise<ActionPage>;
}

type TextField = 'reason' | 'instructions' | 'feedback' | 'answer';

const FIELD_LABELS: Readonly<Record<TextField, string>> = {
  reason: 'Reason',
  instructions: 'Instructions for the agent',
  feedback: 'Feedback for the agent',
  answer: 'Your answer',
};

const LINK_PROBLEMS = {
  malformed: 'This link is not a valid Gatehouse link: it may have been cut short when copied.',
  tampered: 'This link was altered, so it cannot be trusted. Open Gatehouse to decide.',
  expired: 'This link has expired. Open Gatehouse to decide, or wait for a newer email.',
} as const;

interface Checked {
  claims: ActionLinkClaims;
  gate: Gate;
  user: UserRecord;
  option: Gate['options'][number];
  decider: Extract<Principal, { kind: 'user' }>;
  /** The gate is decided only with the person's session, which this request did not carry. */
  signInFirst: boolean;
}

/**
 * The web app's sign-in page, returning to this link afterwards. The link rides in the fragment,
 * which browsers never send, so no server or proxy log sees it.
 */
export function signInUrl(site: string, token: string): string {
  return `${site}/login#next=${encodeURIComponent(actionLinkPath(token))}`;
}

type Outcome = { ok: true; checked: Checked } | { ok: false; page: ActionPage };

export function createEmailActions(ctx: AppContext, gates: GateService): EmailActions {
  const secret = linkSecretOf(ctx);
  const site = siteUrlOf(ctx);
  const refuse = (status: number, title: string, message: string, withLink = true): Outcome => ({
    ok: false,
    page: { status, html: messagePage(title, message, withLink ? site : null) },
  });

  async function check(token: string, principal: Principal): Promise<Outcome> {
    const now = await ctx.store.databaseNow();
    const verified = verifyActionLink(await secret(), token, now);
    if (!verified.ok) {
      const status = verified.problem === 'expired' ? 410 : 400;
      return refuse(
        status,
        verified.problem === 'expired' ? 'Link expired' : 'Link not valid',
        LINK_PROBLEMS[verified.problem],
      );
    }
    const { claims } = verified;
    const found = await ctx.store.read(async (tx) => ({
      used: await tx.isEmailActionLinkUsed(claims.id),
      gate: await tx.getGate(claims.gateId),
      user: await tx.getUser(claims.userId),
    }));
    if (found.used)
      return refuse(410, 'Link already used', 'This link was already used; each link works once.');
    if (found.gate === null)
      return refuse(404, 'Gate not found', 'The gate this link is for no longer exists.');
    if (found.user === null || found.user.disabled)
      return refuse(403, 'Not allowed', 'The person this link was sent to can no longer decide.');
    const gate = found.gate;
    if (gate.status !== 'pending')
      return refuse(
        409,
        'Already decided',
        `This gate is no longer waiting (it is ${gate.status}). Nothing was changed.`,
      );
    if ((gate.payloadHash ?? '') !== claims.payloadHash)
      return refuse(
        409,
        'Action changed',
        'The action changed after this email was sent. Open Gatehouse to see it.',
      );
    const option = gate.options.find((o) => o.id === claims.option && o.ends);
    if (option === undefined)
      return refuse(400, 'Option not offered', 'This gate no longer offers that answer.');
    if (gate.signatureRequired)
      return refuse(409, 'Signature needed', 'This gate needs a signed decision: decide it in Gatehouse.');
    const needsSession = hasRole(gate.minRole, ctx.config.notifications.emailSessionRole as Role);
    if (principal.kind === 'user' && principal.id !== claims.userId)
      return refuse(
        403,
        'Wrong person',
        `This link was sent to ${found.user.name}, but you are signed in as ${principal.name}.`,
      );
    const user = found.user;
    const decider = { kind: 'user' as const, id: user.id, name: user.name, role: user.role };
    const signInFirst = needsSession && principal.kind !== 'user';
    return { ok: true, checked: { claims, gate, user, option, decider, signInFirst } };
  }

  /** The fields the option needs: its texts, and the agent or the limit a delegation or an expansion sets. */
  async function fieldsOf(gate: Gate, option: Gate['options'][number]): Promise<ActionField[]> {
    const requires = option.requires as readonly string[];
    const names: TextField[] = ['reason', 'instructions', 'feedback', 'answer'];
    const texts: ActionField[] = names
      .filter((name) => requires.includes(name) || name === 'reason')
      .map((name) => ({ name, label: FIELD_LABELS[name], required: requires.includes(name) }));
    const extra: ActionField[] = [];
    if (requires.includes('delegateTo')) {
      const choices = (await delegateChoices(ctx.store, gate)).map(({ id, name }) => ({
        value: id,
        label: name,
      }));
      extra.push({
        name: 'delegateTo',
        label: 'Agent to hand the task to',
        required: true,
        input: { kind: 'choice', choices },
      });
    }
    if (requires.includes('newLimit')) {
      extra.push({ name: 'newLimit', label: 'New limit', required: true, input: { kind: 'number' } });
    }
    return [...extra, ...texts];
  }

  return {
    async view(token, principal) {
      const outcome = await check(token, principal);
      if (!outcome.ok) return outcome.page;
      // A link opened from a mail client arrives without the session cookie (SameSite=Strict), so the
      // page is shown all the same; the form, posted from this page, carries the session if there is one.
      const { gate, option, user, signInFirst } = outcome.checked;
      let briefing = null;
      try {
        briefing = buildBriefing(gate);
      } catch {
        briefing = null;
      }
      const html = confirmPage({
        briefing,
        title: gate.title,
        option,
        fields: await fieldsOf(gate, option),
        formAction: actionLinkPath(token),
        gateUrl: `${site}/gates/${encodeURIComponent(gate.id)}`,
        person: user.name,
        signIn: signInFirst ? { url: signInUrl(site, token), role: gate.minRole } : null,
      });
      return { status: 200, html };
    },

    async confirm(token, principal, form) {
      const outcome = await check(token, principal);
      if (!outcome.ok) return outcome.page;
      const { claims, gate, option, decider, signInFirst } = outcome.checked;
      if (signInFirst) {
        const message = `Gates that need the ${gate.minRole} role are decided only while signed in as the person the email was sent to. Sign in, and you come back to this link; nothing was decided.`;
        return { status: 401, html: signInPage(message, signInUrl(site, token)) };
      }
      const text = (value: string | undefined) =>
        value === undefined || value.trim() === '' ? undefined : value;
      const missing = (await fieldsOf(gate, option)).find(
        (field) => field.required && text(form[field.name]) === undefined,
      );
      if (missing !== undefined)
        return {
          status: 400,
          html: messagePage(
            'Missing field',
            `${missing.label} is required for ${option.label}. Go back and fill it in.`,
            null,
          ),
        };
      // Single use first: two clicks racing each other decide at most once.
      const fresh = await ctx.store.transaction((tx) =>
        tx.useEmailActionLink(claims.id, gate.id, claims.userId),
      );
      if (!fresh)
        return {
          status: 410,
          html: messagePage('Link already used', 'This link was already used; each link works once.', site),
        };
      try {
        const decision = {
          option: option.id,
          reason: text(form.reason),
          instructions: text(form.instructions),
          feedback: text(form.feedback),
          answer: text(form.answer),
          delegateTo: text(form.delegateTo),
          newLimit: numberOf(text(form.newLimit)),
          channel: 'email' as const,
        };
        checkDecisionTexts(decision);
        await gates.decide(decider, gate.id, decision);
      } catch (error) {
        // Nothing was decided: the link works again, so a corrected form can be sent.
        await ctx.store.transaction((tx) => tx.releaseEmailActionLink(claims.id));
        if (!isGatehouseError(error)) throw error;
        const status = error instanceof GatehouseError && error.code === 'VALIDATION_FAILED' ? 400 : 409;
        return {
          status,
          html: messagePage(
            'Not recorded',
            `Your decision was not recorded: ${error.message} The link still works: go back to correct it.`,
            site,
          ),
        };
      }
      return {
        status: 200,
        html: messagePage('Decision recorded', `${option.label}: recorded. The agent has been told.`, site),
      };
    },
  };
}
