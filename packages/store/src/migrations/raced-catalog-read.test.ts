import { describe, expect, it } from 'vitest';
import { racedCatalogRead } from './index.js';

describe('racedCatalogRead', () => {
  it('retries the catalog reads that only raced another schema being dropped', () => {
    expect(racedCatalogRead({ code: '3F000', message: 'schema "gh_test_1" does not exist' })).toBe(true);
    expect(racedCatalogRead({ code: '42P01', message: 'relation does not exist' })).toBe(true);
    expect(racedCatalogRead({ code: 'XX000', message: 'cache lookup failed for namespace 695931' })).toBe(
      true,
    );
    expect(racedCatalogRead({ code: 'XX000', message: 'cache lookup failed for relation 16384' })).toBe(true);
  });

  it('never retries other failures', () => {
    expect(racedCatalogRead({ code: 'XX000', message: 'could not write block 7 of temporary file' })).toBe(
      false,
    );
    expect(racedCatalogRead({ code: '23505', message: 'duplicate key value' })).toBe(false);
    expect(racedCatalogRead(new Error('cache lookup failed for namespace 1'))).toBe(false);
    expect(racedCatalogRead(undefined)).toBe(false);
  });
});
