import { createServer, type Server, type Socket } from 'node:net';

/** The part of PGlite the server needs (kept structural so PGlite stays a dev dependency). */
export interface PgliteSession {
  execProtocolRaw(message: Uint8Array): Promise<Uint8Array>;
  isInTransaction(): boolean;
  exec(query: string): Promise<unknown>;
}

/** A running in-process Postgres listener. */
export interface PgliteServer {
  readonly port: number;
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/**
 * One PGlite session shared by many connections, made safe: a connection's messages run as whole
 * groups (up to Sync or a simple Query), and a connection inside a transaction keeps the session
 * until it ends, so statements of different connections never interleave.
 */
class SessionLock {
  private owner: Connection | null = null;
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly db: PgliteSession) {}

  async run(conn: Connection, message: Uint8Array): Promise<Uint8Array> {
    while (this.busy || (this.owner !== null && this.owner !== conn)) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.busy = true;
    try {
      // PGlite answers a startup packet with a view of its shared buffer, which the next message
      // overwrites before this reply is written: copy it while the session is still ours.
      return Buffer.from(await this.db.execProtocolRaw(message));
    } finally {
      this.owner = this.db.isInTransaction() ? conn : null;
      this.busy = false;
      this.wake();
    }
  }

  /** A connection that went away mid-transaction must not keep the session. */
  async abandon(conn: Connection): Promise<void> {
    if (this.owner !== conn) return;
    while (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.owner === conn) {
      this.busy = true;
      await this.db.exec('rollback').catch(() => undefined);
      this.owner = null;
      this.busy = false;
      this.wake();
    }
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

class Connection {
  private buffer = Buffer.alloc(0);
  private started = false;
  private group: Buffer[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Socket,
    private readonly lock: SessionLock,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data) => this.receive(data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.chain = this.chain.then(() => this.lock.abandon(this));
    });
  }

  private receive(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (let message = this.next(); message !== null; message = this.next()) this.handle(message);
  }

  /** The next complete message, or null; the startup packet is the only one without a type byte. */
  private next(): Buffer | null {
    const offset = this.started ? 1 : 0;
    if (this.buffer.length < offset + 4) return null;
    const length = this.buffer.readInt32BE(offset) + offset;
    if (this.buffer.length < length) return null;
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return message;
  }

  private handle(message: Buffer): void {
    if (!this.started) {
      const code = message.readInt32BE(4);
      if (code === SSL_REQUEST || code === GSS_REQUEST) {
        this.socket.write('N');
        return;
      }
      this.started = true;
      this.enqueue([message]);
      return;
    }
    const type = String.fromCharCode(message[0] ?? 0);
    if (type === 'X') {
      this.socket.end();
      return;
    }
    this.group.push(message);
    if (type === 'S' || type === 'Q' || type === 'H') this.enqueue(this.group.splice(0));
  }

  private enqueue(messages: Buffer[]): void {
    const payload = Buffer.concat(messages);
    this.chain = this.chain.then(async () => {
      if (this.socket.destroyed) return;
      const reply = await this.lock.run(this, payload);
      if (!this.socket.destroyed) this.socket.write(reply);
    });
    this.chain = this.chain.catch(() => {
      this.socket.destroy();
    });
  }
}

/** Serves a PGlite instance over TCP on 127.0.0.1 (random port) to ordinary Postgres clients. */
export async function servePglite(db: PgliteSession): Promise<PgliteServer> {
  const lock = new SessionLock(db);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    new Connection(socket, lock);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
