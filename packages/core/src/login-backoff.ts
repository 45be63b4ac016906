/** How quickly repeated wrong passwords slow a sign-in bucket down. */
export interface LoginBackoffPolicy {
  /** Wrong passwords in a row that cost nothing. */
  freeFailures: number;
  /** The first wait once the free ones are used up, in ms. @default 1000 */
  baseDelayMs: number;
  /** No wait is ever longer, so an owner is never kept out for long. @default 300000 */
  maxDelayMs: number;
}

/** One second, doubling to at most five minutes. */
export const DEFAULT_LOGIN_BACKOFF: Omit<LoginBackoffPolicy, 'freeFailures'> = {
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60 * 1000,
};

/**
 * How long a bucket stays closed after `failures` wrong passwords in a row: nothing while free
 * ones remain, then `baseDelayMs` doubling with each further failure, capped at `maxDelayMs`.
 * @example
 * loginBackoffMs(12, { freeFailures: 10, baseDelayMs: 1000, maxDelayMs: 300_000 }); // 4000
 */
export function loginBackoffMs(failures: number, policy: LoginBackoffPolicy): number {
  if (failures < Math.max(1, policy.freeFailures)) return 0;
  const doublings = Math.min(failures - Math.max(1, policy.freeFailures), 30);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** doublings);
}
