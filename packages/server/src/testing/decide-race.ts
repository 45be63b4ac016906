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

/** A race attempt sent to one node of a cluster. */
export interface NodeRaceAttempt extends RaceAttempt {
  node: number;
}

/**
 * Asserts what makes a decide race a race across nodes, whoever won it: every gate was asked on
 * every node, all its attempts were sent before the first one was answered, and every node other
 * than the winner's refused with 409 naming the winner. Which node wins is left to scheduling, so
 * it is not asserted: group commit and row locks make one node win long streaks of gates.
 */
export function expectRacedAcrossNodes<A extends NodeRaceAttempt>(
  races: readonly A[][],
  gateIds: readonly string[],
  winners: ReadonlyMap<string, A>,
  nodes: number,
): void {
  races.forEach((attempts, g) => {
    const gateId = gateIds[g] as string;
    const winner = winners.get(gateId) as A;
    const asked = new Set(attempts.map((a) => a.node));
    expect(asked.size, `${gateId}: nodes asked`).toBe(nodes);
    const lastSent = Math.max(...attempts.map((a) => a.result.sentAt));
    const firstAnswered = Math.min(...attempts.map((a) => a.result.answeredAt));
    expect(lastSent, `${gateId}: every attempt sent before the first answer`).toBeLessThanOrEqual(
      firstAnswered,
    );
    for (const node of asked) {
      if (node === winner.node) continue;
      const refused = attempts.filter(
        (a) =>
          a.node === node &&
          a.result.status === 409 &&
          a.result.body.error?.details?.winner?.decidedBy === winner.reviewer.id,
      );
      expect(
        refused.length,
        `${gateId}: node ${node} refused naming node ${winner.node}'s winner`,
      ).toBeGreaterThan(0);
    }
  });
}
