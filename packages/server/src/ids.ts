import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from 'gatehouse-hitl-core';

/** Random bytes per id: 80 bits, 14 characters. */
const ID_BYTES = 10;
/** Ids drawn from one fill of the pool: one call into the random source per 410 ids instead of per id. */
const POOL_IDS = 410;

/** Random, sortable-enough ids such as `gate_01j…`: a time prefix keeps listings in creation order. */
export function createRandomIds(): IdGenerator {
  const pool = Buffer.alloc(ID_BYTES * POOL_IDS);
  let offset = pool.length;
  return {
    next(prefix: string) {
      if (offset === pool.length) {
        randomFillSync(pool);
        offset = 0;
      }
      const random = pool.toString('base64url', offset, offset + ID_BYTES);
      offset += ID_BYTES;
      const time = Date.now().toString(36).padStart(9, '0');
      return `${prefix}_${time}${random.replace(/[-_]/g, 'x')}`;
    },
  };
}
