import type { Store, StoreTx, UnitOptions } from 'gatehouse-hitl-store';

/**
 * Makes every conditional update of run `runId` lose, for real: just before it, another write of
 * the same run lands in the database and moves its version on. Returns what undoes it.
 */
export function loseRunUpdates(store: Store, runId: string): () => void {
  const transaction = store.transaction;
  const interfering = <T>(work: (tx: StoreTx) => Promise<T>, unit?: UnitOptions): Promise<T> =>
    transaction.call(
      store,
      (tx: StoreTx) => {
        // The transaction's methods live on its prototype: derive from it rather than copy it.
        const interfered: StoreTx = Object.create(tx);
        interfered.updateRun = async (run, expectedVersion) => {
          const current = run.id === runId ? await tx.getRun(runId) : null;
          if (current !== null) {
            const { version, ...stored } = current;
            await tx.updateRun(stored, version);
          }
          return tx.updateRun(run, expectedVersion);
        };
        return work(interfered);
      },
      unit,
    ) as Promise<T>;
  store.transaction = interfering;
  return () => {
    store.transaction = transaction;
  };
}
