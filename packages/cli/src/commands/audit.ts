import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { type AuditEventDocument as AuditEvent, type AuditQuery, auditRoutes } from 'gatehouse-hitl-protocol';
import { intOption, stringOption } from '../args.js';
import type { ActionContext, Command, Io } from '../command.js';
import { CliError } from '../errors.js';
import type { ApiClient } from '../http.js';
import { isoTime, terminalSafe } from '../output.js';
import { printAuditKey, verifyAudit } from './audit-verify.js';

const PAGE = 500;
const FOLLOW_INTERVAL_MS = 1000;

function filters(context: ActionContext): AuditQuery {
  return {
    kind: stringOption(context.values, 'kind'),
    actor: stringOption(context.values, 'actor'),
    subject: stringOption(context.values, 'subject'),
  };
}

function eventLine(event: AuditEvent): string {
  const data = JSON.stringify(event.data);
  const shown = data.length > 160 ? `${data.slice(0, 159)}…` : data;
  return [isoTime(event.at), `#${event.seq}`, event.kind, event.actor, event.subject ?? '-', shown]
    .map(terminalSafe)
    .join('  ');
}

function printEvent(io: Io, event: AuditEvent, json: boolean): void {
  io.stdout.write(`${json ? JSON.stringify(event) : eventLine(event)}\n`);
}

/** Every event matching `query`, page by page, in chain order. */
async function* events(client: ApiClient, query: AuditQuery): AsyncGenerator<AuditEvent> {
  let cursor: string | undefined;
  do {
    const page = await client.call(auditRoutes.query, { query: { ...query, limit: PAGE, cursor } });
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

async function tail(context: ActionContext): Promise<number> {
  const { io, values, command } = context;
  const count = intOption(values, 'lines', { min: 1, max: 10_000, command }) ?? 20;
  const client = context.client();
  const query = filters(context);
  const last: AuditEvent[] = [];
  for await (const event of events(client, query)) {
    last.push(event);
    if (last.length > count) last.shift();
  }
  for (const event of last) printEvent(io, event, context.json);
  if (!values.follow) return 0;
  let head = last.at(-1) ?? null;
  for (;;) {
    await sleep(FOLLOW_INTERVAL_MS);
    // Events of the same millisecond as the head come again; the seq check drops them.
    for await (const event of events(client, { ...query, since: head?.at })) {
      if (head !== null && event.seq <= head.seq) continue;
      printEvent(io, event, context.json);
      head = event;
    }
  }
}

async function exportTrail(context: ActionContext): Promise<number> {
  const response = await context
    .client()
    .open(auditRoutes.export.path, { headers: { accept: 'application/x-ndjson' } });
  if (!response.body) throw new CliError('the server sent an empty export');
  const file = stringOption(context.values, 'output');
  const source = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  const target = file === undefined ? (context.io.stdout as unknown as Writable) : createWriteStream(file);
  await pipeline(source, target, { end: file !== undefined });
  if (file !== undefined) context.io.stderr.write(`audit trail exported to ${file}\n`);
  return 0;
}

const filterOptions = {
  kind: { type: 'string', value: '<kind>', description: 'Only this kind, e.g. gate.decided' },
  actor: { type: 'string', value: '<actor>', description: 'Only this actor, e.g. user:user_…' },
  subject: { type: 'string', value: '<id>', description: 'Only events about this object' },
} as const;

/** `gatehouse audit`: read, export and verify the hash-chained audit trail. */
export const auditCommand: Command = {
  name: 'audit',
  summary: 'Tail, export and verify the hash-chained, signed audit trail',
  actions: [
    {
      name: 'tail',
      summary: 'Print the latest audit events, and with --follow keep printing new ones',
      options: {
        lines: {
          type: 'string',
          short: 'n',
          value: '<n>',
          description: 'How many of the latest events (default 20)',
        },
        follow: { type: 'boolean', short: 'f', description: 'Keep printing new events until Ctrl-C' },
        ...filterOptions,
      },
      details: 'With --json each event is printed as one line of JSON.',
      run: tail,
    },
    {
      name: 'export',
      summary: 'Write the whole trail as JSON Lines, verifiable offline with `audit verify --file`',
      json: false,
      options: {
        output: {
          type: 'string',
          short: 'o',
          value: '<file>',
          description: 'Write to a file instead of stdout',
        },
      },
      examples: ['gatehouse audit export > audit.jsonl'],
      run: exportTrail,
    },
    {
      name: 'verify',
      summary: 'Check the hash chain and its signed checkpoints: on the server, or offline in an export',
      options: {
        file: {
          type: 'string',
          value: '<export.jsonl>',
          description: 'Verify this export offline instead of asking the server',
        },
        'public-key': {
          type: 'string',
          value: '<key.pem>',
          description: 'With --file: check the signed checkpoints with this key (from `audit key`)',
        },
        heads: {
          type: 'string',
          value: '<audit-heads.jsonl>',
          description: 'With --file: also check the heads published outside the database',
        },
      },
      details:
        'Exit code 1 when the chain is broken: an edited, deleted or reordered event, a forged or unmatched signed checkpoint, or a tail cut after the last published head.',
      examples: [
        'gatehouse audit verify',
        'gatehouse audit verify --file audit.jsonl --public-key audit-key.pem --heads audit-heads.jsonl',
      ],
      run: verifyAudit,
    },
    {
      name: 'key',
      summary: 'Print the public key that signs audit checkpoints',
      options: {
        output: {
          type: 'string',
          short: 'o',
          value: '<file>',
          description: 'Write the PEM to a file instead of stdout',
        },
      },
      examples: ['gatehouse audit key -o audit-key.pem'],
      run: printAuditKey,
    },
  ],
};
