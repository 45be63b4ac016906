import { expect } from 'vitest';
import type { HttpResult } from './http-client.js';
import type { TestPerson } from './listening-app.js';

/** One reviewer's try at deciding one gate. */
export interface RaceAttempt {
  reviewer: TestPerson;
  option: 'approve' | 'reject';
  result: HttpResult;
}

/**
 * Asserts each gate had exactly one winning decision, by the reviewer the gate records, and that
 * every other attempt got 409 GATE_ALREADY_DECIDED naming that winner. Returns the winners by gate.
 */
export function expectOneWinnerEach<A extends RaceAttempt>(
  races: readonly A[][],
  gateIds: readonly string[],
): Map<string, A> {
  const winners = new Map<string, A>();
  races.forEach((attempts, g) => {
    const gateId = gateIds[g] as string;
    const won = attempts.filter((a) => a.result.status === 200);
    expect(won, `${gateId}: ${JSON.stringify(attempts.map((a) => a.result.body))}`).toHaveLength(1);
    const winner = won[0] as A;
    winners.set(gateId, winner);
    expect(winner.result.body.decision).toMatchObject({ decidedBy: winner.reviewer.id });
    for (const lost of attempts.filter((a) => a !== winner)) {
      expect(lost.result.status).toBe(409);
      expect(lost.result.body.error).toMatchObject({
        code: 'GATE_ALREADY_DECIDED',
        details: { gateId, winner: { decidedBy: winner.reviewer.id } },
      });
    }
  });
  return winners;
}
