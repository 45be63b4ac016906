import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  authRoutes,
  type DecideBody,
  type DecideResponse,
  type GateDocument as Gate,
  gateActionRoutes,
} from 'gatehouse-hitl-protocol';
import { type ApiError, CliError, isApiError } from './errors.js';
import type { ApiClient } from './http.js';
import { terminalSafe } from './output.js';

/** The body of `POST /v1/gates/:id/decide`. */
export type DecisionBody = DecideBody;

/** Reads an Ed25519 private key (PEM) for signed decisions. */
export function readSigningKey(file: string): ReturnType<typeof createPrivateKey> {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the signing key ${file}: ${(error as Error).message}`);
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`it is a ${key.asymmetricKeyType} key`);
    return key;
  } catch (error) {
    throw new CliError(`${file} is not an Ed25519 private key in PEM (${(error as Error).message})`);
  }
}

/**
 * The Ed25519 signature (base64) that signed gates need: over the protocol's `signedDecisionText` of the
 * gate, the option, the payload hash, the words sent with the decision and a Whitelist decision's
 * scope, so send `body` as signed.
 */
export async function signDecision(
  key: ReturnType<typeof createPrivateKey>,
  gate: Pick<Gate, 'id' | 'payloadHash' | 'type' | 'context'>,
  body: Pick<DecisionBody, 'option' | 'reason' | 'feedback' | 'instructions' | 'whitelist'>,
): Promise<string> {
  const { decisionWhitelistScope, signedDecisionText } = await import('gatehouse-hitl-protocol/rules');
  const message = signedDecisionText({
    gateId: gate.id,
    option: body.option,
    payloadHash: gate.payloadHash,
    reason: body.reason,
    feedback: body.feedback,
    instructions: body.instructions,
    whitelist: decisionWhitelistScope(gate, body.option, body.whitelist),
  });
  return sign(null, Buffer.from(message, 'utf8'), key).toString('base64');
}

/** Posts a decision; the server checks everything (role, option, deadline, signature). */
export type { DecideResponse };

export function postDecision(client: ApiClient, gateId: string, body: DecisionBody): Promise<DecideResponse> {
  return client.call(gateActionRoutes.decide, { params: { id: gateId }, body });
}

/**
 * For a GATE_ALREADY_DECIDED refusal: "someone else decided first: user_dana chose approve" (or that
 * you did, when `myId` is the winner); null for any other error.
 */
export function lostRaceMessage(error: unknown, myId: string | null = null): string | null {
  if (!isApiError(error, 'GATE_ALREADY_DECIDED')) return null;
  const winner = (error as ApiError).details.winner as { decidedBy?: unknown; option?: unknown } | null;
  const option = terminalSafe(winner?.option ?? 'an option');
  if (myId !== null && winner?.decidedBy === myId)
    return `you already decided this gate: you chose ${option}`;
  return `someone else decided first: ${terminalSafe(winner?.decidedBy ?? 'someone')} chose ${option}`;
}

/** The signed-in person's id, or null (for telling "you" from someone else). */
export async function whoAmI(client: ApiClient): Promise<string | null> {
  const me = await client.call(authRoutes.me).catch(() => null);
  return me?.kind === 'user' ? me.user.id : null;
}

/** One line saying what a decision did, e.g. `gate_1 approved (approve by user_dana)`. */
export function describeDecision(response: DecideResponse): string {
  const { gate } = response;
  if (gate.status === 'pending') {
    const votes = gate.approvals?.length ?? 0;
    if (gate.requiredApprovals <= 1 || votes === 0) return `${gate.id}: still pending`;
    return `${gate.id}: approval recorded (${votes} of ${gate.requiredApprovals}); the gate waits for more approvers`;
  }
  const decision = gate.decision ?? response.decision;
  const by = decision ? ` by ${terminalSafe(decision.decidedBy)}` : '';
  const option = decision ? ` (${terminalSafe(decision.option)}${by})` : '';
  return `${gate.id}: ${gate.status}${option}`;
}
