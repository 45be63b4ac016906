import { type Role, type UserDocument as User, userRoutes } from 'gatehouse-hitl-protocol';
import { choiceOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import type { ApiClient } from '../http.js';
import { isoTime, printJson, printTable, terminalSafe } from '../output.js';
import { promptSecret } from '../terminal.js';
import { usersSlackAction } from './users-slack.js';

const ROLES: readonly Role[] = ['viewer', 'developer', 'tech_lead', 'admin'];

async function userId(client: ApiClient, idOrName: string): Promise<string> {
  if (idOrName.startsWith('user_')) return idOrName;
  const { users } = await client.call(userRoutes.list);
  const user = users.find((candidate) => candidate.name === idOrName);
  if (!user) throw new CliError(`no person is called "${idOrName}"; see \`gatehouse users list\``);
  return user.id;
}

async function readPassword(context: ActionContext, name: string): Promise<string> {
  const password = await promptSecret(context.io, `Password for ${name} (at least 12 characters): `);
  if (context.io.stdin.isTTY) {
    const again = await promptSecret(context.io, 'Again: ');
    if (again !== password) throw new CliError('the passwords differ; nothing was created');
  }
  if (password === '') throw new CliError('no password given; nothing was created');
  return password;
}

function printUser(context: ActionContext, user: User, verb: string): void {
  context.io.stdout.write(
    `${user.id} (${terminalSafe(user.name)}) ${verb}: ${user.role}${user.disabled ? ', disabled' : ''}\n`,
  );
}

async function create(context: ActionContext): Promise<number> {
  const name = context.positionals[0] as string;
  const role = choiceOption(context.values, 'role', ROLES, context.command);
  if (role === undefined) throw new UsageError('users create needs --role', context.command);
  const client = context.client();
  const password = await readPassword(context, name);
  const response = await client.call(userRoutes.create, { body: { name, password, role } });
  if (context.json) printJson(context.io, response);
  else printUser(context, response.user, 'created');
  return 0;
}

async function role(context: ActionContext): Promise<number> {
  const [who, newRole] = context.positionals as [string, string];
  if (!(ROLES as readonly string[]).includes(newRole)) {
    throw new UsageError(`the role must be one of ${ROLES.join(', ')} (got "${newRole}")`, context.command);
  }
  const client = context.client();
  const id = await userId(client, who);
  const response = await client.call(userRoutes.update, { params: { id }, body: { role: newRole as Role } });
  if (context.json) printJson(context.io, response);
  else printUser(context, response.user, 'now has the role');
  return 0;
}

async function list(context: ActionContext): Promise<number> {
  const response = await context.client().call(userRoutes.list);
  if (context.json) printJson(context.io, response);
  else {
    printTable(
      context.io.stdout,
      ['ID', 'NAME', 'ROLE', 'DISABLED', 'CREATED'],
      response.users.map((u) => [u.id, u.name, u.role, u.disabled ? 'yes' : '', isoTime(u.createdAt)]),
      'no people',
    );
  }
  return 0;
}

/** `gatehouse users`: people and their roles (admins only). */
export const usersCommand: Command = {
  name: 'users',
  summary: 'Create people and change their roles (admin)',
  actions: [
    {
      name: 'create',
      summary: 'Create a person; the password is asked for without echo (or read from piped stdin)',
      args: '<name>',
      positionals: { min: 1, max: 1 },
      options: {
        role: { type: 'string', value: '<role>', description: `One of ${ROLES.join(', ')} (required)` },
      },
      examples: ['gatehouse users create dana --role tech_lead'],
      run: create,
    },
    {
      name: 'role',
      summary: "Change a person's role; it applies to their next request",
      args: '<user-id-or-name> <role>',
      positionals: { min: 2, max: 2 },
      examples: ['gatehouse users role dana admin'],
      run: role,
    },
    { name: 'list', summary: 'List people and their roles', run: list },
    usersSlackAction,
  ],
};
