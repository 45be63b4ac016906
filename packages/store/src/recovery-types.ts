/** One analysis of a run in which a finding was still there: an attempt of its recovery. */
export interface RecoveryAttemptRecord {
  /** 1-based; restarts after a `retry` decision. */
  attempt: number;
  at: number;
  /** SHA-256 of what the file held at this attempt: the same fix twice is a loop. */
  fingerprint: string;
  line: number | null;
  message: string;
}

/** One analysis that touched a recovery's file: was the finding there, and what did the file hold. */
export interface RecoveryObservation {
  present: boolean;
  /** SHA-256 of the file after that change. */
  fingerprint: string;
  at: number;
}

/** The recovery of one laziness finding in one run, as stored. */
export interface RecoveryRecord {
  runId: string;
  /** pattern + file + name (or line): the same finding across analyses. */
  key: string;
  pattern: string;
  file: string;
  name: string | null;
  line: number | null;
  severity: string;
  status: 'recovering' | 'escalated' | 'resolved';
  attempts: number;
  /** Fingerprints of recent attempts, oldest first (core's loop detection reads them). */
  signatures: string[];
  history: RecoveryAttemptRecord[];
  /** The recovery_escalation gate, once escalated. */
  gateId: string | null;
  /** Why it escalated: core's trigger rule ids. */
  escalatedBy: string[];
  /**
   * What each analysis that touched the file saw, oldest first (the last few): the finding there or
   * gone, and the file's fingerprint. Absent from documents written before it was kept.
   */
  observations?: RecoveryObservation[];
  /** Results the agent reported per test of the finding, each since its file last changed, oldest first. */
  testOutcomes?: Record<string, ('pass' | 'fail')[]>;
  createdAt: number;
  updatedAt: number;
}

/** A finding a person confirmed as a false positive ("Legitimate" on its gate). */
export interface FalsePositiveRecord {
  id: string;
  pattern: string;
  runId: string | null;
  findingKey: string;
  file: string;
  gateId: string | null;
  confirmedBy: string;
  createdAt: number;
}

/** Recovery state per run and finding, and confirmed false positives per pattern. */
export interface RecoveriesRepo {
  insertRecovery(recovery: RecoveryRecord): Promise<void>;
  getRecovery(runId: string, key: string): Promise<(RecoveryRecord & { version: number }) | null>;
  /** Oldest first. */
  listRecoveries(runId: string): Promise<RecoveryRecord[]>;
  /** Writes `recovery` when the stored version still equals `expectedVersion`. */
  updateRecovery(recovery: RecoveryRecord, expectedVersion: number): Promise<boolean>;

  insertFalsePositive(record: FalsePositiveRecord): Promise<void>;
  /** Oldest first; every run's when `filter.runId` is not given. */
  listFalsePositives(filter: { pattern?: string; runId?: string }): Promise<FalsePositiveRecord[]>;
}
