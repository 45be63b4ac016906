/**
 * The occurrences present after a change and not before. Matching runs key by key, strictest first:
 * an occurrence whose exact key (say, a suppression and the line it covers) is gone may still match
 * by a looser key (the same suppression in the same function), so edits around kept code don't count.
 */
export function addedOccurrences<T>(
  before: readonly T[],
  after: readonly T[],
  keys: readonly ((item: T) => string)[],
): T[] {
  let unmatchedBefore = [...before];
  let unmatchedAfter = [...after];
  for (const key of keys) {
    const counts = new Map<string, number>();
    for (const item of unmatchedBefore) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
    const stillAfter: T[] = [];
    const matched = new Map<string, number>();
    for (const item of unmatchedAfter) {
      const k = key(item);
      const left = counts.get(k) ?? 0;
      if (left > 0) {
        counts.set(k, left - 1);
        matched.set(k, (matched.get(k) ?? 0) + 1);
      } else {
        stillAfter.push(item);
      }
    }
    const stillBefore: T[] = [];
    for (const item of unmatchedBefore) {
      const k = key(item);
      const used = matched.get(k) ?? 0;
      if (used > 0) matched.set(k, used - 1);
      else stillBefore.push(item);
    }
    unmatchedBefore = stillBefore;
    unmatchedAfter = stillAfter;
  }
  return unmatchedAfter;
}
