import { GatehouseError } from '../errors.js';
import type { Gate } from '../schemas.js';

/**
 * True when the gate keeps its agent's owner from approving it: asked for, or a signed gate unless
 * its policy rule says `separationOfDuties: false` (`ruleSetting`).
 */
export function separatesAgentOwner(
  gate: Pick<Gate, 'separationOfDuties' | 'signatureRequired'>,
  ruleSetting?: boolean | undefined,
): boolean {
  return gate.separationOfDuties || (gate.signatureRequired && ruleSetting !== false);
}

/** True when choosing `optionId` lets the action go ahead (approved, or resolved by a gate-specific option). */
export function approvesAction(gate: Pick<Gate, 'options'>, optionId: string): boolean {
  const option = gate.options.find((candidate) => candidate.id === optionId);
  if (option === undefined || !option.ends) return false;
  const outcome = option.outcome ?? 'resolved';
  return outcome === 'approved' || outcome === 'resolved';
}

/** Who is deciding and who owns the agent that asked (null for agents from before owners were kept). */
export interface OwnerSeparationInput {
  gate: Pick<Gate, 'id' | 'agentId' | 'options' | 'separationOfDuties' | 'signatureRequired'>;
  /** The gate's policy rule setting, when it has one. */
  ruleSetting?: boolean | undefined;
  option: string;
  deciderId: string;
  agentOwnerId: string | null;
}

/**
 * Throws OWNER_APPROVAL when separation of duties applies and the person approving is the one who
 * owns the agent that asked; rejecting or steering one's own agent stays allowed.
 * @example
 * assertNotAgentOwner({ gate, option: 'approve', deciderId: 'user_ana', agentOwnerId: 'user_ana' }); // throws
 */
export function assertNotAgentOwner(input: OwnerSeparationInput): void {
  const { gate, option, deciderId, agentOwnerId } = input;
  if (!separatesAgentOwner(gate, input.ruleSetting) || agentOwnerId === null || agentOwnerId !== deciderId)
    return;
  if (!approvesAction(gate, option)) return;
  throw new GatehouseError(
    'OWNER_APPROVAL',
    `gate ${gate.id} needs separation of duties: you own agent ${gate.agentId ?? 'that asked'}, so someone else must approve it; you may still reject it`,
    { gateId: gate.id, agentId: gate.agentId, option },
  );
}
