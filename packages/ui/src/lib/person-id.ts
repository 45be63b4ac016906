/** Decisions and rules record people as actors (`user:<id>`) or bare ids. */
export function personId(actor: string): string {
  return actor.startsWith('user:') ? actor.slice(5) : actor;
}
