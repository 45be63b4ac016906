import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it, with its text and HTML parts decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  text: string | null;
  html: string | null;
}

export interface SmtpInbox {
  /** smtp://127.0.0.1:<port> for GATEHOUSE_SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** SMTP connections opened to this inbox so far. */
  connections(): number;
  /** The most messages that were being received at once (each from its DATA to the inbox's answer). */
  busiest(): number;
  /** Resolves once `count` messages reached `to` (any recipient when omitted). */
  waitFor(count: number, to?: string, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function headersOf(block: string): Record<string, string> {
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decode(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '7bit').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind !== 'quoted-printable') return body;
  const soft = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function split(raw: string): { head: string; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { head: raw, body: '' };
  const gap = raw.slice(at).startsWith('\r\n\r\n') ? 4 : 2;
  return { head: raw.slice(0, at), body: raw.slice(at + gap) };
}

/** Text and HTML parts of a (possibly multipart/alternative) message. */
function partsOf(raw: string): { headers: Record<string, string>; text: string | null; html: string | null } {
  const { head, body } = split(raw);
  const headers = headersOf(head);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary === undefined) {
    const decoded = decode(body, headers['content-transfer-encoding']);
    return {
      headers,
      text: type.startsWith('text/html') ? null : decoded,
      html: type.startsWith('text/html') ? decoded : null,
    };
  }
  let text: string | null = null;
  let html: string | null = null;
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const part = split(chunk.replace(/^\r?\n/, ''));
    const partHeaders = headersOf(part.head);
    const content = decode(part.body.replace(/\r?\n$/, ''), partHeaders['content-transfer-encoding']);
    if ((partHeaders['content-type'] ?? '').startsWith('text/html')) html = content;
    else if ((partHeaders['content-type'] ?? '').startsWith('text/plain')) text = content;
  }
  return { headers, text, html };
}

/**
 * A real SMTP server on 127.0.0.1 (random port) that keeps every message; `refuse` rejects recipients
 * with 550, and `answerAfterMs` answers each message that long after its data ended (a slow relay).
 */
export async function startSmtpInbox(
  options: { refuse?: (to: string) => boolean; answerAfterMs?: number } = {},
): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let connections = 0;
  let receiving = 0;
  let busiest = 0;
  const server = new SMTPServer({
    // The server keeps pooled connections open: closing the inbox first must not wait 30 s for them.
    closeTimeout: 100,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address)) {
        const error = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        callback(error);
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      receiving += 1;
      busiest = Math.max(busiest, receiving);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        const answer = () => {
          receiving -= 1;
          messages.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, ...partsOf(raw) });
          for (const wake of waiters) wake();
          callback();
        };
        if (options.answerAfterMs === undefined) answer();
        else setTimeout(answer, options.answerAfterMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    connections: () => connections,
    busiest: () => busiest,
    waitFor(count, to, timeoutMs = 15_000) {
      const matching = () => messages.filter((m) => to === undefined || m.to.includes(to));
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = matching();
          if (found.length < count) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`expected ${count} messages${to ? ` to ${to}` : ''}, got ${matching().length}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
