import { authRoutes, type SlackUserResponse, slackUserRoutes, userRoutes } from 'gatehouse-hitl-protocol';
import type { Action, ActionContext } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import type { ApiClient } from '../http.js';
import { isoTime, printJson, terminalSafe } from '../output.js';

/** `me` is the signed-in person; a name is looked up (admins only), an id used as it is. */
async function personId(client: ApiClient, who: string): Promise<string> {
  if (who === 'me') {
    const me = await client.call(authRoutes.me);
    if (me.kind !== 'user') throw new CliError('an agent token has no Slack user; sign in as a person');
    return me.user.id;
  }
  if (who.startsWith('user_')) return who;
  const { users } = await client.call(userRoutes.list);
  const user = users.find((candidate) => candidate.name === who);
  if (!user) throw new CliError(`no person is called "${who}"; see \`gatehouse users list\``);
  return user.id;
}

function describe(id: string, response: SlackUserResponse): string {
  if (response.slack === null) return `${id} has no Slack user\n`;
  const { slackUserId, createdBy, createdAt } = response.slack;
  return `${id} is Slack user ${terminalSafe(slackUserId)} (set by ${terminalSafe(createdBy)} at ${isoTime(createdAt)})\n`;
}

async function slack(context: ActionContext): Promise<number> {
  const [who, slackUserId] = context.positionals as [string, string | undefined];
  const remove = context.values.remove === true;
  if (remove && slackUserId !== undefined) {
    throw new UsageError('give a Slack member id or --remove, not both', context.command);
  }
  const client = context.client();
  const id = await personId(client, who);
  const params = { id };
  const response = remove
    ? await client.call(slackUserRoutes.remove, { params })
    : slackUserId === undefined
      ? await client.call(slackUserRoutes.get, { params })
      : await client.call(slackUserRoutes.set, { params, body: { slackUserId } });
  if (context.json) printJson(context.io, response);
  else context.io.stdout.write(describe(id, response));
  return 0;
}

/** `gatehouse users slack`: which Slack user a person is, so their clicks in Slack decide as them. */
export const usersSlackAction: Action = {
  name: 'slack',
  summary: "Show, set or remove a person's Slack member id (admins: anyone; everyone: me)",
  args: '<user-id-or-name|me> [<slack-member-id>]',
  positionals: { min: 1, max: 2 },
  options: {
    remove: {
      type: 'boolean',
      description: 'Remove the Slack member id; Slack clicks by that user are refused',
    },
  },
  examples: [
    'gatehouse users slack dana U024BE7LH',
    'gatehouse users slack me W012A3CDE',
    'gatehouse users slack dana --remove',
  ],
  run: slack,
};
