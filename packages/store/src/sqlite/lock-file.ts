import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { GatehouseError } from 'gatehouse-hitl-core';

/** Held while a store has the database file open for writing. */
export interface LockFile {
  readonly path: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): { text: string; pid: number | null } | null {
  try {
    const text = readFileSync(path, 'utf8');
    const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
    return { text, pid: Number.isInteger(pid) && pid > 0 ? pid : null };
  } catch {
    return null;
  }
}

function tryCreate(path: string, content: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function inUse(path: string, pid: number): GatehouseError {
  return new GatehouseError(
    'SERVICE_UNAVAILABLE',
    `database is in use by process ${pid} (lock file ${path}); stop that process, or delete the lock file if no Gatehouse runs there`,
    { lockFile: path, pid },
  );
}

/**
 * Takes `<db>.lock`, created exclusively and holding our pid: a second writer (process or store) is
 * refused while the holder lives; a lock left by a dead process is taken over.
 */
export function acquireLockFile(path: string): LockFile {
  const content = `${process.pid}\n${randomUUID()}\n`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (tryCreate(path, content)) {
      return {
        path,
        release() {
          if (readHolder(path)?.text === content) unlinkSync(path);
        },
      };
    }
    const holder = readHolder(path);
    if (holder?.pid != null && isAlive(holder.pid)) throw inUse(path, holder.pid);
    try {
      unlinkSync(path);
    } catch {
      // someone else removed the stale lock first; try again
    }
  }
  throw new GatehouseError('SERVICE_UNAVAILABLE', `could not take the lock file ${path}; try again`, {
    lockFile: path,
  });
}
