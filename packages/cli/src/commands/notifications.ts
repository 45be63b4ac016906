import {
  type CreateNotificationRuleBody,
  NOTIFICATION_CHANNELS,
  type NotificationRuleDocument,
  notificationRoutes,
} from 'gatehouse-hitl-protocol';
import { choiceOption, intOption, listOption, stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { UsageError } from '../errors.js';
import { isoTime, printJson, printTable } from '../output.js';

const STATUSES = ['pending', 'sent', 'failed'] as const;
const list = (items: readonly string[]) => (items.length === 0 ? 'any' : items.join(','));

function printRules(
  context: ActionContext,
  rules: NotificationRuleDocument[],
  defaultApplies: boolean,
): void {
  printTable(
    context.io.stdout,
    ['ID', 'ENABLED', 'NAME', 'TYPES', 'RISKS', 'AGENTS', 'ROLES', 'TRIGGERS', 'CHANNELS'],
    rules.map((r) => [
      r.id,
      r.enabled ? 'yes' : 'no',
      r.name,
      list(r.gateTypes),
      list(r.risks),
      list(r.agentIds),
      `${list(r.roles)}${r.assigneesOnly ? ' (assignees only)' : ''}`,
      list(r.triggers),
      r.channels.join(','),
    ]),
    'no rules',
  );
  if (defaultApplies)
    context.io.stdout.write(
      'No rule is enabled: everyone who may decide a gate hears of it on their own channels.\n',
    );
}

async function rules(context: ActionContext): Promise<number> {
  const { values, command } = context;
  const client = context.client();
  const add = stringOption(values, 'add');
  const remove = stringOption(values, 'delete');
  if (add !== undefined && remove !== undefined)
    throw new UsageError('give --add or --delete, not both', command);
  if (add !== undefined) {
    const channels = listOption(values, 'channel');
    if (channels.length === 0)
      throw new UsageError(`gatehouse ${command} --add needs at least one --channel`, command);
    // The server checks each listed value against its enum.
    const body = {
      name: add,
      gateTypes: listOption(values, 'type'),
      risks: listOption(values, 'risk'),
      agentIds: listOption(values, 'agent'),
      roles: listOption(values, 'role'),
      triggers: listOption(values, 'trigger'),
      channels,
      assigneesOnly: values['assignees-only'] === true,
    } as CreateNotificationRuleBody;
    const response = await client.call(notificationRoutes.createRule, { body });
    if (context.json) printJson(context.io, response);
    else context.io.stdout.write(`rule ${response.rule.id} added\n`);
    return 0;
  }
  if (remove !== undefined) {
    const response = await client.call(notificationRoutes.deleteRule, { params: { id: remove } });
    if (context.json) printJson(context.io, response);
    else context.io.stdout.write(`rule ${response.rule.id} deleted\n`);
    return 0;
  }
  const response = await client.call(notificationRoutes.listRules);
  if (context.json) printJson(context.io, response);
  else printRules(context, response.rules, response.defaultApplies);
  return 0;
}

async function listNotifications(context: ActionContext): Promise<number> {
  const { values, command } = context;
  const page = await context.client().call(notificationRoutes.list, {
    query: {
      gateId: stringOption(values, 'gate'),
      userId: stringOption(values, 'person'),
      status: choiceOption(values, 'status', STATUSES, command),
      limit: intOption(values, 'limit', { min: 1, max: 500, command }),
      cursor: stringOption(values, 'cursor'),
    },
  });
  if (context.json) {
    printJson(context.io, page);
    return 0;
  }
  printTable(
    context.io.stdout,
    ['ID', 'GATE', 'PERSON', 'CHANNEL', 'TRIGGER', 'STATUS', 'ATTEMPTS', 'CREATED', 'LAST ERROR'],
    page.notifications.map((n) => [
      n.id,
      n.gateId,
      n.userId,
      n.channel,
      n.trigger,
      n.status,
      n.attempts,
      isoTime(n.createdAt),
      n.lastError ?? '',
    ]),
    'no notifications',
  );
  if (page.nextCursor) context.io.stdout.write(`more: --cursor ${page.nextCursor}\n`);
  return 0;
}

const many = (value: string, description: string) =>
  ({ type: 'string', multiple: true, value, description }) as const;

/** `gatehouse notifications`: who hears of which gates, and what was delivered. */
export const notificationsCommand: Command = {
  name: 'notifications',
  summary: 'Notification rules (tech_lead, admin) and the delivery log of email and Slack notices',
  actions: [
    {
      name: 'rules',
      summary: 'List the routing rules, or add (--add <name>) or delete (--delete <rule-id>) one',
      options: {
        add: { type: 'string', value: '<name>', description: 'Add a rule with this name' },
        delete: { type: 'string', value: '<rule-id>', description: 'Delete this rule' },
        type: many('<gate-type>', 'Gate types it covers (repeat); none = every type'),
        risk: many('<risk>', 'Risk levels it covers: low, medium, high, critical (repeat); none = all'),
        agent: many('<agent-id>', 'Agents whose gates it covers (repeat); none = all'),
        role: many('<role>', 'Roles of the people it tells (repeat); none = everyone who may decide'),
        trigger: many(
          '<trigger>',
          'gate.opened, gate.timeout_warning, gate.escalated, gate.assigned, gate.decided, gate.expired, gate.cancelled (repeat); none = all',
        ),
        channel: many('<channel>', `${NOTIFICATION_CHANNELS.join(', ')} (repeat); at least one`),
        'assignees-only': { type: 'boolean', description: 'Tell only the assignees of a gate that has any' },
      },
      examples: [
        'gatehouse notifications rules',
        'gatehouse notifications rules --add "High risk to leads" --risk high --risk critical --role tech_lead --channel email --channel slack',
        'gatehouse notifications rules --delete nrl_01',
      ],
      run: rules,
    },
    {
      name: 'list',
      summary: 'List notices with their delivery outcome, newest first',
      options: {
        gate: { type: 'string', value: '<gate-id>', description: 'Only this gate' },
        person: { type: 'string', value: '<user-id>', description: 'Only this person' },
        status: { type: 'string', value: '<status>', description: 'pending, sent or failed' },
        limit: { type: 'string', value: '<n>', description: 'How many (1–500, default 50)' },
        cursor: { type: 'string', value: '<cursor>', description: 'Continue after a previous page' },
      },
      examples: [
        'gatehouse notifications list --status failed',
        'gatehouse notifications list --gate gate_01',
      ],
      run: listNotifications,
    },
  ],
};
