import type { Gatehouse, GateResult, RequestOptions } from 'gatehouse-hitl-sdk';

/** An agent's request that is waiting for a person. */
export interface PendingRequest {
  /** The gate the server opened for it. */
  gateId: Promise<string>;
  /** What the agent receives once a person decided. */
  answer: Promise<GateResult>;
}

/**
 * Sends a request through the agent's SDK the way an agent would (`await gate.request(…)`),
 * giving the gate id as soon as the gate is open; waits at most `timeoutMs` for the answer.
 */
export function askAndWait(
  sdk: Gatehouse,
  request: Omit<RequestOptions, 'signal' | 'onGate'>,
  timeoutMs = 45_000,
): PendingRequest {
  let opened: (id: string) => void = () => undefined;
  let failed: (error: unknown) => void = () => undefined;
  const gateId = new Promise<string>((resolve, reject) => {
    opened = resolve;
    failed = reject;
  });
  const answer = sdk.request({
    ...request,
    signal: AbortSignal.timeout(timeoutMs),
    onGate: (id) => opened(id),
  });
  answer.then(
    (result) => failed(new Error(`the request was answered without a gate: ${result.outcome}`)),
    (error: unknown) => failed(error),
  );
  return { gateId, answer };
}
