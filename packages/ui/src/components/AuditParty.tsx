import { Link } from 'wouter';
import type { AuditEvent } from '../api/audit.js';
import { useAgentNames } from './use-agent-names.js';
import { useGateTitles } from './use-gate-titles.js';
import { usePersonNames } from './use-person-names.js';
import { useRunTitles } from './use-run-titles.js';

/** Readable names for the ids an audit page mentions. */
export interface AuditNames {
  person(id: string): string;
  agent(id: string): string | null;
  run(id: string): string | null;
  gate(id: string): string | null;
}

const bare = (id: string) => id.replace(/^(user|agent):/, '');

/** Looks up the people, agents and runs the events name, in the background. */
export function useAuditNames(events: readonly AuditEvent[]): AuditNames {
  const ids = events.flatMap((event) => [bare(event.actor), ...(event.subject ? [event.subject] : [])]);
  const person = usePersonNames(ids.filter((id) => id.startsWith('user_')));
  const agent = useAgentNames(ids.filter((id) => id.startsWith('agent_')));
  const run = useRunTitles(ids.filter((id) => id.startsWith('run_')));
  const gate = useGateTitles(ids.filter((id) => id.startsWith('gate_')));
  return { person, agent, run, gate };
}

/**
 * An actor or subject by name: people and agents link to their own events, runs and gates to their
 * pages; the raw id stays one hover away.
 */
export function AuditParty({ id, names }: { id: string; names: AuditNames }) {
  const plain = bare(id);
  if (plain.startsWith('user_')) {
    const name = names.person(plain);
    return name === plain ? (
      <span className="mono">{id}</span>
    ) : (
      <WhoLink name={name} kind="Person" id={id} />
    );
  }
  if (plain.startsWith('agent_')) {
    const name = names.agent(plain);
    return name === null ? <span className="mono">{id}</span> : <WhoLink name={name} kind="Agent" id={id} />;
  }
  if (plain.startsWith('run_')) {
    return (
      <Link href={`/runs/${encodeURIComponent(plain)}`} title={plain}>
        Run {names.run(plain) ?? plain}
      </Link>
    );
  }
  if (plain.startsWith('gate_')) {
    return (
      <Link href={`/gates/${encodeURIComponent(plain)}`} title={plain}>
        Gate: {names.gate(plain) ?? plain}
      </Link>
    );
  }
  return <span className="mono">{id}</span>;
}

function WhoLink({ name, kind, id }: { name: string; kind: string; id: string }) {
  return (
    <Link href={`/audit?who=${encodeURIComponent(name)}`} title={`${kind} ${id}: show their events`}>
      {name}
    </Link>
  );
}
