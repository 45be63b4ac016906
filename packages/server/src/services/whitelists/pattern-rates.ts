import type { FalsePositiveRecord, PatternCounts } from 'gatehouse-hitl-store';
import type { CommitTools, WorkTx } from '../commit.js';

/** Over this false-positive rate a pattern's owners hear of it (seed 001: "Notify … if > 10 %"). */
export const FALSE_POSITIVE_ALERT_RATE = 0.1;
/** Confirmed examples per pattern the learning compares a finding with, newest first. */
const EXAMPLES_PER_PATTERN = 50;

export const RATE_ACTOR = 'system:analysis';

/** One pattern's detections, confirmed false positives and suppressions. */
export interface PatternStats {
  pattern: string;
  detections: number;
  falsePositives: number;
  falsePositiveRate: number | null;
  suppressed: number;
  examples: number;
  alerting: boolean;
}

export function falsePositiveRate(detections: number, falsePositives: number): number | null {
  return detections === 0 ? null : falsePositives / detections;
}

function byPattern(records: readonly FalsePositiveRecord[]): Map<string, FalsePositiveRecord[]> {
  const map = new Map<string, FalsePositiveRecord[]>();
  for (const record of records) map.set(record.pattern, [...(map.get(record.pattern) ?? []), record]);
  return map;
}

/** Every pattern seen in detections or confirmed false positives, by pattern id. */
export async function patternStats(tx: WorkTx): Promise<PatternStats[]> {
  const counts = new Map<string, PatternCounts>(
    (await tx.countDetections()).map((row) => [row.pattern, row]),
  );
  const confirmed = byPattern(await tx.listFalsePositives({}));
  const patterns = [...new Set([...counts.keys(), ...confirmed.keys()])].sort();
  return Promise.all(
    patterns.map(async (pattern) => {
      const detections = counts.get(pattern)?.detections ?? 0;
      const falsePositives = confirmed.get(pattern)?.length ?? 0;
      return {
        pattern,
        detections,
        falsePositives,
        falsePositiveRate: falsePositiveRate(detections, falsePositives),
        suppressed: counts.get(pattern)?.suppressed ?? 0,
        examples: (await learnedExamples(tx, pattern)).length,
        alerting: (await tx.getPatternAlert(pattern)) !== null,
      };
    }),
  );
}

/** The snippets of a pattern's confirmed false positives, as last detected before confirmation, newest first. */
export async function learnedExamples(tx: WorkTx, pattern: string): Promise<string[]> {
  const confirmed = (await tx.listFalsePositives({ pattern })).reverse().slice(0, EXAMPLES_PER_PATTERN);
  const snippets: string[] = [];
  for (const record of confirmed) {
    if (record.runId === null) continue;
    // The code as it was when the person judged it: later detections of the key are not confirmed.
    const detection = (await tx.listDetections({ runId: record.runId, findingKey: record.findingKey })).find(
      (candidate) => candidate.createdAt <= record.createdAt,
    );
    if (detection !== undefined && detection.snippet !== '') snippets.push(detection.snippet);
  }
  return snippets;
}

/**
 * Announces a pattern whose false-positive rate went over 10 % (an event and an audit entry), once
 * per crossing: it must fall back under before it is announced again.
 */
export async function checkPatternRate(tools: CommitTools, pattern: string): Promise<void> {
  const { tx } = tools;
  const detections = (await tx.countDetections()).find((row) => row.pattern === pattern)?.detections ?? 0;
  const falsePositives = (await tx.listFalsePositives({ pattern })).length;
  const rate = falsePositiveRate(detections, falsePositives);
  const over = rate !== null && rate > FALSE_POSITIVE_ALERT_RATE;
  const alerted = (await tx.getPatternAlert(pattern)) !== null;
  if (over === alerted) return;
  await tx.setPatternAlert(pattern, over ? tx.now : null);
  if (!over) return;
  const data = { pattern, detections, falsePositives, rate, threshold: FALSE_POSITIVE_ALERT_RATE };
  await tools.audit({ kind: 'analysis.false_positive_rate', actor: RATE_ACTOR, subject: pattern, data });
  await tools.emit({ type: 'analysis.false_positive_rate', runId: null, agentId: null, gateId: null, data });
}
