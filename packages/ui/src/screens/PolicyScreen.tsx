import { ALWAYS_GATED_CATEGORIES, ALWAYS_GATED_LABELS } from 'gatehouse-hitl-core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { errorText } from '../api/client.js';
import {
  type ActivePolicy,
  getPolicy,
  listPolicyVersions,
  type PolicyFormat,
  type PolicyVersionSummary,
  policyIssuesOf,
  savePolicy,
  validatePolicy,
} from '../api/policy.js';
import { useSession } from '../app/session.js';
import { DryRunForm } from '../components/DryRunForm.js';
import { PolicyEditor, type PolicyEditorHandle } from '../components/PolicyEditor.js';
import { type PlacedIssue, PolicyErrors } from '../components/PolicyErrors.js';
import { PolicyHistory } from '../components/PolicyHistory.js';
import { formatDateTime } from '../components/time-format.js';
import { usePersonNames } from '../components/use-person-names.js';
import { issueLine } from '../lib/policy-lines.js';
import { useResource } from '../lib/use-resource.js';

interface Loaded {
  active: ActivePolicy;
  versions: PolicyVersionSummary[];
}

async function loadPolicy(signal: AbortSignal): Promise<Loaded> {
  const [active, versions] = await Promise.all([getPolicy(signal), listPolicyVersions(signal)]);
  return { active, versions };
}

type Check =
  | { status: 'idle' }
  | { status: 'busy'; action: 'validate' | 'save' }
  | { status: 'valid'; text: string }
  | { status: 'invalid'; summary: string; issues: PlacedIssue[]; checked: string }
  | { status: 'failed'; text: string };

const ERRORS_ID = 'policy-errors';

/** The active policy in an editor with validation at the rule, a dry run, and version history with diffs. */
export function PolicyScreen() {
  const session = useSession();
  const canSave = session.can('admin');
  const canValidate = session.can('developer');
  const { resource, reload } = useResource('policy', loadPolicy);
  // What the editor holds when it differs from the active policy: an edit, a loaded version, a saved text.
  const [draft, setDraft] = useState<{ source: string; format: PolicyFormat; base: number } | null>(null);
  const [check, setCheck] = useState<Check>({ status: 'idle' });
  const editor = useRef<PolicyEditorHandle>(null);
  const loaded = resource.status === 'ready' ? resource.value : null;
  const source = draft?.source ?? loaded?.active.source ?? '';
  const format = draft?.format ?? loaded?.active.format ?? 'yaml';
  const baseVersion = draft?.base ?? loaded?.active.version ?? null;
  const edit = (change: Partial<{ source: string; format: PolicyFormat }>) =>
    setDraft({ source, format, base: baseVersion ?? 0, ...change });

  const nameOf = usePersonNames(
    loaded ? loaded.versions.map((version) => version.createdBy.replace(/^user:/, '')) : [],
  );
  const dirty = loaded !== null && source !== loaded.active.source;

  const errorLines = useMemo(() => {
    const lines = new Map<number, string[]>();
    if (check.status !== 'invalid') return lines;
    for (const { issue, line } of check.issues) {
      if (line !== null) lines.set(line, [...(lines.get(line) ?? []), issue.message]);
    }
    return lines;
  }, [check]);

  const run = useCallback(
    async (action: 'validate' | 'save') => {
      setCheck({ status: 'busy', action });
      const checked = source;
      try {
        if (action === 'validate') {
          await validatePolicy(checked, format);
          setCheck({ status: 'valid', text: 'The policy is valid. Nothing was saved yet.' });
        } else {
          const saved = await savePolicy(checked, format);
          setDraft({ source: checked, format, base: saved.version });
          setCheck({
            status: 'valid',
            text: `Saved as version ${saved.version} (“${saved.name}”); it applies to every request from now on.`,
          });
          reload();
        }
      } catch (error) {
        const issues = policyIssuesOf(error);
        if (issues === null) {
          setCheck({ status: 'failed', text: errorText(error) });
          return;
        }
        const placed = issues.map((issue) => ({ issue, line: issueLine(checked, issue) }));
        setCheck({ status: 'invalid', summary: errorText(error), checked, issues: placed });
        const first = placed.find((each) => each.line !== null)?.line;
        if (first != null) editor.current?.scrollToLine(first);
      }
    },
    [source, format, reload],
  );

  if (resource.status === 'loading') {
    return (
      <main id="main" className="page ops-page">
        <h1>Policy</h1>
        <p role="status">Loading the policy…</p>
      </main>
    );
  }
  if (resource.status === 'error' || loaded === null) {
    return (
      <main id="main" className="page ops-page">
        <h1>Policy</h1>
        <p className="notice error" role="alert">
          Could not load the policy: {resource.status === 'error' ? errorText(resource.error) : 'unknown'}
        </p>
      </main>
    );
  }

  const { active } = loaded;
  const busy = check.status === 'busy';
  return (
    <main id="main" className="page ops-page">
      <h1>Policy</h1>
      <p className="muted">
        Active: “{active.name}”, version {active.version}, saved{' '}
        {active.createdBy === 'system' ? 'as the built-in default' : `by ${nameOf(active.createdBy)}`}{' '}
        {formatDateTime(active.createdAt)}.
      </p>
      <p className="muted always-gated-note">
        Under any policy, always-gated operations wait for a person every time, and no “approve always” rule
        covers them:{' '}
        {ALWAYS_GATED_CATEGORIES.map((category) => ALWAYS_GATED_LABELS[category].toLowerCase()).join(', ')}.
      </p>
      {active.failure ? (
        <p className="notice warn" role="alert">
          The stored policy does not load, so every request is gated meanwhile: {active.failure}
        </p>
      ) : null}
      <section className="card" aria-labelledby="policy-editor-title">
        <h2 id="policy-editor-title">Editor</h2>
        <div className="row editor-status">
          <span>
            {dirty ? (
              <strong>Unsaved changes</strong>
            ) : (
              <span className="muted">Same as the active version {active.version}</span>
            )}
            {baseVersion !== null && baseVersion !== active.version ? (
              <span className="muted"> · started from version {baseVersion}</span>
            ) : null}
          </span>
          <div className="field inline-field">
            <label htmlFor="policy-format">Format</label>
            <select
              id="policy-format"
              value={format}
              onChange={(event) => edit({ format: event.target.value as PolicyFormat })}
            >
              <option value="yaml">YAML</option>
              <option value="json">JSON</option>
            </select>
          </div>
        </div>
        <PolicyEditor
          ref={editor}
          id="policy-source"
          label="Policy YAML"
          value={source}
          onChange={(text) => edit({ source: text })}
          errorLines={errorLines}
          errorsId={check.status === 'invalid' ? ERRORS_ID : undefined}
        />
        <div className="row editor-actions">
          <button type="button" onClick={() => void run('validate')} disabled={busy || !canValidate}>
            {check.status === 'busy' && check.action === 'validate' ? 'Validating…' : 'Validate'}
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => void run('save')}
            disabled={busy || !canSave}
          >
            {check.status === 'busy' && check.action === 'save' ? 'Saving…' : 'Save policy'}
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(null);
              setCheck({ status: 'idle' });
            }}
            disabled={!dirty || busy}
          >
            Revert to the active version
          </button>
        </div>
        {!canSave ? (
          <p className="muted">
            {canValidate
              ? 'Only admins can save the policy; you can validate and dry-run your changes.'
              : 'Viewers can read the policy; validating needs the developer role and saving needs admin.'}
          </p>
        ) : null}
        {check.status === 'valid' ? (
          <p className="notice ok" role="status">
            {check.text}
          </p>
        ) : null}
        {check.status === 'failed' ? (
          <p className="notice error" role="alert">
            {check.text}
          </p>
        ) : null}
        {check.status === 'invalid' ? (
          <PolicyErrors
            id={ERRORS_ID}
            summary={check.summary}
            issues={check.issues}
            stale={check.checked !== source}
            onGoToLine={(line) => editor.current?.goToLine(line)}
          />
        ) : null}
      </section>
      <section className="card" aria-labelledby="dry-run-title">
        <h2 id="dry-run-title">Dry run</h2>
        <p className="muted">
          Which rule decides a request, and what would happen — nothing is opened or stored.
        </p>
        <DryRunForm draft={{ source, format }} />
      </section>
      <section className="card" aria-labelledby="history-title">
        <h2 id="history-title">Version history</h2>
        <PolicyHistory
          versions={loaded.versions}
          activeVersion={active.version}
          nameOf={nameOf}
          onLoad={(version) => {
            setDraft({ source: version.source, format: version.format, base: version.version });
            setCheck({ status: 'idle' });
            editor.current?.goToLine(1);
          }}
        />
      </section>
    </main>
  );
}
