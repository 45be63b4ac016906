// A local SMTP stand-in on 127.0.0.1, built on smtp-server as the server tests' inbox is
// (packages/server/src/testing/smtp-inbox.ts), but keeping only what a long run needs of each message:
// when it arrived, its recipients, its subject and the gate it names.
import { SMTPServer } from 'smtp-server';

/** The gate a notice names: its `Gate: <site>/gates/<id>` line (quoted-printable soft breaks removed). */
function gateIdOf(raw) {
  const match = /\/gates\/([A-Za-z0-9_-]+)/.exec(raw.replace(/=\r?\n/g, ''));
  return match === null ? null : match[1];
}

function subjectOf(raw) {
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/));
  const match = /^subject:(.*(?:\r?\n[ \t].*)*)/im.exec(head);
  return match === null ? '' : match[1].replace(/\s+/g, ' ').trim();
}

/**
 * Starts the stand-in; `onMail({ at, to, subject, gateId })` is called for each message as its data
 * ends (`at` from performance.now()). `close()` stops it.
 */
export async function startSmtpInbox(onMail) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 200,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const at = performance.now();
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((r) => r.address);
        onMail({ at, to, subject: subjectOf(raw), gateId: gateIdOf(raw) });
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address();
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
