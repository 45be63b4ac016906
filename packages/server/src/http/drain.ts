import type { Server } from 'node:http';

/** How a draining server lets go of its work. */
export interface DrainOptions {
  /** Longest wait for in-flight requests; after it the rest are cut. */
  timeoutMs: number;
  /** Ends what never finishes by itself (event streams, long-polls) once no new connection is taken. */
  endLongLived(): void;
}

/** How often idle keep-alive connections are closed while requests finish. */
const SWEEP_MS = 20;

/**
 * Stops taking connections, ends event streams and long-polls (clients reconnect to another node,
 * streams resume with Last-Event-ID), lets in-flight requests finish and closes each connection as it
 * goes idle. Resolves true when every connection closed in time, false when some had to be cut.
 */
export async function drainServer(server: Server, options: DrainOptions): Promise<boolean> {
  if (!server.listening) return true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  options.endLongLived();
  let deadline: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    deadline = setTimeout(() => resolve(false), options.timeoutMs);
  });
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
  try {
    const finished = await Promise.race([closed.then(() => true), timedOut]);
    if (!finished) server.closeAllConnections();
    return finished;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}
