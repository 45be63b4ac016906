import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { type RunFinding, reportFalsePositive } from '../api/analysis.js';
import { Field } from './Field.js';
import { useFieldError } from './use-field-error.js';

/** Where a finding points, as the findings table shows it. */
export function findingPlace(finding: RunFinding): string {
  return finding.line === null ? finding.file : `${finding.file}:${finding.line}`;
}

/**
 * Reports one finding of a run as a false positive, with the reason a person gives; the server opens
 * a false_positive_override gate, linked here, where someone decides Legitimate, Violation or Whitelist.
 */
export function ReportFalsePositive({
  runId,
  finding,
  onDone,
}: {
  runId: string;
  finding: RunFinding;
  onDone(): void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [gateId, setGateId] = useState<string | null>(null);
  const { error, setError, fail, errorFor } = useFieldError();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setError({ field: 'reason', text: 'reason: say why the finding is wrong' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const gate = await reportFalsePositive({
        runId,
        finding: {
          pattern: finding.pattern,
          file: finding.file,
          line: finding.line,
          name: finding.name,
          confidence: finding.confidence,
        },
        reason: reason.trim(),
      });
      setGateId(gate.id);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };

  const title = `Report ${finding.pattern} in ${findingPlace(finding)} as a false positive`;
  if (gateId !== null) {
    return (
      <section className="card" aria-label={title}>
        <p className="notice ok" role="status">
          Reported {finding.pattern} in {findingPlace(finding)} as a false positive.{' '}
          <Link href={`/gates/${encodeURIComponent(gateId)}`}>Open the false-positive review</Link>
        </p>
        <button type="button" onClick={onDone}>
          Close
        </button>
      </section>
    );
  }
  return (
    <section className="card" aria-label={title}>
      <form className="stack" onSubmit={(event) => void submit(event)} noValidate>
        <p>
          Report <code>{finding.pattern}</code> in <code>{findingPlace(finding)}</code> as a false positive. A
          person then decides it on a review gate; whitelisting it needs a tech lead.
        </p>
        <Field
          id={`${id}-reason`}
          label="Why is this finding wrong?"
          hint="Shown on the review gate"
          error={errorFor('reason')}
        >
          {(wiring) => (
            <textarea
              {...wiring}
              rows={3}
              maxLength={4000}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              required
            />
          )}
        </Field>
        {error && (
          <p className="notice error" role="alert">
            {error.text}
          </p>
        )}
        <div>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Reporting…' : 'Send the report'}
          </button>{' '}
          <button type="button" onClick={onDone} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
