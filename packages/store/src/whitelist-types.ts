/** A pattern people allowed, everywhere or in the files a glob matches, for a while (90 days). */
export interface WhitelistRecord {
  id: string;
  /** A finding pattern id, e.g. `lazy.error_swallowed`. */
  pattern: string;
  scope: 'global' | 'file';
  /** The glob of the files a `file` entry covers; null for `global`. */
  path: string | null;
  /** Only this agent's findings; null for every agent. */
  agentId: string | null;
  justification: string;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  /** When a person last renewed it. */
  reviewedAt: number | null;
  /** The re-review gate opened once it expired, until renewed. */
  reviewGateId: string | null;
  /** The false_positive_override gate whose `whitelist` decision created it. */
  sourceGateId: string | null;
  /** Findings it suppressed. */
  suppressed: number;
}

/** One finding the analysis reported in a run, kept for the per-pattern rates and the learning. */
export interface DetectionRecord {
  id: string;
  pattern: string;
  runId: string | null;
  findingKey: string;
  file: string;
  /** The normalised text around the finding. */
  snippet: string;
  confidence: number;
  /** The whitelist entry that suppressed it. */
  suppressedBy: string | null;
  createdAt: number;
}

/** Detections and suppressions of one pattern. */
export interface PatternCounts {
  pattern: string;
  detections: number;
  suppressed: number;
}

/** Whitelist entries, detections per pattern and the false-positive-rate alerts. */
export interface WhitelistsRepo {
  insertWhitelist(entry: WhitelistRecord): Promise<void>;
  getWhitelist(id: string): Promise<WhitelistRecord | null>;
  /** Oldest first. */
  listWhitelists(): Promise<WhitelistRecord[]>;
  /** Writes every field but id, pattern and createdAt; false when the entry is gone. */
  updateWhitelist(entry: WhitelistRecord): Promise<boolean>;
  /** Records the entry's re-review gate unless another writer already did: false then (the fence). */
  setWhitelistReviewGate(id: string, gateId: string): Promise<boolean>;
  /** Adds `by` to the entry's `suppressed` count in one statement (no lost increments). */
  addWhitelistSuppressed(id: string, by: number): Promise<void>;
  deleteWhitelist(id: string): Promise<boolean>;

  insertDetections(records: readonly DetectionRecord[]): Promise<void>;
  /** Newest first. */
  listDetections(filter: {
    pattern?: string;
    runId?: string;
    findingKey?: string;
  }): Promise<DetectionRecord[]>;
  /** Per pattern, by pattern id. */
  countDetections(): Promise<PatternCounts[]>;

  /** When the pattern's false-positive rate last went over the alert threshold; null while under it. */
  getPatternAlert(pattern: string): Promise<number | null>;
  /** Marks the pattern over the threshold (`at`) or back under it (null). */
  setPatternAlert(pattern: string, at: number | null): Promise<void>;
}
