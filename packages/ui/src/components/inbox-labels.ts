/** A gate type as words: `tool_call` → `Tool call`, `recovery_escalation` → `Recovery escalation`. */
export function gateTypeLabel(type: string): string {
  const words = type.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** N-of-M progress such as `1 of 2 approvals`, or null for gates that need one decision. */
export function approvalProgress(gate: {
  requiredApprovals: number;
  approvals: readonly unknown[];
}): string | null {
  if (gate.requiredApprovals <= 1) return null;
  return `${gate.approvals.length} of ${gate.requiredApprovals} approvals`;
}
