import { ApprovalNotGranted, approvalErrorFor } from './errors.js';
import type { GateResult, RequestOptions } from './types.js';

/** The gate type, event and operation of a question to a person. */
export const QUESTION = 'question';

/** The longest title a gate takes; longer questions are shortened there and kept whole in the context. */
const TITLE_MAX = 500;

/** Options of `ask`. */
export interface AskOptions {
  runId?: string | undefined;
  /** Shown to the person with the question. */
  context?: Record<string, unknown> | undefined;
  /** Seconds to wait for an answer before the question times out; the server's default when absent. */
  timeoutSeconds?: number | undefined;
  /**
   * Sent as `Idempotency-Key`, so a restarted agent gets the same question back.
   * @default a random UUID per call
   */
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Called once the question is open, before waiting (e.g. to say where to answer it). */
  onGate?: RequestOptions['onGate'];
}

/** The request that asks `question`. */
export function questionRequest(question: string, options: AskOptions = {}): RequestOptions {
  const text = question.trim();
  if (text === '') throw new TypeError('ask: the question must not be empty');
  const title = text.length <= TITLE_MAX ? text : `${text.slice(0, TITLE_MAX - 1)}…`;
  return {
    operation: QUESTION,
    event: QUESTION,
    gateType: QUESTION,
    title,
    context: { ...options.context, question: text },
    runId: options.runId,
    timeoutSeconds: options.timeoutSeconds,
    idempotencyKey: options.idempotencyKey,
    signal: options.signal,
    onGate: options.onGate,
  };
}

/** The answer text, or the error for a question declined (ApprovalDenied), timed out or cancelled. */
export function answerOf(result: GateResult): string {
  if (result.option === 'answer' && result.answer !== null) return result.answer;
  if (result.outcome === 'denied' || result.outcome === 'timed_out') throw approvalErrorFor(result);
  throw new ApprovalNotGranted(result, `the question was not answered (${result.outcome})`);
}
