import type { ApprovalMode, AutonomyLevel, RiskLevel } from 'gatehouse-hitl-protocol';
import { type FormEvent, useState } from 'react';
import { ApiError, errorText } from '../api/client.js';
import { type DryRunRequest, type DryRunResult, dryRun, type PolicyFormat } from '../api/policy.js';
import { useSession } from '../app/session.js';
import { APPROVAL_MODE_LABEL, AUTONOMY_LABEL } from '../lib/run-labels.js';
import { Field } from './Field.js';

const RISKS: RiskLevel[] = ['low', 'medium', 'high', 'critical'];
const OUTCOME_TEXT: Record<DryRunResult['outcome'], string> = {
  allowed: 'Allowed at once',
  denied: 'Denied at once',
  gated: 'Gated: a person decides',
};
const VIA_TEXT: Record<DryRunResult['via'], string> = {
  policy: 'the policy',
  remembered_rule: 'a remembered “approve always” rule',
  trigger_rules: 'the run’s trigger rules',
  approval_mode: 'the run’s approval mode',
};

interface Fields {
  kind: 'tool' | 'operation';
  tool: string;
  operation: string;
  args: string;
  event: string;
  risk: string;
  confidence: string;
  gateType: string;
  agentId: string;
  profile: string;
  inRun: boolean;
  autonomy: AutonomyLevel;
  approvalMode: ApprovalMode;
  threshold: string;
  against: 'active' | 'draft';
}

const INITIAL: Fields = {
  kind: 'tool',
  tool: 'shell',
  operation: '',
  args: '{ "command": "rm -rf build" }',
  event: '',
  risk: '',
  confidence: '',
  gateType: '',
  agentId: '',
  profile: '',
  inRun: false,
  autonomy: 'partial',
  approvalMode: 'auto',
  threshold: '0.8',
  against: 'active',
};

type FieldErrors = Partial<Record<keyof Fields, string>>;

function buildRequest(fields: Fields): { request: DryRunRequest } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const request: DryRunRequest = {};
  if (fields.kind === 'tool') {
    if (fields.tool.trim() === '') errors.tool = 'Name the tool, e.g. shell or read_file.';
    else request.tool = fields.tool.trim();
  } else if (fields.operation.trim() === '') errors.operation = 'Describe the operation.';
  else request.operation = fields.operation.trim();
  if (fields.args.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(fields.args);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        errors.args = 'Arguments are a JSON object, e.g. { "path": "README.md" }.';
      } else request.args = parsed as Record<string, unknown>;
    } catch (error) {
      errors.args = `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (fields.event.trim() !== '') request.event = fields.event.trim();
  if (fields.risk !== '') request.risk = fields.risk as RiskLevel;
  if (fields.confidence.trim() !== '') {
    const value = Number(fields.confidence);
    if (!Number.isFinite(value) || value < 0 || value > 1) errors.confidence = 'A number from 0 to 1.';
    else request.confidence = value;
  }
  if (fields.gateType.trim() !== '') request.gateType = fields.gateType.trim();
  if (fields.agentId.trim() !== '' || fields.profile.trim() !== '') {
    request.agent = { id: fields.agentId.trim() || 'dry-run', profile: fields.profile.trim() || null };
  }
  if (fields.inRun) {
    const threshold = Number(fields.threshold);
    if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
      errors.threshold = 'A number from 0 to 1.';
    request.run = {
      id: 'dry-run',
      autonomy: fields.autonomy,
      approvalMode: fields.approvalMode,
      confidenceThreshold: threshold,
    };
  }
  return Object.keys(errors).length > 0 ? { errors } : { request };
}

/** A select over a label map (value → text), e.g. the run's autonomy or approval mode. */
function LabelledChoice({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: Record<string, string>;
  onChange(value: string): void;
}) {
  return (
    <Field id={id} label={label}>
      {(wiring) => (
        <select {...wiring} value={value} onChange={(event) => onChange(event.target.value)}>
          {Object.entries(options).map(([option, text]) => (
            <option key={option} value={option}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function DryRunAnswer({ result }: { result: DryRunResult }) {
  const { decision, gate } = result;
  return (
    <div className={`dry-run-result outcome-${result.outcome}`}>
      <p className="dry-run-outcome">
        <strong>{OUTCOME_TEXT[result.outcome]}</strong>
      </p>
      <p>
        Decided by {VIA_TEXT[result.via]}
        {result.ruleId ? (
          <>
            {' '}
            — rule <code>{result.ruleId}</code>
          </>
        ) : (
          ' — no rule matched, so the default action applied'
        )}
        {result.policyVersion !== null ? ` (policy version ${result.policyVersion})` : ' (the edited text)'}.
      </p>
      <p>Reason: {result.reason}</p>
      {decision.matched.length > 0 ? (
        <p>
          Rules that matched:{' '}
          {decision.matched.map((id, index) => (
            <span key={id}>
              {index > 0 ? ', ' : ''}
              <code>{id}</code>
            </span>
          ))}
        </p>
      ) : null}
      {decision.alwaysGated && decision.alwaysGated.length > 0 ? (
        <p>Always gated: {decision.alwaysGated.join(', ')}</p>
      ) : null}
      {decision.errors.length > 0 ? (
        <ul className="field-error">
          {decision.errors.map((error) => (
            <li key={error.ruleId}>
              Condition of <code>{error.ruleId}</code> failed: {error.message}
            </li>
          ))}
        </ul>
      ) : null}
      {gate ? (
        <dl className="facts">
          <div>
            <dt>Gate type</dt>
            <dd>{gate.type}</dd>
          </div>
          <div>
            <dt>Risk</dt>
            <dd>{gate.risk}</dd>
          </div>
          <div>
            <dt>Threshold</dt>
            <dd>{gate.threshold}</dd>
          </div>
          <div>
            <dt>Who may decide</dt>
            <dd>
              {gate.minRole.replace('_', ' ')} or above
              {gate.requiredApprovals > 1 ? `, ${gate.requiredApprovals} approvals` : ''}
              {gate.signatureRequired ? ', signed' : ''}
            </dd>
          </div>
          <div>
            <dt>Timeout</dt>
            <dd>
              {gate.timeoutSeconds === null ? 'none (waits for a person)' : `${gate.timeoutSeconds} s`}, then{' '}
              {gate.timeoutAction}
            </dd>
          </div>
        </dl>
      ) : null}
    </div>
  );
}

/** "Which rule decides, and what happens": a sample request evaluated without opening anything. */
export function DryRunForm({ draft }: { draft: { source: string; format: PolicyFormat } }) {
  const session = useSession();
  const canRun = session.can('developer');
  const [fields, setFields] = useState<Fields>(INITIAL);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ result: DryRunResult } | { error: string } | null>(null);

  const set = <K extends keyof Fields>(key: K, value: Fields[K]) =>
    setFields((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const built = buildRequest(fields);
    if ('errors' in built) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const result = await dryRun(built.request, fields.against === 'draft' ? draft : undefined);
      setAnswer({ result });
    } catch (error) {
      const text =
        error instanceof ApiError && error.code === 'POLICY_INVALID'
          ? `The edited text is not a valid policy: ${error.message}`
          : errorText(error);
      setAnswer({ error: text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="dry-run" onSubmit={(event) => void submit(event)} noValidate>
      <fieldset>
        <legend>The request</legend>
        <div className="row">
          <label className="inline-check">
            <input
              type="radio"
              name="dry-kind"
              checked={fields.kind === 'tool'}
              onChange={() => set('kind', 'tool')}
            />{' '}
            Tool call
          </label>
          <label className="inline-check">
            <input
              type="radio"
              name="dry-kind"
              checked={fields.kind === 'operation'}
              onChange={() => set('kind', 'operation')}
            />{' '}
            Operation
          </label>
        </div>
        {fields.kind === 'tool' ? (
          <Field id="dry-tool" label="Tool" error={errors.tool}>
            {(wiring) => (
              <input {...wiring} value={fields.tool} onChange={(event) => set('tool', event.target.value)} />
            )}
          </Field>
        ) : (
          <Field id="dry-operation" label="Operation" error={errors.operation}>
            {(wiring) => (
              <input
                {...wiring}
                value={fields.operation}
                onChange={(event) => set('operation', event.target.value)}
              />
            )}
          </Field>
        )}
        <Field id="dry-args" label="Arguments (JSON)" error={errors.args}>
          {(wiring) => (
            <textarea
              {...wiring}
              className="mono"
              value={fields.args}
              onChange={(event) => set('args', event.target.value)}
            />
          )}
        </Field>
        <div className="form-grid">
          <Field id="dry-event" label="Event (optional)">
            {(wiring) => (
              <input
                {...wiring}
                value={fields.event}
                placeholder="tool_call"
                onChange={(event) => set('event', event.target.value)}
              />
            )}
          </Field>
          <Field id="dry-risk" label="Risk">
            {(wiring) => (
              <select {...wiring} value={fields.risk} onChange={(event) => set('risk', event.target.value)}>
                <option value="">Not given</option>
                {RISKS.map((risk) => (
                  <option key={risk} value={risk}>
                    {risk}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="dry-confidence" label="Confidence, 0–1 (optional)" error={errors.confidence}>
            {(wiring) => (
              <input
                {...wiring}
                inputMode="decimal"
                value={fields.confidence}
                onChange={(event) => set('confidence', event.target.value)}
              />
            )}
          </Field>
          <Field id="dry-gate-type" label="Gate type (optional)">
            {(wiring) => (
              <input
                {...wiring}
                value={fields.gateType}
                onChange={(event) => set('gateType', event.target.value)}
              />
            )}
          </Field>
          <Field id="dry-agent" label="Agent id (optional)">
            {(wiring) => (
              <input
                {...wiring}
                value={fields.agentId}
                onChange={(event) => set('agentId', event.target.value)}
              />
            )}
          </Field>
          <Field id="dry-profile" label="Agent profile (optional)">
            {(wiring) => (
              <input
                {...wiring}
                value={fields.profile}
                placeholder="coder"
                onChange={(event) => set('profile', event.target.value)}
              />
            )}
          </Field>
        </div>
        <label className="inline-check">
          <input
            type="checkbox"
            checked={fields.inRun}
            onChange={(event) => set('inRun', event.target.checked)}
          />{' '}
          In a run
        </label>
        {fields.inRun ? (
          <div className="form-grid">
            <LabelledChoice
              id="dry-autonomy"
              label="Autonomy"
              value={fields.autonomy}
              options={AUTONOMY_LABEL}
              onChange={(value) => set('autonomy', value as AutonomyLevel)}
            />
            <LabelledChoice
              id="dry-mode"
              label="Approval mode"
              value={fields.approvalMode}
              options={APPROVAL_MODE_LABEL}
              onChange={(value) => set('approvalMode', value as ApprovalMode)}
            />
            <Field id="dry-threshold" label="Confidence threshold, 0–1" error={errors.threshold}>
              {(wiring) => (
                <input
                  {...wiring}
                  inputMode="decimal"
                  value={fields.threshold}
                  onChange={(event) => set('threshold', event.target.value)}
                />
              )}
            </Field>
          </div>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Against</legend>
        <label className="inline-check">
          <input
            type="radio"
            name="dry-against"
            checked={fields.against === 'active'}
            onChange={() => set('against', 'active')}
          />{' '}
          The active policy
        </label>
        <label className="inline-check">
          <input
            type="radio"
            name="dry-against"
            checked={fields.against === 'draft'}
            onChange={() => set('against', 'draft')}
          />{' '}
          The text in the editor
        </label>
      </fieldset>
      <div className="row">
        <button type="submit" className="primary" disabled={busy || !canRun}>
          {busy ? 'Running…' : 'Dry run'}
        </button>
        {canRun ? null : <span className="muted">Dry runs need the developer role or above.</span>}
      </div>
      <div role="status" aria-live="polite">
        {answer === null ? null : 'result' in answer ? (
          <DryRunAnswer result={answer.result} />
        ) : (
          <p className="notice error">{answer.error}</p>
        )}
      </div>
    </form>
  );
}
