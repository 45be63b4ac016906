import type { ConfidenceReport, Intervention, InterventionKind } from 'gatehouse-hitl-core';
import type { TxContext } from '../db/schema.js';
import { int, parseJson } from './rows.js';

export async function insertConfidenceReport({ db }: TxContext, report: ConfidenceReport): Promise<void> {
  await db
    .insertInto('confidence_reports')
    .values({
      id: report.id,
      run_id: report.runId,
      agent_id: report.agentId,
      task_id: report.taskId,
      confidence: report.confidence,
      reasons: JSON.stringify(report.reasons),
      created_at: report.createdAt,
    })
    .execute();
}

export async function listConfidenceReports({ db }: TxContext, runId: string): Promise<ConfidenceReport[]> {
  const rows = await db
    .selectFrom('confidence_reports')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    runId: row.run_id,
    agentId: row.agent_id,
    taskId: row.task_id,
    confidence: Number(row.confidence),
    reasons: parseJson<string[]>(row.reasons),
    createdAt: int(row.created_at),
  }));
}

export async function insertIntervention({ db }: TxContext, intervention: Intervention): Promise<void> {
  await db
    .insertInto('interventions')
    .values({
      id: intervention.id,
      run_id: intervention.runId,
      kind: intervention.kind,
      instruction: intervention.instruction,
      actor: intervention.by,
      created_at: intervention.createdAt,
    })
    .execute();
}

export async function listInterventions(
  { db }: TxContext,
  runId: string,
  afterCreatedAt?: number,
): Promise<Intervention[]> {
  const rows = await db
    .selectFrom('interventions')
    .selectAll()
    .where('run_id', '=', runId)
    .$if(afterCreatedAt !== undefined, (q) => q.where('created_at', '>', afterCreatedAt ?? 0))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    runId: row.run_id,
    kind: row.kind as InterventionKind,
    instruction: row.instruction,
    by: row.actor,
    createdAt: int(row.created_at),
  }));
}
