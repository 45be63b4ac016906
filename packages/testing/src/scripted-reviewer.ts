import type { DecideBody, GateDocument } from 'gatehouse-hitl-protocol';

/** What a scripted reviewer answers for one pending gate; `null` leaves it for someone else. */
export type ReviewScript = (gate: GateDocument) => DecideBody | null | Promise<DecideBody | null>;

/** One decision a scripted reviewer sent, and what the server said. */
export interface ScriptedDecision {
  gateId: string;
  body: DecideBody;
  /** The server's error code when it refused the decision (a gate already decided, say). */
  refused: string | null;
}

export interface ScriptedReviewer {
  readonly name: string;
  readonly userId: string;
  /** Every decision sent so far, in order. */
  readonly decisions: readonly ScriptedDecision[];
  /** Stops watching; resolves once a pass in progress has finished. */
  stop(): Promise<void>;
}

export interface ReviewerLoop {
  /** The pending gates this reviewer may see. */
  pending(): Promise<GateDocument[]>;
  /** Sends one decision; resolves to the refusal code, or null when accepted. */
  decide(gateId: string, body: DecideBody): Promise<string | null>;
  pollMs: number;
}

/**
 * Watches the pending gates and answers each once, as the script says, until stopped. Polling (not
 * the event stream) keeps a test's reviewer independent of stream reconnects and clock jumps.
 */
export function runScriptedReviewer(
  identity: { name: string; userId: string },
  script: ReviewScript,
  loop: ReviewerLoop,
): ScriptedReviewer {
  const decisions: ScriptedDecision[] = [];
  const seen = new Set<string>();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let pass: Promise<void> = Promise.resolve();

  async function review(): Promise<void> {
    for (const gate of await loop.pending()) {
      if (stopped) return;
      if (seen.has(gate.id)) continue;
      seen.add(gate.id);
      const body = await script(gate);
      if (body === null) continue;
      decisions.push({ gateId: gate.id, body, refused: await loop.decide(gate.id, body) });
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = review()
        .catch(() => {
          // The server may be closing while the test ends; the next pass tries again.
        })
        .finally(schedule);
    }, loop.pollMs);
  }
  schedule();

  return {
    ...identity,
    decisions,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await pass;
    },
  };
}
