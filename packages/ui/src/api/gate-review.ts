import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import {
  agentRoutes,
  authRoutes,
  type DecideBody,
  type DecideResponse,
  gateActionRoutes,
  type KeyChallengeResponse,
  type RegisterKeyBody,
  type SigningKeyDocument,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export { type GateView, getGate } from './gates.js';

/** What a decision did: `decision` is null for a partial N-of-M approval or a view option. */
export type DecideResult = DecideResponse;

export type { DecideBody };

/** Answers a gate; the server checks role, option, required fields, deadline and signature. */
export function decideGate(id: string, body: DecideBody): Promise<DecideResult> {
  return callApi(gateActionRoutes.decide, { params: { id }, body });
}

/** Snooze / extend: the deadline moves to `seconds` from now. */
export async function extendGate(id: string, seconds: number): Promise<Gate> {
  const answer = await callApi(gateActionRoutes.extend, { params: { id }, body: { seconds } });
  return answer.gate;
}

/** Assigns (or delegates) a gate to people by id; empty = anyone with the gate's role. */
export async function assignGate(id: string, assignees: string[]): Promise<Gate> {
  const answer = await callApi(gateActionRoutes.assign, { params: { id }, body: { assignees } });
  return answer.gate;
}

/** A one-time challenge to prove a new key with; it works once, for 5 minutes. */
export function keyChallenge(): Promise<KeyChallengeResponse> {
  return callApi(authRoutes.keyChallenge);
}

/**
 * Registers this browser's public key (raw 32 bytes, base64) for signed decisions, with the proof
 * (the challenge signed by the key) and, when the sign-in is over 5 minutes old, the password.
 */
export async function registerSigningKey(input: RegisterKeyBody): Promise<SigningKeyDocument> {
  const answer = await callApi(authRoutes.registerKey, { body: input });
  return answer.key;
}

/** An agent's display name (viewer+ may read agents). */
export async function getAgentName(id: string): Promise<string> {
  const answer = await callApi(agentRoutes.get, { params: { id } });
  return answer.agent.name;
}
