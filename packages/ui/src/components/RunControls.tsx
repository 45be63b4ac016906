import { type FormEvent, useId, useRef, useState } from 'react';
import { ApiError, errorText } from '../api/client.js';
import { type InterventionKind, intervene, type Run } from '../api/runs.js';
import { useSession } from '../app/session.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { submitFormOnCtrlEnter } from './submit-keys.js';
import { useRevealOnOpen } from './use-reveal-on-open.js';

const DONE: Record<InterventionKind, string> = {
  pause: 'Run paused: its next gate request waits until it is resumed.',
  resume: 'Run resumed.',
  stop: 'Run stopped: every further request of the run fails and its pending gates were cancelled.',
  steer: 'Instructions sent: the agent receives them as its next instruction.',
};

function isLive(run: Run): boolean {
  return run.status === 'running' || run.status === 'waiting';
}

/** Which interventions the run's status allows (the server checks again). */
function allowed(run: Run): Record<InterventionKind, boolean> {
  const live = isLive(run);
  return {
    pause: live,
    resume: run.status === 'paused',
    stop: live || run.status === 'paused',
    steer: live || run.status === 'paused',
  };
}

/** Pause, resume, stop (after confirming) and steer a run, for developers and above. */
export function RunControls({ run, onChanged }: { run: Run; onChanged: (run: Run) => void }) {
  const session = useSession();
  const canAct = session.can('developer');
  const [busy, setBusy] = useState<InterventionKind | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirmStop, setConfirmStop] = useState(false);
  const [stopError, setStopError] = useState<string | null>(null);
  const [steering, setSteering] = useState(false);
  const [instructions, setInstructions] = useState('');
  const [steerError, setSteerError] = useState<string | null>(null);
  const steerField = useRef<HTMLTextAreaElement>(null);
  const steerForm = useRevealOnOpen<HTMLFormElement>(steering);
  const steerErrorId = useId();
  const hintId = useId();
  const can = allowed(run);

  async function send(kind: InterventionKind, instruction?: string): Promise<boolean> {
    setBusy(kind);
    setResult(null);
    try {
      const answer = await intervene(run.id, instruction === undefined ? { kind } : { kind, instruction });
      onChanged(answer.run);
      setResult({ ok: true, text: DONE[kind] });
      return true;
    } catch (error) {
      const text = errorText(error);
      if (kind === 'stop') setStopError(text);
      else if (kind === 'steer' && error instanceof ApiError && error.field === 'instruction')
        setSteerError(text);
      else setResult({ ok: false, text });
      return false;
    } finally {
      setBusy(null);
    }
  }

  async function submitSteer(event: FormEvent) {
    event.preventDefault();
    if (instructions.trim() === '') {
      setSteerError('Write the instructions for the agent first.');
      steerField.current?.focus();
      return;
    }
    setSteerError(null);
    if (await send('steer', instructions)) {
      setInstructions('');
      setSteering(false);
    }
  }

  async function stop() {
    setStopError(null);
    if (await send('stop')) setConfirmStop(false);
  }

  const disabledFor = (kind: InterventionKind) => !canAct || !can[kind] || busy !== null;

  return (
    <section className="card" aria-labelledby="run-controls-title">
      <h2 id="run-controls-title">Controls</h2>
      <p id={hintId} className="muted">
        {canAct
          ? `The run is ${run.status}; the buttons it does not allow now are disabled.`
          : 'Only developers and above can pause, resume, stop or steer a run.'}
      </p>
      <div className="row">
        <button
          type="button"
          onClick={() => void send('pause')}
          disabled={disabledFor('pause')}
          aria-describedby={hintId}
        >
          {busy === 'pause' ? 'Pausing…' : 'Pause'}
        </button>
        <button
          type="button"
          onClick={() => void send('resume')}
          disabled={disabledFor('resume')}
          aria-describedby={hintId}
        >
          {busy === 'resume' ? 'Resuming…' : 'Resume'}
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => {
            setStopError(null);
            setConfirmStop(true);
          }}
          disabled={disabledFor('stop')}
          aria-describedby={hintId}
        >
          Stop
        </button>
        <button
          type="button"
          aria-expanded={steering}
          aria-controls="run-steer-form"
          onClick={() => {
            setSteering((open) => !open);
            setSteerError(null);
          }}
          disabled={disabledFor('steer')}
          aria-describedby={hintId}
        >
          Steer
        </button>
      </div>
      {steering ? (
        <form
          ref={steerForm}
          id="run-steer-form"
          className="run-steer-form"
          onKeyDown={submitFormOnCtrlEnter}
          onSubmit={(event) => void submitSteer(event)}
          noValidate
        >
          <div className="field">
            <label htmlFor="run-steer-instructions">Instructions</label>
            <textarea
              id="run-steer-instructions"
              ref={steerField}
              value={instructions}
              onChange={(event) => setInstructions(event.target.value)}
              required
              aria-invalid={steerError !== null}
              aria-describedby={steerError ? steerErrorId : undefined}
              placeholder="What the agent should do next (delivered verbatim as its next instruction)"
            />
            {steerError ? (
              <p id={steerErrorId} className="field-error" role="alert">
                {steerError}
              </p>
            ) : null}
          </div>
          <div className="row">
            <button type="submit" className="primary" disabled={busy !== null}>
              {busy === 'steer' ? 'Sending…' : 'Send'}
            </button>
            <button type="button" onClick={() => setSteering(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {result ? (
        <p className={`notice ${result.ok ? 'ok' : 'error'}`} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirmStop}
        title="Stop this run?"
        confirmLabel="Stop run"
        danger
        busy={busy === 'stop'}
        error={stopError}
        onConfirm={() => void stop()}
        onCancel={() => setConfirmStop(false)}
      >
        <p>
          Every further request of <strong>{run.title ?? run.id}</strong> will fail, and its pending gates are
          cancelled. A stopped run cannot be resumed.
        </p>
      </ConfirmDialog>
    </section>
  );
}
