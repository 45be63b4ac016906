import type { ReviewDocument, RunDocument as Run } from 'gatehouse-hitl-protocol';
import { lightRoutes } from 'gatehouse-hitl-protocol/rules';
import type { Transport } from './http.js';
import type {
  CheckpointOptions,
  CheckpointResult,
  CompleteRunOptions,
  CompleteRunResult,
  CreateRunOptions,
  GateResult,
} from './types.js';

/** Waits for a gate's answer (the client's long-poll, through reconnects and restarts). */
type WaitForGate = (gateId: string, signal: AbortSignal | undefined) => Promise<GateResult>;

/** Drops `undefined` fields so strict request bodies only see what the caller set. */
export function defined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}

/** Starts a run of the agent. */
export async function createRun(transport: Transport, options: CreateRunOptions): Promise<Run> {
  const { signal, ...fields } = options;
  const body = await transport.route(
    lightRoutes.runs.create,
    { body: defined(fields) },
    { signal, retry: 'safe' },
  );
  return body.run;
}

/** Reads a run. */
export async function getRun(
  transport: Transport,
  runId: string,
  signal: AbortSignal | undefined,
): Promise<Run> {
  const body = await transport.route(
    lightRoutes.runs.get,
    { params: { id: runId } },
    { signal, retry: 'always' },
  );
  return body.run;
}

async function readReview(
  transport: Transport,
  reviewId: string,
  signal: AbortSignal | undefined,
): Promise<ReviewDocument> {
  const body = await transport.route(
    lightRoutes.reviews.get,
    { params: { id: reviewId } },
    { signal, retry: 'always' },
  );
  return body.review;
}

/** Reports a phase boundary and, when the run freezes, waits for the phase review's answer. */
export async function checkpointRun(
  transport: Transport,
  options: CheckpointOptions,
  waitForGate: WaitForGate,
): Promise<CheckpointResult> {
  const { runId, signal, wait, onGate, ...fields } = options;
  const response = await transport.route(
    lightRoutes.runs.checkpoint,
    { params: { id: runId }, body: defined({ ...fields, jobComplete: fields.jobComplete ?? false }) },
    { signal, retry: 'safe' },
  );
  const gate = response.gate ?? null;
  const review = response.review ?? null;
  if (!response.freeze || gate === null || wait === false) {
    return { freeze: response.freeze, gateId: gate?.id ?? null, gate, outcome: null, review };
  }
  onGate?.(gate.id, gate);
  const outcome = await waitForGate(gate.id, signal);
  const decided = review === null ? null : await readReview(transport, review.id, signal);
  return { freeze: true, gateId: gate.id, gate: outcome.gate, outcome, review: decided };
}

/** Ends a run and, when its autonomy asks for a final review, waits for that review's answer. */
export async function completeRun(
  transport: Transport,
  runId: string,
  options: CompleteRunOptions,
  waitForGate: WaitForGate,
): Promise<CompleteRunResult> {
  const { signal, wait, onGate } = options;
  const response = await transport.route(
    lightRoutes.runs.complete,
    { params: { id: runId }, body: {} },
    { signal, retry: 'safe' },
  );
  const gate = response.gate ?? null;
  if (gate === null || gate.status !== 'pending' || wait === false)
    return { run: response.run, gate, outcome: null };
  onGate?.(gate.id, gate);
  const outcome = await waitForGate(gate.id, signal);
  return { run: await getRun(transport, runId, signal), gate: outcome.gate, outcome };
}
