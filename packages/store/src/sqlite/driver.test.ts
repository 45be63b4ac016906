import { describe, expect, it } from 'vitest';
import { loadSqliteDriver, sqliteDriverMajor, sqliteDriverVersion } from './driver.js';

describe('the SQLite driver per Node.js line', () => {
  it.each<[string | undefined, 12 | 13, string]>([
    ['9', 12, 'Node 20 and Node 22 before 22.14: 13 segfaults there'],
    ['10', 13, 'Node 22.14 and later, 24, 26: 12 aborts on 24.19 and later'],
    ['11', 13, 'a later Node-API'],
    [undefined, 12, 'a runtime that reports no Node-API version'],
  ])('picks for Node-API %s better-sqlite3 %i (%s)', (napi, major) => {
    expect(sqliteDriverMajor(napi)).toBe(major);
  });

  it('loads the major picked for this runtime, installed under its own name', () => {
    const { major } = loadSqliteDriver();
    expect(major).toBe(sqliteDriverMajor(process.versions.napi));
    expect(sqliteDriverVersion(major).split('.')[0]).toBe(String(major));
  });

  it('opens a database with the loaded build', () => {
    const db = new (loadSqliteDriver().driver)(':memory:');
    try {
      expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    } finally {
      db.close();
    }
  });
});
