import type { WhitelistEntry } from 'gatehouse-hitl-protocol';

/** An entry this close to its expiry is marked as expiring, so someone renews or lets it go in time. */
export const EXPIRING_DAYS = 14;
const DAY_MS = 86_400_000;

export type WhitelistState = 'active' | 'expiring' | 'expired';

/** Whether the entry still suppresses, and whether it soon stops. */
export function whitelistState(
  entry: Pick<WhitelistEntry, 'status' | 'expiresAt'>,
  now: number,
): WhitelistState {
  if (entry.status === 'expired' || entry.expiresAt <= now) return 'expired';
  return entry.expiresAt - now <= EXPIRING_DAYS * DAY_MS ? 'expiring' : 'active';
}

/** Whole days left before the entry expires (0 on its last day or after). */
export function daysLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / DAY_MS));
}

/** A 0–1 rate as a percentage with one decimal; "—" without one. */
export function rateText(rate: number | null): string {
  return rate === null ? '—' : `${(Math.round(rate * 1000) / 10).toString()} %`;
}
