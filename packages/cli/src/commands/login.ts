import { authRoutes, type SessionResponse } from 'gatehouse-hitl-protocol';
import { stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { DEFAULT_URL, normalizeUrl, readStoredCredentials, saveCredentials } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import { createApiClient } from '../http.js';
import { printJson, terminalSafe } from '../output.js';
import { promptSecret } from '../terminal.js';

/** A signed-in session; a pasted session token's expiry is not known here. */
type Session = Omit<SessionResponse, 'expiresAt'> & Partial<Pick<SessionResponse, 'expiresAt'>>;

/** A login link (`…/login#token=ghl_…`) or a bare token → the token and the server the link names. */
export function parseLoginLink(text: string): { token: string; url: string | null } {
  const trimmed = text.trim();
  if (/^gh[ls]_[A-Za-z0-9_-]+$/.test(trimmed)) return { token: trimmed, url: null };
  let link: URL;
  try {
    link = new URL(trimmed);
  } catch {
    throw new CliError(
      '--link takes the login link the server printed (…/login#token=ghl_…) or its ghl_… token',
    );
  }
  const token =
    new URLSearchParams(link.hash.replace(/^#/, '')).get('token') ?? link.searchParams.get('token');
  if (!token) throw new CliError(`the link ${trimmed} has no token; copy the whole link the server printed`);
  const path = link.pathname.replace(/\/login\/?$/, '');
  return { token, url: `${link.origin}${path.replace(/\/+$/, '')}` };
}

function serverUrl(context: ActionContext, fromLink: string | null): string {
  const given = stringOption(context.values, 'url');
  const env = context.io.env.GATEHOUSE_URL?.trim();
  const stored = readStoredCredentials(context.io.env)?.url;
  return normalizeUrl(given ?? fromLink ?? (env || stored || DEFAULT_URL));
}

async function signInWithLink(
  context: ActionContext,
  text: string,
): Promise<{ url: string; session: Session }> {
  const link = parseLoginLink(text);
  const url = serverUrl(context, link.url);
  if (link.token.startsWith('ghs_')) {
    const client = createApiClient({ url, token: link.token });
    const me = await client.call(authRoutes.me);
    if (me.kind !== 'user') throw new CliError('that token is not a person’s session');
    return { url, session: { token: link.token, user: me.user } };
  }
  const session = await createApiClient({ url }).call(authRoutes.loginWithLink, {
    body: { token: link.token },
  });
  return { url, session };
}

async function signInWithPassword(
  context: ActionContext,
  name: string,
): Promise<{ url: string; session: Session }> {
  const url = serverUrl(context, null);
  const password = await promptSecret(context.io, `Password for ${name} at ${url}: `);
  if (password === '') throw new CliError('no password given');
  const session = await createApiClient({ url }).call(authRoutes.login, { body: { name, password } });
  return { url, session };
}

async function login(context: ActionContext): Promise<number> {
  const link = stringOption(context.values, 'link') ?? stringOption(context.values, 'token');
  const name = stringOption(context.values, 'name');
  if (link !== undefined && name !== undefined) {
    throw new UsageError('give either --name (password sign-in) or --link, not both', context.command);
  }
  if (link === undefined && name === undefined) {
    throw new UsageError(
      'give --name <person> to sign in with a password, or --link <login link>',
      context.command,
    );
  }
  const { url, session } =
    link === undefined
      ? await signInWithPassword(context, name as string)
      : await signInWithLink(context, link);
  const file = saveCredentials(context.io.env, { url, token: session.token });
  if (context.json) printJson(context.io, session);
  else {
    const { user } = session;
    context.io.stdout.write(
      `Signed in to ${url} as ${terminalSafe(user.name)} (${terminalSafe(user.role)}); credentials saved in ${file}\n`,
    );
  }
  return 0;
}

/** `gatehouse login`: sign in with a password or a one-time login link and keep the session. */
export const loginCommand: Command = {
  name: 'login',
  summary: 'Sign in to a Gatehouse server and keep the session for the other commands',
  actions: [
    {
      name: '',
      summary:
        'Sign in with a password (asked without echo) or with the one-time login link the server printed',
      options: {
        url: { type: 'string', value: '<url>', description: `Server address (default ${DEFAULT_URL})` },
        name: {
          type: 'string',
          value: '<name>',
          description: 'Sign in as this person; the password is asked for',
        },
        link: {
          type: 'string',
          value: '<link>',
          description: 'A one-time login link (…/login#token=ghl_…) or its token',
        },
        token: { type: 'string', value: '<token>', description: 'Same as --link' },
      },
      details:
        'The session is stored in $XDG_CONFIG_HOME/gatehouse/credentials.json (mode 0600).\n' +
        'When stdin is not a terminal, the password is read from its first line.',
      examples: [
        'gatehouse login --url http://127.0.0.1:7300 --name admin',
        "gatehouse login --link 'http://127.0.0.1:7300/login#token=ghl_…'",
      ],
      run: login,
    },
  ],
};
