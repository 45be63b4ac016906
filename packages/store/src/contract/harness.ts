import type { Store } from '../types.js';

/** One store under test, plus raw SQL on the same database (to tamper with rows the way an attacker would). */
export interface StoreHarness {
  store: Store;
  /** Runs one or more SQL statements on a connection of its own, outside the store. */
  execute(statements: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** Gives each contract test the harness of the store made for it. */
export interface ContractContext {
  harness(): StoreHarness;
}
