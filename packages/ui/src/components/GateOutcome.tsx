import { Link } from 'wouter';

/** The way back to the inbox and on to the next pending gate. */
export function NextGateLinks({ nextGateId }: { nextGateId: string | null | undefined }) {
  return (
    <p className="row next-links">
      <Link href="/inbox">Back to inbox</Link>
      {nextGateId && <Link href={`/gates/${encodeURIComponent(nextGateId)}`}>Next gate</Link>}
      {nextGateId === null && <span className="muted">No other gate is waiting.</span>}
    </p>
  );
}

/** What the reviewer's decision did, with the way back to the inbox and on to the next gate. */
export function GateOutcome({
  message,
  nextGateId,
}: {
  message: string;
  /** The next pending gate; null when none is waiting, undefined while looking. */
  nextGateId: string | null | undefined;
}) {
  return (
    <div className="notice ok gate-outcome" role="status">
      <p>
        <strong>{message}</strong>
      </p>
      <NextGateLinks nextGateId={nextGateId} />
    </div>
  );
}
