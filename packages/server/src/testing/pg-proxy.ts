import { createServer, type Server, Socket } from 'node:net';

/** A TCP proxy in front of Postgres that a test can cut and restore, leaving the server itself alone. */
export interface PgProxy {
  /** Where the proxy listens on 127.0.0.1. */
  readonly port: number;
  /** The given connection string with its host and port pointed at the proxy. */
  readonly connectionString: string;
  /** True between `cut()` and `restore()`. */
  readonly isCut: boolean;
  /** Drops every open connection (both ends reset) and resets each new one until `restore()`. */
  cut(): void;
  /** Lets connections through again. */
  restore(): void;
  /** Connections open through the proxy right now. */
  openConnections(): number;
  close(): Promise<void>;
}

function pipe(client: Socket, upstream: Socket): void {
  const drop = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', drop);
  upstream.on('error', drop);
  client.on('close', drop);
  upstream.on('close', drop);
  client.pipe(upstream);
  upstream.pipe(client);
}

/** A reset rather than a polite close: what a client sees when the network or the server goes away. */
function reset(socket: Socket): void {
  if (!socket.destroyed) socket.resetAndDestroy();
}

/** Starts a proxy on 127.0.0.1 (random port) to the host and port of `connectionString`. */
export async function startPgProxy(connectionString: string): Promise<PgProxy> {
  const target = new URL(connectionString);
  const targetPort = Number(target.port || 5432);
  /** Client ends; each one's upstream closes with it. */
  const open = new Set<Socket>();
  let isCut = false;

  const server: Server = createServer((client) => {
    if (isCut) {
      client.on('error', () => undefined);
      reset(client);
      return;
    }
    const upstream = new Socket();
    open.add(client);
    client.on('close', () => open.delete(client));
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    upstream.connect(targetPort, target.hostname);
    pipe(client, upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const proxied = new URL(connectionString);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);

  return {
    port,
    connectionString: proxied.toString(),
    get isCut() {
      return isCut;
    },
    cut() {
      isCut = true;
      // Resetting the client end also closes its upstream end, so Postgres rolls back what was open.
      for (const socket of open) reset(socket);
    },
    restore() {
      isCut = false;
    },
    openConnections: () => open.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
