import { approvalErrorFor, GatehouseApiError } from './errors.js';
import type { ActionSpec, GateResult, RequestOptions } from './types.js';

/** Request fields a wrapper adds to every call (run, risk, timeout, context, …). */
export type ApprovalRequestFields = Omit<RequestOptions, 'tool' | 'operation' | 'args'>;

/** How a wrapped function asks: which tool it is and which of its arguments the approval binds to. */
export interface ApprovalSpec<A extends unknown[]> {
  tool?: string;
  operation?: string | ((...args: A) => string);
  /**
   * The arguments the approval binds to, from the call's arguments.
   * @default the single object argument, or `{ args: [...] }`
   */
  args?: (...args: A) => Record<string, unknown>;
  /**
   * The call's arguments rebuilt from arguments a person edited before approving; needed with a
   * custom `args` (without it an edited approval is refused rather than run as proposed).
   * @default the edited object as the single argument, or its `args` array spread
   */
  fromArgs?: (edited: Record<string, unknown>, ...original: A) => A;
  /**
   * `throw` raises ApprovalDenied / ApprovalSteered / ApprovalTimedOut; `result` returns `{ ok: false, … }`.
   * @default 'throw'
   */
  mode?: 'throw' | 'result';
  /** Extra request fields, fixed or per call. */
  request?: ApprovalRequestFields | ((...args: A) => ApprovalRequestFields);
}

/** What a wrapper in `result` mode returns. */
export type ApprovalOutcome<R> =
  | { ok: true; value: R; approval: GateResult }
  | {
      ok: false;
      outcome: GateResult['outcome'];
      reason: string | null;
      instructions: string | null;
      feedback: string | null;
      approval: GateResult;
    };

/** What the wrapper needs from the client. */
export interface ApprovalClient {
  request(options: RequestOptions): Promise<GateResult>;
  consume(
    result: GateResult,
    action: ActionSpec,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<void>;
}

function defaultArgs(...args: unknown[]): Record<string, unknown> {
  const [first] = args;
  if (args.length === 1 && first !== null && typeof first === 'object' && !Array.isArray(first)) {
    return first as Record<string, unknown>;
  }
  return { args };
}

function actionOf<A extends unknown[]>(spec: ApprovalSpec<A>, callArgs: A): ActionSpec {
  const operation = typeof spec.operation === 'function' ? spec.operation(...callArgs) : spec.operation;
  return { tool: spec.tool, operation, args: (spec.args ?? defaultArgs)(...callArgs) };
}

function editedCallArgs<A extends unknown[]>(spec: ApprovalSpec<A>, approval: GateResult, callArgs: A): A {
  const edited = approval.args ?? {};
  if (spec.fromArgs !== undefined) return spec.fromArgs(edited, ...callArgs);
  if (spec.args === undefined) {
    const single = callArgs.length === 1 && defaultArgs(...callArgs) === callArgs[0];
    if (single) return [edited] as unknown as A;
    if (Array.isArray(edited.args)) return edited.args as A;
  }
  throw new GatehouseApiError(
    'PAYLOAD_MISMATCH',
    `gate ${approval.gateId ?? '(none)'} approved edited arguments; give withApproval a fromArgs to run them`,
    { status: 409, details: { gateId: approval.gateId, field: 'fromArgs' } },
  );
}

/**
 * Wraps `fn` so that each call requests approval, and runs `fn` only when approved and only if
 * its arguments still hash to what was approved (a one-off approval is consumed first). When a
 * person edited the arguments, `fn` runs with the edited arguments.
 */
export function wrapWithApproval<A extends unknown[], R>(
  client: ApprovalClient,
  fn: (...args: A) => Promise<R> | R,
  spec: ApprovalSpec<A>,
): (...args: A) => Promise<R | ApprovalOutcome<R>> {
  return async (...callArgs: A) => {
    const extra = typeof spec.request === 'function' ? spec.request(...callArgs) : (spec.request ?? {});
    const approval = await client.request({ ...extra, ...actionOf(spec, callArgs) });
    if (approval.outcome !== 'approved') {
      if (spec.mode !== 'result') throw approvalErrorFor(approval);
      const { outcome, reason, instructions, feedback } = approval;
      return { ok: false, outcome, reason, instructions, feedback, approval };
    }
    const runArgs = approval.edited ? editedCallArgs(spec, approval, callArgs) : callArgs;
    // The arguments are read again: an object changed while the person was deciding is refused.
    await client.consume(approval, actionOf(spec, runArgs), extra.signal ? { signal: extra.signal } : {});
    const value = await fn(...runArgs);
    return spec.mode === 'result' ? { ok: true, value, approval } : value;
  };
}
