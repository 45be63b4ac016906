/** Days an entry suppresses its pattern before it needs a person's review again. */
export const WHITELIST_DAYS = 90;
export const WHITELIST_MS = WHITELIST_DAYS * 86_400_000;

/** What matching reads of a whitelist entry. */
export interface WhitelistScope {
  id: string;
  /** A finding pattern id, e.g. `lazy.error_swallowed`. */
  pattern: string;
  scope: 'global' | 'file';
  /** The glob of the files a `file` entry covers; null for `global`. */
  path: string | null;
  /** Only this agent's findings; null for every agent. */
  agentId: string | null;
  expiresAt: number;
}

/** What matching reads of a finding. */
export interface WhitelistedFinding {
  pattern: string;
  file: string;
}

/** The agent whose change it is, and the time. */
export interface WhitelistContext {
  agentId: string | null;
  now: number;
}

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
export function isWhitelistActive(entry: Pick<WhitelistScope, 'expiresAt'>, now: number): boolean {
  return now < entry.expiresAt;
}

/** True when the active `entry` covers this finding of this agent. */
export function whitelistCovers(
  entry: WhitelistScope,
  finding: WhitelistedFinding,
  context: WhitelistContext,
): boolean {
  if (!isWhitelistActive(entry, context.now) || entry.pattern !== finding.pattern) return false;
  if (entry.agentId !== null && entry.agentId !== context.agentId) return false;
  return entry.scope === 'global' || (entry.path !== null && globToRegExp(entry.path).test(finding.file));
}

/** A finding an entry suppressed, with the entry's id. */
export interface Suppressed<F> {
  finding: F;
  entryId: string;
}

/** Splits findings into those that stay and those an active entry covers (file entries before global ones). */
export function partitionFindings<F extends WhitelistedFinding>(
  entries: readonly WhitelistScope[],
  findings: readonly F[],
  context: WhitelistContext,
): { kept: F[]; suppressed: Suppressed<F>[] } {
  const ordered = [...entries].sort((a, b) => (a.scope === b.scope ? 0 : a.scope === 'file' ? -1 : 1));
  const kept: F[] = [];
  const suppressed: Suppressed<F>[] = [];
  for (const finding of findings) {
    const entry = ordered.find((candidate) => whitelistCovers(candidate, finding, context));
    if (entry === undefined) kept.push(finding);
    else suppressed.push({ finding, entryId: entry.id });
  }
  return { kept, suppressed };
}

/** The counts of a change that a suppressed finding is taken out of. */
export type SuppressibleFacts = Record<
  | 'testsRemoved'
  | 'assertionsRemoved'
  | 'assertionsWeakened'
  | 'skipPatternsAdded'
  | 'featuresRemoved'
  | 'lazinessFindings',
  number
>;

/** The count of a change each kind of finding adds to. */
const FACT_OF_KIND = new Map<string, keyof SuppressibleFacts>([
  ['test_removed', 'testsRemoved'],
  ['assertion_removed', 'assertionsRemoved'],
  ['assertion_weakened', 'assertionsWeakened'],
  ['skip_added', 'skipPatternsAdded'],
  ['export_removed', 'featuresRemoved'],
  ['laziness', 'lazinessFindings'],
]);

/** The change's facts without what suppressed findings counted, so a whitelisted deletion opens no gate. */
export function factsWithout<F extends SuppressibleFacts>(
  facts: F,
  suppressed: readonly { kind: string }[],
): F {
  const next = { ...facts };
  for (const { kind } of suppressed) {
    const field = FACT_OF_KIND.get(kind);
    if (field === undefined) continue;
    next[field] = Math.max(0, next[field] - 1) as F[typeof field];
  }
  return next;
}
