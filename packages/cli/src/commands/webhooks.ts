import {
  type DeliveryDocument as Delivery,
  type DeliveryStatus,
  type UpdateWebhookBody,
  type WebhookDocument as Webhook,
  type WebhookEventType,
  webhookRoutes,
} from 'gatehouse-hitl-protocol';
import { choiceOption, intOption, listOption, stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { UsageError } from '../errors.js';
import { isoTime, printFields, printJson, printTable, terminalSafe } from '../output.js';

const STATUSES = ['pending', 'succeeded', 'dead'] as const satisfies readonly DeliveryStatus[];

function printSecret(context: ActionContext, webhook: Webhook, secret: string): void {
  context.io.stdout.write(`webhook ${webhook.id} → ${terminalSafe(webhook.url)}\nsecret: ${secret}\n`);
  context.io.stderr.write(
    'This secret is shown only once: give it to the receiver now; it verifies each request with it.\n',
  );
}

function printWebhook(context: ActionContext, webhook: Webhook): void {
  printFields(context.io.stdout, [
    ['id', webhook.id],
    ['url', webhook.url],
    ['events', webhook.events.join(', ')],
    ['enabled', webhook.enabled ? 'yes' : 'no (no new deliveries)'],
    ['description', webhook.description],
    ['created', `${isoTime(webhook.createdAt)} by ${webhook.createdBy}`],
    ['updated', isoTime(webhook.updatedAt)],
  ]);
}

function printDeliveries(context: ActionContext, items: Delivery[]): void {
  printTable(
    context.io.stdout,
    ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT', 'CREATED', 'LAST ERROR'],
    items.map((d) => [
      d.id,
      d.eventType,
      d.status,
      d.attempts,
      d.lastStatusCode ?? '-',
      d.nextAttemptAt === null ? '-' : isoTime(d.nextAttemptAt),
      isoTime(d.createdAt),
      d.lastError ?? '',
    ]),
    'no deliveries',
  );
}

async function create(context: ActionContext): Promise<number> {
  const { values, command } = context;
  const events = listOption(values, 'event');
  if (events.length === 0)
    throw new UsageError(`gatehouse ${command} needs at least one --event <type>`, command);
  const description = stringOption(values, 'description');
  const response = await context.client().call(webhookRoutes.create, {
    body: {
      url: context.positionals[0] as string,
      // The server checks each event type.
      events: events as WebhookEventType[],
      ...(description === undefined ? {} : { description }),
      ...(values.disabled ? { enabled: false } : {}),
    },
  });
  if (context.json) printJson(context.io, response);
  else printSecret(context, response.webhook, response.secret);
  return 0;
}

async function list(context: ActionContext): Promise<number> {
  const response = await context.client().call(webhookRoutes.list);
  if (context.json) printJson(context.io, response);
  else {
    printTable(
      context.io.stdout,
      ['ID', 'ENABLED', 'EVENTS', 'CREATED', 'URL'],
      response.webhooks.map((w) => [
        w.id,
        w.enabled ? 'yes' : 'no',
        w.events.join(','),
        isoTime(w.createdAt),
        w.url,
      ]),
      'no webhooks',
    );
  }
  return 0;
}

async function show(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const client = context.client();
  const { webhook } = await client.call(webhookRoutes.get, { params: { id } });
  const recent = await client.call(webhookRoutes.deliveries, { params: { id }, query: { limit: 10 } });
  if (context.json) {
    printJson(context.io, { webhook, deliveries: recent.items });
    return 0;
  }
  printWebhook(context, webhook);
  context.io.stdout.write('\nrecent deliveries:\n');
  printDeliveries(context, recent.items);
  return 0;
}

function changesFrom(context: ActionContext): UpdateWebhookBody {
  const { values, command } = context;
  if (values.enable && values.disable) throw new UsageError('give --enable or --disable, not both', command);
  const url = stringOption(values, 'url');
  const events = listOption(values, 'event');
  const description = stringOption(values, 'description');
  const changes: UpdateWebhookBody = {
    ...(url === undefined ? {} : { url }),
    // The server checks each event type.
    ...(events.length === 0 ? {} : { events: events as WebhookEventType[] }),
    ...(description === undefined ? {} : { description: description === '' ? null : description }),
    ...(values.enable ? { enabled: true } : {}),
    ...(values.disable ? { enabled: false } : {}),
    ...(values['rotate-secret'] ? { rotateSecret: true } : {}),
  };
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
      `gatehouse ${command} needs a change: --url, --event, --description, --enable, --disable or --rotate-secret`,
      command,
    );
  }
  return changes;
}

async function update(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const response = await context
    .client()
    .call(webhookRoutes.update, { params: { id }, body: changesFrom(context) });
  if (context.json) printJson(context.io, response);
  else if (response.secret !== null) printSecret(context, response.webhook, response.secret);
  else printWebhook(context, response.webhook);
  return 0;
}

async function remove(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const response = await context.client().call(webhookRoutes.remove, { params: { id } });
  if (context.json) printJson(context.io, response);
  else context.io.stdout.write(`webhook ${response.webhook.id} deleted, with its deliveries\n`);
  return 0;
}

async function deliveries(context: ActionContext): Promise<number> {
  const { values, command } = context;
  const id = context.positionals[0] as string;
  const page = await context.client().call(webhookRoutes.deliveries, {
    params: { id },
    query: {
      status: choiceOption(values, 'status', STATUSES, command),
      limit: intOption(values, 'limit', { min: 1, max: 500, command }),
      cursor: stringOption(values, 'cursor'),
    },
  });
  if (context.json) {
    printJson(context.io, page);
    return 0;
  }
  printDeliveries(context, page.items);
  if (page.nextCursor) context.io.stdout.write(`more: --cursor ${page.nextCursor}\n`);
  return 0;
}

async function delivery(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const body = await context.client().call(webhookRoutes.delivery, { params: { deliveryId: id } });
  if (context.json) {
    printJson(context.io, body);
    return 0;
  }
  const d = body.delivery;
  printFields(context.io.stdout, [
    ['id', d.id],
    ['event', `${d.eventType} ${d.eventId}`],
    ['status', d.status],
    ['attempts', d.attempts],
    ['next attempt', d.nextAttemptAt === null ? null : isoTime(d.nextAttemptAt)],
    ['redelivery of', d.redeliveryOf],
  ]);
  context.io.stdout.write('\n');
  printTable(
    context.io.stdout,
    ['#', 'STARTED', 'STATUS', 'DURATION', 'ERROR', 'RESPONSE'],
    body.attempts.map((a) => [
      a.attempt,
      isoTime(a.startedAt),
      a.statusCode ?? '-',
      a.durationMs === null ? '-' : `${a.durationMs} ms`,
      a.error ?? '',
      a.responseExcerpt ?? '',
    ]),
    'no attempts yet',
  );
  return 0;
}

async function redeliver(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const response = await context.client().call(webhookRoutes.redeliver, { params: { deliveryId: id } });
  if (context.json) printJson(context.io, response);
  else {
    const d = response.delivery;
    context.io.stdout.write(`${d.eventType} ${d.eventId} queued again as ${d.id}\n`);
  }
  return 0;
}

const one = { min: 1, max: 1 };
const eventOption = {
  type: 'string',
  multiple: true,
  value: '<type>',
  description:
    'An event to receive (repeat for more): gate.opened, gate.decided, gate.expired, gate.escalated, gate.cancelled, run.paused, run.resumed, run.stopped, run.steered, run.completed, confidence.escalated',
} as const;

/** `gatehouse webhooks`: register receivers of signed events and follow their deliveries (admin). */
export const webhooksCommand: Command = {
  name: 'webhooks',
  summary: 'Send signed gate, run and confidence events to your URLs (admin)',
  actions: [
    {
      name: 'create',
      summary: 'Register a URL for events and print its signing secret (shown once)',
      args: '<url>',
      positionals: one,
      options: {
        event: eventOption,
        description: { type: 'string', value: '<text>', description: 'What the webhook is for' },
        disabled: { type: 'boolean', description: 'Register it without sending anything yet' },
      },
      examples: [
        'gatehouse webhooks create https://hooks.example.com/gatehouse --event gate.opened --event gate.decided',
      ],
      run: create,
    },
    { name: 'list', summary: 'List the webhooks (never their secrets)', run: list },
    {
      name: 'show',
      summary: 'Show a webhook and its latest deliveries',
      args: '<webhook-id>',
      positionals: one,
      run: show,
    },
    {
      name: 'update',
      summary: 'Change the URL or events, enable or disable, or rotate the secret',
      args: '<webhook-id>',
      positionals: one,
      options: {
        url: { type: 'string', value: '<url>', description: 'The new URL' },
        event: {
          ...eventOption,
          description: 'The events to receive from now on (repeat); replaces the list',
        },
        description: { type: 'string', value: '<text>', description: 'What it is for ("" removes it)' },
        enable: { type: 'boolean', description: 'Send deliveries again' },
        disable: { type: 'boolean', description: 'Stop creating new deliveries' },
        'rotate-secret': {
          type: 'boolean',
          description: 'Replace the signing secret at once and print the new one (shown once)',
        },
      },
      run: update,
    },
    {
      name: 'delete',
      summary: 'Delete a webhook and its deliveries',
      args: '<webhook-id>',
      positionals: one,
      run: remove,
    },
    {
      name: 'deliveries',
      summary: 'List the deliveries of a webhook, newest first',
      args: '<webhook-id>',
      positionals: one,
      options: {
        status: {
          type: 'string',
          value: '<status>',
          description: `One of ${STATUSES.join(', ')} (dead = dead letter)`,
        },
        limit: { type: 'string', value: '<n>', description: 'Page size, 1-500 (default 50)' },
        cursor: { type: 'string', value: '<cursor>', description: 'Continue after a previous page' },
      },
      examples: ['gatehouse webhooks deliveries wh_… --status dead'],
      run: deliveries,
    },
    {
      name: 'delivery',
      summary: 'Show one delivery with every attempt: status, duration, error, response excerpt',
      args: '<delivery-id>',
      positionals: one,
      run: delivery,
    },
    {
      name: 'redeliver',
      summary: 'Send a delivery’s event again (same event id and body) as a new delivery',
      args: '<delivery-id>',
      positionals: one,
      run: redeliver,
    },
  ],
};
