import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasRole, type Role } from '../schemas.js';
import {
  DEFAULT_NOTIFICATION_RULE as DEFAULT_RULE,
  leftOutByEscalation,
  type NotificationChannelName,
  type NotificationRule as NotificationRuleRecord,
  type NotificationTrigger,
  type RoutedPerson,
  type RoutingInput,
  routeNotice,
  notificationRuleMatches as ruleMatches,
} from './notification-routing.js';

const ROLES: Role[] = ['viewer', 'developer', 'tech_lead', 'admin'];
const TYPES = ['tool_call', 'deploy', 'question'];
const RISKS = ['low', 'medium', 'high', 'critical'];
const AGENTS = ['agent_a', 'agent_b'];
const CHANNELS: NotificationChannelName[] = ['email', 'slack', 'browser'];
const ACTIONS: NotificationTrigger[] = [
  'gate.opened',
  'gate.timeout_warning',
  'gate.escalated',
  'gate.assigned',
];
const UPDATES: NotificationTrigger[] = ['gate.decided', 'gate.expired', 'gate.cancelled'];

const subset = <T>(items: T[]) => fc.subarray(items);

const rule = fc
  .record({
    gateTypes: subset(TYPES),
    risks: subset(RISKS),
    agentIds: subset(AGENTS),
    roles: subset(ROLES),
    assigneesOnly: fc.boolean(),
    triggers: subset<string>([...ACTIONS, ...UPDATES]),
    channels: subset(CHANNELS),
    enabled: fc.boolean(),
  })
  .map(
    (fields): NotificationRuleRecord => ({
      ...DEFAULT_RULE,
      ...fields,
      id: 'nrl_x',
    }),
  );

const person = (index: number) =>
  fc
    .record({
      role: fc.constantFrom(...ROLES),
      disabled: fc.boolean(),
      channels: fc.option(subset(CHANNELS), { nil: null }),
    })
    .map((p): RoutedPerson => ({ ...p, id: `user_${index}`, name: `p${index}` }));

const input = (triggers: NotificationTrigger[]) =>
  fc.record({
    trigger: fc.constantFrom(...triggers),
    gate: fc.record({
      type: fc.constantFrom(...TYPES),
      risk: fc.constantFrom(...RISKS),
      agentId: fc.option(fc.constantFrom(...AGENTS), { nil: null }),
      minRole: fc.constantFrom<Role>('developer', 'tech_lead', 'admin'),
      assignees: subset(['user_0', 'user_1', 'p2']),
    }),
    rules: fc.array(rule, { maxLength: 4 }),
    people: fc.tuple(person(0), person(1), person(2), person(3), person(4)),
    notifiedBefore: fc.array(
      fc.record({
        userId: fc.constantFrom('user_0', 'user_1', 'user_2', 'user_9'),
        channel: fc.constantFrom(...CHANNELS),
      }),
      { maxLength: 6 },
    ),
    channels: subset<NotificationChannelName>(['email', 'slack']),
  }) as fc.Arbitrary<RoutingInput>;

describe('notification routing', () => {
  it('tells only active people who may decide, of a matching rule, on a channel both the rule and the person chose', () => {
    fc.assert(
      fc.property(input(ACTIONS), (routing) => {
        const enabled = routing.rules.filter((r) => r.enabled);
        const rules = enabled.length === 0 ? [DEFAULT_RULE] : enabled;
        const leftOut = new Set(leftOutByEscalation(routing).map((r) => `${r.userId}/${r.channel}`));
        for (const route of routeNotice(routing)) {
          if (leftOut.has(`${route.userId}/${route.channel}`)) continue;
          const who = routing.people.find((p) => p.id === route.userId);
          expect(who).toBeDefined();
          if (who === undefined) return;
          expect(who.disabled).toBe(false);
          expect(route.channel).not.toBe('browser');
          expect(routing.channels).toContain(route.channel);
          if (routing.trigger === 'gate.escalated') expect(who.role).toBe(routing.gate.minRole);
          else expect(hasRole(who.role, routing.gate.minRole)).toBe(true);
          if (who.channels !== null) expect(who.channels).toContain(route.channel);
          const allowing = rules.filter(
            (r) =>
              ruleMatches(r, routing.trigger, routing.gate) &&
              r.channels.includes(route.channel) &&
              (r.roles.length === 0 || r.roles.includes(who.role)),
          );
          expect(allowing.length).toBeGreaterThan(0);
          if (routing.trigger === 'gate.assigned' && routing.gate.assignees.length > 0)
            expect(routing.gate.assignees.includes(who.id) || routing.gate.assignees.includes(who.name)).toBe(
              true,
            );
        }
      }),
    );
  });

  it('on an escalation, also updates on Slack exactly the active people told there before who may no longer decide', () => {
    fc.assert(
      fc.property(input(['gate.escalated']), (routing) => {
        const routes = new Set(routeNotice(routing).map((r) => `${r.userId}/${r.channel}`));
        for (const { userId, channel } of routing.notifiedBefore) {
          const who = routing.people.find((p) => p.id === userId);
          if (who === undefined || who.disabled || channel !== 'slack') continue;
          if (!hasRole(who.role, routing.gate.minRole))
            expect(routes.has(`${userId}/slack`)).toBe(routing.channels.includes('slack'));
        }
        for (const route of leftOutByEscalation(routing)) {
          const who = routing.people.find((p) => p.id === route.userId);
          expect(route.channel).toBe('slack');
          expect(who !== undefined && !who.disabled && !hasRole(who.role, routing.gate.minRole)).toBe(true);
        }
      }),
    );
  });

  it('routes nobody to a channel the server does not deliver on', () => {
    fc.assert(
      fc.property(input([...ACTIONS, ...UPDATES]), (routing) => {
        expect(routeNotice({ ...routing, channels: [] })).toEqual([]);
        for (const route of routeNotice({ ...routing, channels: ['email'] }))
          expect(route.channel).toBe('email');
      }),
    );
  });

  it('tells each person once per channel', () => {
    fc.assert(
      fc.property(input([...ACTIONS, ...UPDATES]), (routing) => {
        const keys = routeNotice(routing).map((r) => `${r.userId}/${r.channel}`);
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });

  it('sends updates exactly to the active people told before, on the same channels, whatever the rules say', () => {
    fc.assert(
      fc.property(input(UPDATES), (routing) => {
        const active = new Set(routing.people.filter((p) => !p.disabled).map((p) => p.id));
        const expected = new Set(
          routing.notifiedBefore
            .filter((n) => active.has(n.userId) && routing.channels.includes(n.channel))
            .map((n) => `${n.userId}/${n.channel}`),
        );
        expect(new Set(routeNotice(routing).map((r) => `${r.userId}/${r.channel}`))).toEqual(expected);
      }),
    );
  });

  it('tells nobody of a gate whose type no enabled rule names (beyond updating what they were told)', () => {
    fc.assert(
      fc.property(input(ACTIONS), (routing) => {
        const narrowed = routing.rules.map((r) => ({ ...r, enabled: true, gateTypes: ['other_type'] }));
        const rules = [...narrowed, { ...DEFAULT_RULE, gateTypes: ['other_type'] }];
        const updates = new Set(
          leftOutByEscalation(routing)
            .filter((r) => routing.channels.includes(r.channel))
            .map((r) => `${r.userId}/${r.channel}`),
        );
        const told = routeNotice({ ...routing, rules }).map((r) => `${r.userId}/${r.channel}`);
        expect(new Set(told)).toEqual(updates);
      }),
    );
  });

  it('with no enabled rule, tells every active person who may decide on the channels they chose', () => {
    fc.assert(
      fc.property(input(['gate.opened']), (routing) => {
        const off = { ...routing, rules: routing.rules.map((r) => ({ ...r, enabled: false })) };
        const users = new Set(routeNotice(off).map((r) => r.userId));
        for (const p of routing.people) {
          const offered = routing.channels;
          const chooses =
            p.channels === null ? offered.length > 0 : p.channels.some((c) => offered.includes(c));
          const expected = !p.disabled && hasRole(p.role, routing.gate.minRole) && chooses;
          expect(users.has(p.id)).toBe(expected);
        }
      }),
    );
  });
});
