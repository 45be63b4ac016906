import { assertNotAgentOwner, type Gate, separatesAgentOwner } from 'gatehouse-hitl-core';
import type { AgentsRepo } from 'gatehouse-hitl-store';
import type { GateDeps } from './gate-common.js';

/** The `separationOfDuties` setting of the rule that opened the gate, as the policy says now. */
function ruleSettingOf(deps: GateDeps, gate: Gate): boolean | undefined {
  if (gate.policyRuleId === null) return undefined;
  const rule = deps.policies.current().rules.find((candidate) => candidate.id === gate.policyRuleId);
  const action = rule?.rule.action;
  return typeof action === 'object' ? action.gate.separationOfDuties : undefined;
}

/** The person who owns the gate's agent when separation of duties keeps them from approving it, else null. */
export async function separatedOwnerOf(deps: GateDeps, tx: AgentsRepo, gate: Gate): Promise<string | null> {
  if (gate.agentId === null || !separatesAgentOwner(gate, ruleSettingOf(deps, gate))) return null;
  return (await tx.getAgent(gate.agentId))?.createdBy ?? null;
}

/** OWNER_APPROVAL when the person approving owns the agent that asked and separation applies. */
export async function assertOwnerMayDecide(
  deps: GateDeps,
  tx: AgentsRepo,
  decision: { gate: Gate; userId: string; option: string },
): Promise<void> {
  const { gate } = decision;
  const ruleSetting = ruleSettingOf(deps, gate);
  const owner = await separatedOwnerOf(deps, tx, gate);
  if (owner === null) return;
  assertNotAgentOwner({
    gate,
    ruleSetting,
    option: decision.option,
    deciderId: decision.userId,
    agentOwnerId: owner,
  });
}
