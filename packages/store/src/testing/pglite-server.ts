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
  /**
   * Drops every connection whose `application_name` starts with `prefix`, as
   * `pg_terminate_backend` would on a server (PGlite has one backend for all of them); returns how many.
   */
  terminate(prefix: string): number;
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

  constructor(
    private readonly db: PgliteSession,
    private readonly notify: (notification: Notification) => void,
  ) {}

  async run(conn: Connection, message: Uint8Array): Promise<Uint8Array> {
    while (this.busy || (this.owner !== null && this.owner !== conn)) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.busy = true;
    try {
      // PGlite answers a startup packet with a view of its shared buffer, which the next message
      // overwrites before this reply is written: copy it while the session is still ours.
      const { reply, notifications } = takeNotifications(Buffer.from(await this.db.execProtocolRaw(message)));
      for (const notification of notifications) this.notify(notification);
      return reply;
    } finally {
      this.owner = this.db.isInTransaction() ? conn : null;
      this.busy = false;
      this.wake();
    }
  }

  /** Runs `query` on the session between two connections' message groups. */
  async exec(conn: Connection, query: string): Promise<void> {
    while (this.busy || (this.owner !== null && this.owner !== conn)) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.busy = true;
    try {
      await this.db.exec(query).catch(() => undefined);
    } finally {
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

/** A NotificationResponse ('A') message and the channel it is for. */
interface Notification {
  channel: string;
  message: Buffer;
}

/**
 * The one session hears every NOTIFY, in the reply of whichever connection committed it: take those
 * messages out so they can go to the connections that asked to LISTEN, as on a real server.
 */
function takeNotifications(reply: Buffer): { reply: Buffer; notifications: Notification[] } {
  const notifications: Notification[] = [];
  const kept: Buffer[] = [];
  let offset = 0;
  while (offset + 5 <= reply.length) {
    const end = offset + 1 + reply.readInt32BE(offset + 1);
    const message = reply.subarray(offset, end);
    if (message[0] === 0x41) {
      const channelStart = 9;
      const channelEnd = message.indexOf(0, channelStart);
      notifications.push({ channel: message.toString('utf8', channelStart, channelEnd), message });
    } else kept.push(message);
    offset = end;
  }
  if (notifications.length === 0) return { reply, notifications };
  if (offset < reply.length) kept.push(reply.subarray(offset));
  return { reply: Buffer.concat(kept), notifications };
}

const LISTEN = /^\s*(un)?listen\s+(?:"((?:[^"]|"")+)"|([A-Za-z_][\w$]*)|(\*))\s*;?\s*$/i;

/** The channel a simple-query LISTEN or UNLISTEN names, as Postgres folds it. */
function listenCommand(query: string): { listen: boolean; channel: string } | null {
  const match = LISTEN.exec(query);
  if (match === null) return null;
  const channel = match[2]?.replaceAll('""', '"') ?? match[3]?.toLowerCase() ?? '*';
  return { listen: match[1] === undefined, channel };
}

/** The parameters of a startup packet (after its length and protocol version). */
function startupParameters(message: Buffer): Map<string, string> {
  const fields = message.toString('utf8', 8).split('\0');
  const parameters = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length && fields[i] !== ''; i += 2) {
    parameters.set(fields[i] as string, fields[i + 1] as string);
  }
  return parameters;
}

class Connection {
  private buffer = Buffer.alloc(0);
  private started = false;
  private group: Buffer[] = [];
  private chain: Promise<void> = Promise.resolve();
  /** Channels this connection LISTENs on. */
  readonly channels = new Set<string>();
  applicationName = '';

  constructor(
    readonly socket: Socket,
    private readonly lock: SessionLock,
    /** Every channel some connection still listens on. */
    private readonly listening: () => Set<string>,
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
      this.applicationName = startupParameters(message).get('application_name') ?? '';
      this.enqueue([message]);
      return;
    }
    const type = String.fromCharCode(message[0] ?? 0);
    if (type === 'X') {
      this.socket.end();
      return;
    }
    if (type === 'Q' && this.track(message.toString('utf8', 5, message.length - 1))) {
      this.group.push(message);
      this.enqueue(this.group.splice(0));
      // UNLISTEN stops the one shared session: listen again for the other connections.
      this.chain = this.chain.then(async () => {
        for (const channel of this.listening()) {
          await this.lock.exec(this, `listen "${channel.replaceAll('"', '""')}"`);
        }
      });
      return;
    }
    this.group.push(message);
    if (type === 'S' || type === 'Q' || type === 'H') this.enqueue(this.group.splice(0));
  }

  /** Remembers what this connection listens on; true for an UNLISTEN. */
  private track(query: string): boolean {
    const command = listenCommand(query);
    if (command === null) return false;
    if (command.listen) this.channels.add(command.channel);
    else if (command.channel === '*') this.channels.clear();
    else this.channels.delete(command.channel);
    return !command.listen;
  }

  /** Writes a notification between this connection's replies, as a server does. */
  deliver(notification: Notification): void {
    if (this.channels.has(notification.channel) && !this.socket.destroyed)
      this.socket.write(notification.message);
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
  const connections = new Set<Connection>();
  const lock = new SessionLock(db, (notification) => {
    for (const connection of connections) connection.deliver(notification);
  });
  const server: Server = createServer((socket) => {
    const connection = new Connection(socket, lock, () => {
      const channels = new Set<string>();
      for (const each of connections) for (const channel of each.channels) channels.add(channel);
      return channels;
    });
    connections.add(connection);
    socket.on('close', () => connections.delete(connection));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    terminate(prefix) {
      let terminated = 0;
      for (const connection of connections) {
        if (!connection.applicationName.startsWith(prefix)) continue;
        connection.socket.destroy();
        terminated += 1;
      }
      return terminated;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const connection of connections) connection.socket.destroy();
        server.close(() => resolve());
      }),
  };
}
