import { authRoutes, type MeResponse } from 'gatehouse-hitl-protocol';
import type { Env } from './command.js';
import { readStoredCredentials, resolveCredentials } from './credentials.js';
import { createApiClient } from './http.js';
import { terminalSafe } from './output.js';

async function whoIs(env: Env): Promise<MeResponse | null> {
  try {
    const { url, token } = resolveCredentials(env);
    return await createApiClient({ url, token }).call(authRoutes.me);
  } catch {
    return null;
  }
}

function storedLogin(env: Env): { url: string } | null {
  try {
    return readStoredCredentials(env);
  } catch {
    return null;
  }
}

/**
 * For a FORBIDDEN answer to a token from GATEHOUSE_TOKEN: which credential the server refused and how to
 * use the login instead; null when the token came from the login itself.
 */
export async function forbiddenHint(env: Env, command: string | null): Promise<string | null> {
  const token = env.GATEHOUSE_TOKEN?.trim();
  if (!token) return null;
  const stored = storedLogin(env);
  const me = await whoIs(env);
  const isAgent = me ? me.kind === 'agent' : token.startsWith('gha_');
  if (!isAgent && stored === null) return null;
  const holder =
    me?.kind === 'agent'
      ? `the token of agent ${terminalSafe(me.agent.name)}, which cannot do what needs a person`
      : me?.kind === 'user'
        ? `the session of ${terminalSafe(me.user.name)} (${me.user.role})`
        : 'an agent token, which cannot do what needs a person';
  const rerun = `env -u GATEHOUSE_TOKEN gatehouse ${command ?? '<command>'} …`;
  const instead = stored
    ? `To use your login (${terminalSafe(stored.url)}) instead, unset GATEHOUSE_TOKEN or run \`${rerun}\`.`
    : 'To act as a person, unset GATEHOUSE_TOKEN and sign in with `gatehouse login` (your login is kept apart from agent tokens).';
  return `The token used was GATEHOUSE_TOKEN from the environment: ${holder}. ${instead}`;
}
