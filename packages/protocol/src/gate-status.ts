/** Where a gate ends: `resolved` means a gate-specific option (retry, abort, …) ended it. */
export const GATE_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'steered',
  'expired',
  'cancelled',
  'resolved',
] as const;
export type GateStatus = (typeof GATE_STATUSES)[number];
export type TerminalGateStatus = Exclude<GateStatus, 'pending'>;

/** True when `value` is a gate status, e.g. read from a stream event's data. */
export function isGateStatus(value: unknown): value is GateStatus {
  return (GATE_STATUSES as readonly unknown[]).includes(value);
}
