import { NOTIFICATION_CHANNELS, type NOTIFICATION_TRIGGERS } from 'gatehouse-hitl-protocol';
import { hasRole, type Role } from '../schemas.js';

/** A way of reaching a person. */
export type NotificationChannelName = (typeof NOTIFICATION_CHANNELS)[number];

/** What happened to a gate that someone may need to hear of. */
export type NotificationTrigger = (typeof NOTIFICATION_TRIGGERS)[number];

/** Who hears of which gates, on which channels (docs/notifications.md). Empty lists match everything. */
export interface NotificationRule {
  id: string;
  name: string;
  gateTypes: string[];
  risks: string[];
  agentIds: string[];
  /** Roles of the people it tells; empty = everyone who may decide the gate. */
  roles: string[];
  /** Only the gate's assignees, when it has any. */
  assigneesOnly: boolean;
  triggers: string[];
  channels: NotificationChannelName[];
  enabled: boolean;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

/** What routing reads of a gate. */
export interface RoutedGate {
  type: string;
  risk: string;
  agentId: string | null;
  minRole: Role;
  assignees: readonly string[];
}

export interface RoutedPerson {
  id: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** The channels the person chose; null when they never chose (then every delivered channel). */
  channels: readonly NotificationChannelName[] | null;
}

export interface RoutingInput {
  trigger: NotificationTrigger;
  gate: RoutedGate;
  rules: readonly NotificationRule[];
  people: readonly RoutedPerson[];
  /** Who was told of this gate before, on which channel (updates go exactly there). */
  notifiedBefore: readonly { userId: string; channel: NotificationChannelName }[];
  /** The channels this server delivers on; nobody is routed to any other. */
  channels: readonly NotificationChannelName[];
}

export interface NotificationRoute {
  userId: string;
  channel: NotificationChannelName;
}

/** Channels the worker delivers through; the web app raises browser notifications from its event stream. */
export const DELIVERED_NOTIFICATION_CHANNELS: readonly NotificationChannelName[] =
  NOTIFICATION_CHANNELS.filter((channel) => channel !== 'browser');

/** Triggers that only update what people were already told. */
const UPDATES = new Set<NotificationTrigger>(['gate.decided', 'gate.expired', 'gate.cancelled']);

/** Applies when no rule is enabled: everyone who may decide hears of everything on their own channels. */
export const DEFAULT_NOTIFICATION_RULE: NotificationRule = {
  id: 'default',
  name: 'Everyone who may decide',
  gateTypes: [],
  risks: [],
  agentIds: [],
  roles: [],
  assigneesOnly: false,
  triggers: [],
  channels: [...DELIVERED_NOTIFICATION_CHANNELS],
  enabled: true,
  createdBy: 'system',
  createdAt: 0,
  updatedAt: 0,
};

function anyOrIncludes(list: readonly string[], value: string | null): boolean {
  return list.length === 0 || (value !== null && list.includes(value));
}

/** Whether a rule speaks of this gate and trigger. */
export function notificationRuleMatches(
  rule: NotificationRule,
  trigger: NotificationTrigger,
  gate: RoutedGate,
): boolean {
  return (
    rule.enabled &&
    anyOrIncludes(rule.triggers, trigger) &&
    anyOrIncludes(rule.gateTypes, gate.type) &&
    anyOrIncludes(rule.risks, gate.risk) &&
    anyOrIncludes(rule.agentIds, gate.agentId)
  );
}

function isAssignee(gate: RoutedGate, person: RoutedPerson): boolean {
  return gate.assignees.includes(person.id) || gate.assignees.includes(person.name);
}

/**
 * Who the rule tells: people who may decide the gate (on an escalation, exactly the role it moved
 * to), of the rule's roles, and only the assignees when the rule says so or the trigger is an assignment.
 */
function audience(rule: NotificationRule, input: RoutingInput): RoutedPerson[] {
  const { gate, trigger } = input;
  const onlyAssignees = gate.assignees.length > 0 && (rule.assigneesOnly || trigger === 'gate.assigned');
  return input.people.filter(
    (person) =>
      !person.disabled &&
      (trigger === 'gate.escalated' ? person.role === gate.minRole : hasRole(person.role, gate.minRole)) &&
      (rule.roles.length === 0 || rule.roles.includes(person.role)) &&
      (!onlyAssignees || isAssignee(gate, person)),
  );
}

function chosen(person: RoutedPerson, channel: NotificationChannelName): boolean {
  return person.channels === null || person.channels.includes(channel);
}

/**
 * On an escalation, the people told before on Slack who may no longer decide: their message is edited
 * in place so its buttons go. (An email cannot be taken back; its links are refused with the reason.)
 */
export function leftOutByEscalation(input: RoutingInput): NotificationRoute[] {
  if (input.trigger !== 'gate.escalated') return [];
  const { minRole } = input.gate;
  const leftOut = new Set(
    input.people.filter((p) => !p.disabled && !hasRole(p.role, minRole)).map((p) => p.id),
  );
  return input.notifiedBefore.filter(({ userId, channel }) => channel === 'slack' && leftOut.has(userId));
}

/** Every (person, channel) that hears of this change, each once, in a stable order. */
export function routeNotice(input: RoutingInput): NotificationRoute[] {
  const routes = new Map<string, NotificationRoute>();
  const add = (userId: string, channel: NotificationChannelName) => {
    if (input.channels.includes(channel)) routes.set(`${userId}\u0000${channel}`, { userId, channel });
  };
  if (UPDATES.has(input.trigger)) {
    // Whoever was told the gate was waiting hears how it ended, on the same channel, so that message is updated.
    const active = new Set(input.people.filter((p) => !p.disabled).map((p) => p.id));
    for (const { userId, channel } of input.notifiedBefore) if (active.has(userId)) add(userId, channel);
  } else {
    const enabled = input.rules.filter((rule) => rule.enabled);
    // The default rule speaks for every channel the server delivers on, whichever they are.
    const rules =
      enabled.length === 0 ? [{ ...DEFAULT_NOTIFICATION_RULE, channels: [...input.channels] }] : enabled;
    for (const rule of rules) {
      if (!notificationRuleMatches(rule, input.trigger, input.gate)) continue;
      for (const person of audience(rule, input))
        for (const channel of rule.channels) if (chosen(person, channel)) add(person.id, channel);
    }
    for (const { userId, channel } of leftOutByEscalation(input)) add(userId, channel);
  }
  return [...routes.values()].sort((a, b) =>
    a.userId === b.userId ? a.channel.localeCompare(b.channel) : a.userId.localeCompare(b.userId),
  );
}
