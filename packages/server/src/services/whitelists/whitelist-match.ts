import type { ChangeFacts, Finding } from 'gatehouse-hitl-analysis';
import type { WhitelistRecord } from 'gatehouse-hitl-store';

/** Days an entry suppresses its pattern before it needs a person's review again. */
export const WHITELIST_DAYS = 90;
export const WHITELIST_MS = WHITELIST_DAYS * 86_400_000;

/** `**` crosses folders, `*` and `?` stay inside one; everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** True while the entry suppresses: before its expiry. */
export function isActive(entry: Pick<WhitelistRecord, 'expiresAt'>, now: number): boolean {
  return now < entry.expiresAt;
}

/** True when the active `entry` covers this finding of this agent. */
export function covers(
  entry: WhitelistRecord,
  finding: Pick<Finding, 'pattern' | 'file'>,
  context: { agentId: string | null; now: number },
): boolean {
  if (!isActive(entry, context.now) || entry.pattern !== finding.pattern) return false;
  if (entry.agentId !== null && entry.agentId !== context.agentId) return false;
  return entry.scope === 'global' || (entry.path !== null && globToRegExp(entry.path).test(finding.file));
}

/** A finding an entry suppressed, with the entry's id. */
export interface Suppressed<F> {
  finding: F;
  entryId: string;
}

/** Splits findings into those that stay and those an active entry covers (file entries before global ones). */
export function partitionFindings<F extends Pick<Finding, 'pattern' | 'file'>>(
  entries: readonly WhitelistRecord[],
  findings: readonly F[],
  context: { agentId: string | null; now: number },
): { kept: F[]; suppressed: Suppressed<F>[] } {
  const ordered = [...entries].sort((a, b) => (a.scope === b.scope ? 0 : a.scope === 'file' ? -1 : 1));
  const kept: F[] = [];
  const suppressed: Suppressed<F>[] = [];
  for (const finding of findings) {
    const entry = ordered.find((candidate) => covers(candidate, finding, context));
    if (entry === undefined) kept.push(finding);
    else suppressed.push({ finding, entryId: entry.id });
  }
  return { kept, suppressed };
}

const FACT_OF_KIND: Partial<Record<Finding['kind'], keyof ChangeFacts>> = {
  test_removed: 'testsRemoved',
  assertion_removed: 'assertionsRemoved',
  assertion_weakened: 'assertionsWeakened',
  skip_added: 'skipPatternsAdded',
  export_removed: 'featuresRemoved',
  laziness: 'lazinessFindings',
};

/** The change's facts without what suppressed findings counted, so a whitelisted deletion opens no gate. */
export function factsWithout(facts: ChangeFacts, suppressed: readonly Pick<Finding, 'kind'>[]): ChangeFacts {
  const next = { ...facts };
  for (const { kind } of suppressed) {
    const field = FACT_OF_KIND[kind];
    if (field === undefined || field === 'coverageDelta') continue;
    next[field] = Math.max(0, next[field] - 1);
  }
  return next;
}
