import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Written in the data dir by a running server, readable by its owner only. */
export const HOST_FILE = 'server.json';

/** What a running server tells other processes on its host, through its data dir. */
export interface HostFile {
  /** Where people open links: the public URL, or the address it listens on. */
  url: string;
  /** Where a process on this host reaches the server itself. */
  localUrl: string;
  pid: number;
  /** Accepted by `POST /v1/host/login-link`; new on every start. */
  secret: string;
}

/** A new host secret (256 bits). */
export function createHostSecret(): string {
  return `ghh_${randomBytes(32).toString('base64url')}`;
}

/** Writes the file with mode 0600; a rename makes it appear whole. */
export async function writeHostFile(dataDir: string, file: HostFile): Promise<void> {
  const path = join(dataDir, HOST_FILE);
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(file)}\n`, { mode: 0o600, flag: 'wx' });
  await rename(partial, path);
}

/** Removes the file if it is still this server's. */
export async function removeHostFile(dataDir: string, secret: string): Promise<void> {
  const current = await readHostFile(dataDir);
  if (current?.secret === secret) await rm(join(dataDir, HOST_FILE), { force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The file of the server running on `dataDir`, or null when there is none or its process is gone. */
export async function readHostFile(dataDir: string): Promise<HostFile | null> {
  let text: string;
  try {
    text = await readFile(join(dataDir, HOST_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let file: Partial<HostFile>;
  try {
    file = JSON.parse(text) as Partial<HostFile>;
  } catch {
    return null;
  }
  const { url, localUrl, pid, secret } = file;
  if (typeof url !== 'string' || typeof localUrl !== 'string' || typeof secret !== 'string') return null;
  if (typeof pid !== 'number' || !isRunning(pid)) return null;
  return { url, localUrl, pid, secret };
}
