import { type UserDocument, userRoutes } from 'gatehouse-hitl-protocol';
import { queryAudit } from './audit.js';
import { callApi } from './client.js';

/** A person as the people list names them (admins only). */
export type Person = UserDocument;

const names = new Map<string, string>();
const pending = new Map<string, Promise<void>>();

/** Everyone, for admins (the only role that may list people). */
export async function listPeople(): Promise<Person[]> {
  const answer = await callApi(userRoutes.list);
  for (const person of answer.users) names.set(person.id, person.name);
  return answer.users;
}

// Below admin the people list is closed, but the audit trail (viewer+) records each person's name
// when they were created; names never change afterwards.
async function nameFromAudit(id: string): Promise<void> {
  const page = await queryAudit({ kind: 'user.created', subject: id, limit: 1 });
  const name = page.items[0]?.data.name;
  if (typeof name === 'string' && name !== '') names.set(id, name);
}

/** Looks up the names of `ids` not known yet; failures leave the id as its own name. */
export async function resolvePersonNames(ids: readonly string[], canListPeople: boolean): Promise<void> {
  const unknown = ids.filter((id) => id.startsWith('user_') && !names.has(id));
  if (unknown.length === 0) return;
  if (canListPeople) {
    await listPeople().catch(() => undefined);
    return;
  }
  await Promise.all(
    unknown.map((id) => {
      let lookup = pending.get(id);
      if (lookup === undefined) {
        lookup = nameFromAudit(id)
          .catch(() => undefined)
          .finally(() => pending.delete(id));
        pending.set(id, lookup);
      }
      return lookup;
    }),
  );
}

/** Remembers a name the app already knows (the signed-in person's, say). */
export function rememberPersonName(id: string, name: string): void {
  names.set(id, name);
}

/** A readable name for a decider or approver id: the person's name, "the deadline" for timeouts, else the id. */
export function personLabel(id: string): string {
  if (id === 'system:timeout') return 'the deadline';
  // An agent ends only its own request (it withdrew it), so it is the agent that asked.
  if (id.startsWith('agent:')) return 'the agent that asked';
  const bare = id.startsWith('user:') ? id.slice(5) : id;
  return names.get(bare) ?? bare;
}

/** The id of the person called `name` (an id is returned as it is), from the audit trail; null when unknown. */
export async function findPersonId(name: string): Promise<string | null> {
  const wanted = name.trim();
  if (/^user_[A-Za-z0-9_]+$/.test(wanted)) return wanted;
  for (const [id, known] of names) if (known === wanted) return id;
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = await queryAudit({ kind: 'user.created', limit: 500, ...(cursor ? { cursor } : {}) });
    for (const event of answer.items) {
      const found = event.data.name;
      if (typeof found === 'string' && event.subject) names.set(event.subject, found);
      if (found === wanted && event.subject) return event.subject;
    }
    if (answer.nextCursor === null) return null;
    cursor = answer.nextCursor;
  }
  return null;
}
