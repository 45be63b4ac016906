/** Where time comes from; core never reads the system clock itself. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Where ids come from; core never generates randomness itself. */
export interface IdGenerator {
  next(prefix: string): string;
}

/** A clock that only moves when told to, for tests and simulations. */
export function createFakeClock(
  startMs = Date.UTC(2026, 0, 1),
): Clock & { advance(ms: number): void; set(ms: number): void } {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms: number) => {
      current += ms;
    },
    set: (ms: number) => {
      current = ms;
    },
  };
}

/** Deterministic ids (`gate_1`, `gate_2`, …) for tests. */
export function createSequentialIds(): IdGenerator {
  const counters = new Map<string, number>();
  return {
    next(prefix: string) {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${n}`;
    },
  };
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}
