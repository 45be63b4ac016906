// Runs a server in a child process (so the load generator's CPU is not counted against it) and talks to it over IPC.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The child's resident memory in bytes, from /proc/<pid>/status (VmRSS). */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (match === null) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

let ticksPerSecond = null;

/** CPU time (user + system) the process has used so far, in milliseconds, from /proc/<pid>/stat. */
export function cpuOf(pid) {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/**
 * Bytes the process has caused to be written to storage so far, from /proc/<pid>/io (`write_bytes`):
 * counted when a page is dirtied, so a file that is never synced counts as much as one synced at once.
 */
export function writtenOf(pid) {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const match = /^write_bytes:\s+(\d+)$/m.exec(io);
  if (match === null) throw new Error(`no write_bytes for process ${pid}`);
  return Number(match[1]);
}

/**
 * Starts `script` (a path next to this file) with `options` as its JSON argument and `--expose-gc`,
 * and resolves `ready` with what the child announces. With GATEHOUSE_BENCH_CPU_PROF=<dir> the child
 * writes a CPU profile there (`node --cpu-prof`) when it exits.
 */
export function startChild(script, options = {}, { readyTimeoutMs = 60_000 } = {}) {
  const entry = fileURLToPath(new URL(script, import.meta.url));
  const profile = process.env.GATEHOUSE_BENCH_CPU_PROF;
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const args = ['--expose-gc', ...profiling, entry, JSON.stringify(options)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map();
  let nextId = 0;
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  void exit.then(() => {
    exited = true;
    for (const { reject } of pending.values()) reject(new Error(`${script} exited`));
  });
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} was not ready in ${readyTimeoutMs} ms`)),
      readyTimeoutMs,
    );
    void exit.then(({ code }) => reject(new Error(`${script} exited with ${code} before it was ready`)));
    child.on('message', (message) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.info);
      } else if (message.type === 'reply' && pending.has(message.id)) {
        const { resolve: done, reject: fail } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) fail(new Error(message.error));
        else done(message.value);
      }
    });
  });
  const handle = {
    pid: child.pid,
    ready,
    /** Asks the child to run one of its handlers; resolves with its answer. */
    call(type, payload = {}) {
      if (exited) return Promise.reject(new Error(`${script} has exited`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ type, id, payload });
      });
    },
    rss: () => rssOf(child.pid),
    cpu: () => cpuOf(child.pid),
    written: () => writtenOf(child.pid),
    /** Asks the child to close, then ends it by its pid if it has not exited within `graceMs`. */
    async stop(graceMs = 10_000) {
      if (exited) return;
      child.send({ type: 'close', id: -1, payload: {} });
      const timer = setTimeout(() => {
        if (!exited) process.kill(child.pid, 'SIGKILL');
      }, graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
  return handle;
}

/**
 * Child side: answers the parent's calls with `handlers[type](payload)`, announces `info` as ready,
 * and exits after `close` (or when the parent goes away).
 */
export function serveParent(info, handlers) {
  const all = {
    gc: async () => globalThis.gc?.(),
    /** V8's live heap and the memory its objects hold outside it (buffers, native handles it knows of). */
    heap: async () => {
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    },
    ...handlers,
  };
  process.on('message', async ({ type, id, payload }) => {
    if (type === 'close') {
      await handlers.close?.().catch(() => {});
      process.exit(0);
    }
    try {
      const handler = all[type];
      if (handler === undefined) throw new Error(`no handler ${type}`);
      process.send({ type: 'reply', id, value: (await handler(payload)) ?? null });
    } catch (error) {
      process.send({ type: 'reply', id, error: String(error?.stack ?? error) });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', info });
}
