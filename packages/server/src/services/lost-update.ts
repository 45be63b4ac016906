import { GatehouseError } from 'gatehouse-hitl-core';

const ATTEMPTS = 5;

/** What lost a conditional update: the object another writer changed first. */
export interface UpdateSubject {
  kind: 'gate' | 'run';
  id: string;
}

/** Thrown when a conditional update lost to another writer; `retryLostUpdates` tries the step again. */
export class LostUpdate extends Error {
  constructor(readonly subject: UpdateSubject) {
    super(`${subject.kind} ${subject.id} changed underneath`);
  }
}

/** Throws `LostUpdate` for `subject` unless the conditional update wrote its row. */
export function assertWritten(written: boolean, subject: UpdateSubject): void {
  if (!written) throw new LostUpdate(subject);
}

/**
 * Runs `step` again each time its conditional update loses (it throws `LostUpdate`); after five
 * lost tries the request fails with CONFLICT naming the object to read again. A step that is a
 * whole commit rolls back before each new try; a step inside a transaction re-reads the row.
 */
export async function retryLostUpdates<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof LostUpdate)) throw error;
      if (attempt >= ATTEMPTS) throw conflict(error.subject);
    }
  }
}

function conflict({ kind, id }: UpdateSubject): GatehouseError {
  return new GatehouseError('CONFLICT', `${kind} ${id} kept changing underneath; read it again and retry`, {
    [`${kind}Id`]: id,
  });
}
