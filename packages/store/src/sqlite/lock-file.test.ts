import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLockFile } from './lock-file.js';

function startIdleProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 999_999;
}

describe('lock file', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  function lockPath(): string {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-lock-'));
    dirs.push(dir);
    return join(dir, 'gatehouse.db.lock');
  }

  it('is taken with our pid and removed on release', () => {
    const path = lockPath();
    const lock = acquireLockFile(path);
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe(String(process.pid));
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('refuses while another live process holds it', () => {
    const path = lockPath();
    const other = startIdleProcess();
    children.push(other);
    writeFileSync(path, `${other.pid}\nnonce\n`);
    expect(() => acquireLockFile(path)).toThrow(
      expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', details: { lockFile: path, pid: other.pid } }),
    );
    expect(readFileSync(path, 'utf8')).toBe(`${other.pid}\nnonce\n`);
  });

  it('takes over a lock left by a process that died', async () => {
    const path = lockPath();
    writeFileSync(path, `${await deadPid()}\nnonce\n`);
    const lock = acquireLockFile(path);
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe(String(process.pid));
    lock.release();
  });

  it('does not remove a lock that someone else holds by now', () => {
    const path = lockPath();
    const lock = acquireLockFile(path);
    writeFileSync(path, '12345\nsomeone-else\n');
    lock.release();
    expect(existsSync(path)).toBe(true);
  });
});
