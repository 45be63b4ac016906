import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { authorizeDecision, type Gate, gateHasHiddenCharacters } from 'gatehouse-hitl-core';
import { HIDDEN_CHARACTERS_WARNING, hasRole, type Role, revealText } from 'gatehouse-hitl-protocol';
import type { GatehouseApi } from './api.js';
import type { Elicitor, McpLogger } from './context.js';
import type { Extra } from './decision.js';
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

/** The form a person answers the gate with; hidden characters anywhere in it are shown as markers, under a warning. */
export function decisionForm(gate: Gate, briefing: unknown, operator: Operator): ElicitRequestFormParams {
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
  const message = revealText(text, { multiline: true }).slice(0, MAX_MESSAGE);
  const options = gate.options.filter((option) => option.ends);
  return {
    mode: 'form',
    message,
    requestedSchema: {
      type: 'object',
      properties: {
        option: {
          type: 'string',
          title: 'Decision',
          oneOf: options.map((option) => ({ const: option.id, title: option.label })),
        },
        reason: { type: 'string', title: 'Reason', description: 'Why; shown to the agent', maxLength: 2000 },
        instructions: {
          type: 'string',
          title: 'Steer instructions',
          description: 'For steer: the agent’s next instruction',
          maxLength: 10_000,
        },
        feedback: {
          type: 'string',
          title: 'Feedback',
          description: 'Feedback for the agent',
          maxLength: 10_000,
        },
      },
      required: ['option'],
    },
  };
}

/**
 * Offers pending gates to the person at the client through MCP elicitation, and records their
 * answer with their own token, which the server checks like any decision.
 */
export function createElicitor(server: McpServer, operator: Operator, log: McpLogger): Elicitor {
  async function ask(gateId: string, extra: Extra, signal: AbortSignal): Promise<void> {
    if (!server.server.getClientCapabilities()?.elicitation?.form) return;
    const { gate, briefing } = await operator.api.gate(gateId, signal);
    if (!operatorMayDecide(gate, operator)) return;
    const answer = await server.server.elicitInput(decisionForm(gate, briefing, operator), {
      signal,
      relatedRequestId: extra.requestId,
      timeout: (MAX_WAIT_SECONDS + 5) * 1000,
    });
    if (answer.action !== 'accept' || !answer.content) return;
    const content = answer.content;
    await operator.api.decide(gateId, {
      option: String(content.option),
      ...defined({
        reason: textOf(content.reason),
        instructions: textOf(content.instructions),
        feedback: textOf(content.feedback),
      }),
    });
  }
  return {
    offer(gateId, extra, signal) {
      ask(gateId, extra, signal).catch((error: unknown) => {
        if (!signal.aborted) log.warn({ err: error, gateId }, 'could not ask the person at the MCP client');
      });
    },
  };
}
