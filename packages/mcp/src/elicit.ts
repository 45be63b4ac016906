import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type ElicitRequestFormParams,
  type ElicitRequestParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  ElicitResultSchema,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
import { authorizeDecision, type Gate, gateHasHiddenCharacters } from 'gatehouse-hitl-core';
import { HIDDEN_CHARACTERS_WARNING, hasRole, type Role, revealText } from 'gatehouse-hitl-protocol';
import type { GatehouseApi } from './api.js';
import type { Elicitor, McpLogger } from './context.js';
import type { Extra } from './decision.js';
import { type Choice, decisionFormParams, elicitationModes } from './elicit-forms.js';
import { defined } from './results.js';
import { MAX_WAIT_SECONDS } from './schemas.js';

/** The person at the MCP client who may answer gates there, with their own token. */
export interface Operator {
  api: GatehouseApi;
  person: { id: string; name: string; role: Role };
}

/** The least role that decides anything; viewers never do. */
const DECIDING_ROLE: Role = 'developer';
const MAX_MESSAGE = 4000;

/**
 * Checks that `api`'s token is a person who may decide gates, and returns them as the operator.
 * Agent tokens and viewers are refused: elicitation never decides with anything else.
 */
export async function resolveOperator(api: GatehouseApi): Promise<Operator> {
  const me = await api.me();
  if (me.kind !== 'user')
    throw new Error('elicitation needs a person’s token (gatehouse login), not an agent token');
  if (!hasRole(me.user.role, DECIDING_ROLE)) {
    throw new Error(
      `elicitation needs a person with role ${DECIDING_ROLE} or higher (${me.user.name} is ${me.user.role})`,
    );
  }
  return { api, person: { id: me.user.id, name: me.user.name, role: me.user.role } };
}

/** True when the operator may answer this gate here: the core's decision rules, and no signature needed. */
export function operatorMayDecide(gate: Gate, operator: Operator): boolean {
  if (gate.status !== 'pending' || gate.signatureRequired) return false;
  try {
    authorizeDecision(gate, { kind: 'user', id: operator.person.id, role: operator.person.role });
    return true;
  } catch {
    return false;
  }
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** What the person reads above the form: the briefing, hidden characters as markers under a warning. */
function decisionMessage(gate: Gate, briefing: unknown, operator: Operator): string {
  const summary = (briefing ?? {}) as { summary?: unknown; details?: unknown };
  const action = gate.action ? `\nAction: ${revealText(JSON.stringify(gate.action)).slice(0, 1000)}` : '';
  const text = [
    `Gatehouse: ${textOf(summary.summary) ?? gate.title}`,
    gateHasHiddenCharacters(gate) ? `Warning: ${HIDDEN_CHARACTERS_WARNING}` : '',
    textOf(summary.details) ?? '',
    `Gate ${gate.id} (${gate.type}, risk ${gate.risk})${action}`,
    `Answering as ${operator.person.name} (${operator.person.role}).`,
  ]
    .filter((line) => line !== '')
    .join('\n');
  return revealText(text, { multiline: true }).slice(0, MAX_MESSAGE);
}

/** The form a person answers the gate with, in the shape of the negotiated protocol version. */
export function decisionForm(
  gate: Gate,
  briefing: unknown,
  operator: Operator,
  version: string = LATEST_PROTOCOL_VERSION,
  delegates: readonly Choice[] = [],
): ElicitRequestFormParams {
  const offered = gate.options.filter((option) => option.ends);
  const choices = offered.map((option) => ({ id: option.id, label: option.label }));
  const needs = (input: string) =>
    offered.some((option) => (option.requires as readonly string[]).includes(input));
  return decisionFormParams(decisionMessage(gate, briefing, operator), choices, version, {
    delegates: needs('delegateTo') ? delegates : null,
    newLimit: needs('newLimit'),
  });
}

/** The agents a delegation of `gate` may name: every agent the person sees but the one that asked. */
async function delegatesOf(gate: Gate, me: Operator, signal: AbortSignal): Promise<Choice[]> {
  const offers = gate.options.some((option) => (option.requires as readonly string[]).includes('delegateTo'));
  if (!offers) return [];
  const agents = await me.api.agents(signal);
  return agents
    .filter((agent) => agent.id !== gate.agentId)
    .map((agent) => ({ id: agent.id, label: agent.name }));
}

/** The URL-mode request sending the person to the gate's page in the web app. */
export function gatePageRequest(
  gate: Gate,
  gatePages: string,
  elicitationId: string,
): ElicitRequestURLParams {
  return {
    mode: 'url',
    elicitationId,
    url: `${gatePages.replace(/\/+$/, '')}/gates/${encodeURIComponent(gate.id)}`,
    message: revealText(
      `Gatehouse: a person decides "${gate.title}" (gate ${gate.id}, risk ${gate.risk}) on its page. The agent waits until it is decided.`,
    ).slice(0, MAX_MESSAGE),
  };
}

/** What an elicitor works with. */
export interface ElicitorOptions {
  /** The person who may answer in a form; null: never a form. */
  operator: Operator | null;
  /** Reads the gate when there is no operator (the session's own token). */
  api: GatehouseApi;
  /** The web app's base URL for URL-mode elicitation; null: never URL mode. */
  gatePages: string | null;
  /** The protocol version the session negotiated. */
  version(): string | null;
  log: McpLogger;
}

/** The choice a form answer names, when it is one of the offered options. */
function chosenOption(gate: Gate, content: Record<string, unknown>): string | null {
  const option = content.option;
  return typeof option === 'string' && gate.options.some((entry) => entry.ends && entry.id === option)
    ? option
    : null;
}

/**
 * Offers pending gates to the person at the client through MCP elicitation: a form recorded with
 * the operator's own token (which the server checks like any decision), or — for clients with URL
 * mode — the gate's page in the web app. A request still open when the gate ends is cancelled once;
 * one already answered is never cancelled afterwards.
 */
export function createElicitor(server: McpServer, options: ElicitorOptions): Elicitor {
  const { operator, log } = options;
  /** Gates sent to their page and accepted there: the completion notification is owed. */
  const openPages = new Map<string, string>();

  /** Sends one elicitation; aborting `signal` cancels it only while no answer has come. */
  async function send(params: ElicitRequestParams, extra: Extra, signal: AbortSignal): Promise<ElicitResult> {
    const inFlight = new AbortController();
    const cancel = () => inFlight.abort(signal.reason);
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await server.server.request({ method: 'elicitation/create', params }, ElicitResultSchema, {
        signal: inFlight.signal,
        relatedRequestId: extra.requestId,
        timeout: (MAX_WAIT_SECONDS + 5) * 1000,
      });
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  async function askForm(
    gate: Gate,
    briefing: unknown,
    me: Operator,
    version: string,
    extra: Extra,
    signal: AbortSignal,
  ) {
    const delegates = await delegatesOf(gate, me, signal);
    const answer = await send(decisionForm(gate, briefing, me, version, delegates), extra, signal);
    if (answer.action !== 'accept' || !answer.content) return;
    const content = answer.content;
    const option = chosenOption(gate, content);
    if (option === null) {
      log.warn({ gateId: gate.id }, 'the elicitation answer named no offered option; nothing was decided');
      return;
    }
    await me.api.decide(gate.id, {
      option,
      ...defined({
        reason: textOf(content.reason),
        instructions: textOf(content.instructions),
        feedback: textOf(content.feedback),
        delegateTo: option === 'delegate' ? textOf(content.delegateTo) : undefined,
        newLimit:
          option === 'expand_constraint' && typeof content.newLimit === 'number'
            ? content.newLimit
            : undefined,
      }),
    });
  }

  async function ask(gateId: string, extra: Extra, signal: AbortSignal): Promise<void> {
    const version = options.version();
    const modes = elicitationModes(version, server.server.getClientCapabilities());
    if (version === null || openPages.has(gateId)) return;
    const useForm = modes.form && operator !== null;
    const usePage = modes.url && options.gatePages !== null;
    if (!useForm && !usePage) return;
    const { gate, briefing } = await (operator?.api ?? options.api).gate(gateId, signal);
    if (gate.status !== 'pending') return;
    if (useForm && operator !== null && operatorMayDecide(gate, operator)) {
      await askForm(gate, briefing, operator, version, extra, signal);
      return;
    }
    if (!usePage || options.gatePages === null) return;
    const request = gatePageRequest(gate, options.gatePages, randomUUID());
    const answer = await send(request, extra, signal);
    if (answer.action === 'accept') openPages.set(gateId, request.elicitationId);
  }

  return {
    offer(gateId, extra, signal) {
      ask(gateId, extra, signal).catch((error: unknown) => {
        if (!signal.aborted) log.warn({ err: error, gateId }, 'could not ask the person at the MCP client');
      });
    },
    ended(gateId, extra) {
      const elicitationId = openPages.get(gateId);
      if (elicitationId === undefined) return;
      openPages.delete(gateId);
      server.server
        .notification(
          { method: 'notifications/elicitation/complete', params: { elicitationId } },
          { relatedRequestId: extra.requestId },
        )
        .catch((error: unknown) => log.warn({ err: error, gateId }, 'could not report the gate page done'));
    },
  };
}
