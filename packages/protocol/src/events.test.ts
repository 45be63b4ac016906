import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isStreamEventName, STREAM_EVENT_NAMES } from './stream-events.js';

const EVENTS_DOC = new URL('../../../docs/events.md', import.meta.url);
const SECTION = '## Stream event names';

/** The event names of the table under "Stream event names" in docs/events.md, one a row. */
function documentedNames(): string[] {
  const text = readFileSync(EVENTS_DOC, 'utf8');
  const start = text.indexOf(SECTION);
  if (start === -1) throw new Error(`docs/events.md has no "${SECTION}" section`);
  const end = text.indexOf('\n## ', start + SECTION.length);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| `([a-z_.]+)` \|/gm)].map((match) => match[1] as string);
}

describe('stream event names', () => {
  it('are exactly the names docs/events.md lists, each once', () => {
    const documented = documentedNames();
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...STREAM_EVENT_NAMES].sort());
  });

  it('has no name twice', () => {
    expect(new Set(STREAM_EVENT_NAMES).size).toBe(STREAM_EVENT_NAMES.length);
  });

  it('tells a sent name from any other', () => {
    expect(isStreamEventName('gate.decided')).toBe(true);
    expect(isStreamEventName('gate.auto_approved')).toBe(false);
  });
});
