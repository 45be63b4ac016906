import { randomBytes } from 'node:crypto';
import type { IdGenerator } from 'gatehouse-hitl-core';

/** Random, sortable-enough ids such as `gate_01j…`: a time prefix keeps listings in creation order. */
export function createRandomIds(): IdGenerator {
  return {
    next(prefix: string) {
      const time = Date.now().toString(36).padStart(9, '0');
      return `${prefix}_${time}${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x')}`;
    },
  };
}
