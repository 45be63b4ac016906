import {
  alwaysRefusal,
  approvesAction,
  decisionKeys,
  type GateOption,
  type KeyBinding,
  type StandingScope,
} from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { useMemo, useRef, useState } from 'react';
import { ApiError, errorText } from '../api/client.js';
import { type DecideBody, type DecideResult, decideGate } from '../api/gate-review.js';
import { signDecision } from '../signing/decision-signature.js';
import type { SigningKeyControl } from '../signing/use-signing-key.js';
import { AlwaysForm, type AlwaysValues, initialAlwaysValues } from './AlwaysForm.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { DecisionOptions } from './DecisionOptions.js';
import { type ChosenBy, type Confirmation, confirmationFor, confirmationText } from './decision-confirm.js';
import { decisionFailureText } from './decision-failure.js';
import {
  EMPTY_REPLY,
  type FieldErrors,
  formFieldOf,
  isLostRace,
  isWorkspacePath,
  missingFields,
  needsInstructions,
  type ReplyValues,
  replyBody,
  splitPaths,
} from './decision-form.js';
import { EditArgsForm } from './EditArgsForm.js';
import { editedPayloadHash } from './edit-args.js';
import { KeyHelpDialog } from './KeyHelpDialog.js';
import { OptionReply } from './OptionReply.js';
import { SigningPanel } from './SigningPanel.js';
import { SteerForm, type SteerValues } from './SteerForm.js';
import { submitFormOnCtrlEnter } from './submit-keys.js';
import { useDelegateAgents } from './use-delegate-agents.js';
import { useOptionShortcuts } from './use-option-shortcuts.js';
import {
  INITIAL_WHITELIST_SCOPE,
  WhitelistScopeForm,
  type WhitelistScopeValues,
  whitelistsFinding,
} from './WhitelistScopeForm.js';

type OpenForm = { kind: 'instructions' | 'always' | 'edit' | 'whitelist'; option: GateOption } | null;

const EMPTY_STEER: SteerValues = { instructions: '', artifacts: new Set(), otherPaths: '' };

// Errors go to the option whose inputs they are about; the first one in the form gets focus.
const FOCUS_ORDER = ['delegateTo', 'newLimit', 'answer', 'reason', 'feedback'] as const;

export interface DecisionPanelProps {
  gate: Gate;
  /** Why this person cannot decide the gate (viewer, role too low, not an assignee), or null. */
  blocked: string | null;
  /** Why this person may not approve, though they may reject (separation of duties), or null. */
  approveBlocked: string | null;
  myId: string;
  /** Global "approve always" rules need tech lead or above. */
  canGlobalRule: boolean;
  /** Workspace paths the gate names, for the steer's artifact picker. */
  artifactChoices: readonly string[];
  /** This browser's signing key, for gates that need a signed decision. */
  signing: SigningKeyControl | null;
  /** View, diff, history: show more of the gate, decide nothing. */
  onShowMore(option: GateOption): void;
  onDecided(result: DecideResult, option: GateOption): void;
  /** The gate ended before this decision arrived (someone else or the deadline was first). */
  onLostRace(error: ApiError): void;
}

function optionBlock(gate: Gate, option: GateOption, who: { myId: string; approveBlocked: string | null }) {
  if (option.id === 'approve_always' && gate.action?.tool === undefined) {
    return 'Only a tool call can be remembered; approve this one once.';
  }
  if (who.approveBlocked !== null && approvesAction(gate, option.id)) return who.approveBlocked;
  if (option.outcome === 'approved' && gate.approvals.some((vote) => vote.by === who.myId)) {
    return 'You already approved; another person has to approve too.';
  }
  return null;
}

/**
 * The gate's own options as buttons with their single-key shortcuts, each with the inputs it takes
 * (a reply box labelled with what the agent receives, an agent to delegate to, a new limit), the
 * steer, "approve always" and edit forms, and the signature where the gate needs one.
 */
export function DecisionPanel(props: DecisionPanelProps) {
  const { gate, blocked, signing } = props;
  const who = { myId: props.myId, approveBlocked: props.approveBlocked };
  const [replies, setReplies] = useState<Readonly<Record<string, ReplyValues>>>({});
  const approveOption = gate.options.find((option) => option.id === 'approve');
  const [steer, setSteer] = useState<SteerValues>(EMPTY_STEER);
  const [always, setAlways] = useState<AlwaysValues>(() => initialAlwaysValues(gate));
  const [whitelistScope, setWhitelistScope] = useState<WhitelistScopeValues>(INITIAL_WHITELIST_SCOPE);
  const [form, setForm] = useState<OpenForm>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  // The option the errors belong to: its inputs show them.
  const [errorsFor, setErrorsFor] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const bindings = useMemo(() => decisionKeys(gate), [gate]);
  const agents = useDelegateAgents(gate);
  const instructionsRef = useRef<HTMLTextAreaElement>(null);
  const inputs = useRef(new Map<string, HTMLElement>());
  const replyOf = (option: GateOption) => replies[option.id] ?? EMPTY_REPLY;

  const showErrors = (option: GateOption, found: FieldErrors) => {
    setErrors(found);
    setErrorsFor(option.id);
    if (found.instructions) return instructionsRef.current?.focus();
    const field = FOCUS_ORDER.find((name) => found[name] !== undefined);
    // A folded reply box opens with its error first; focus it on the next frame.
    if (field) requestAnimationFrame(() => inputs.current.get(`${option.id}:${field}`)?.focus());
  };

  async function send(option: GateOption, extra: Partial<DecideBody>): Promise<void> {
    const withInstructions = form?.kind === 'instructions' && form.option.id === option.id;
    const reply = replyOf(option);
    const missing = missingFields(
      gate,
      option,
      { reply, instructions: steer.instructions },
      withInstructions,
    );
    setGeneral(null);
    showErrors(option, missing);
    if (Object.keys(missing).length > 0) return;
    const body: DecideBody = { option: option.id, ...replyBody(option, reply), ...extra };
    setBusy(true);
    try {
      if (gate.signatureRequired) {
        const state = signing?.state;
        if (state?.status !== 'ready' || !state.registered) {
          setErrors({
            signature:
              'Create and register a signing key first (under Signed decision); this gate only takes signed decisions.',
          });
          return;
        }
        // An edited approval signs the edited action's hash, as the server checks it.
        const signed = body.editedArgs
          ? { ...gate, payloadHash: await editedPayloadHash(gate.action ?? {}, body.editedArgs) }
          : gate;
        body.signature = await signDecision(state.key, signed, body);
      }
      const result = await decideGate(gate.id, body);
      setForm(null);
      setSteer(EMPTY_STEER);
      setReplies({});
      props.onDecided(result, option);
    } catch (error) {
      if (isLostRace(error)) {
        setForm(null);
        props.onLostRace(error);
        return;
      }
      const field = error instanceof ApiError ? formFieldOf(error) : null;
      if (field !== null) showErrors(option, { [field]: errorText(error) });
      else setGeneral(decisionFailureText(error));
    } finally {
      setBusy(false);
    }
  }

  const choose = (binding: KeyBinding, by: ChosenBy) => {
    const { option } = binding;
    if (!binding.ends) {
      // Showing more decides nothing, so anyone may.
      props.onShowMore(option);
      return;
    }
    if (busy || blocked !== null || optionBlock(gate, option, who) !== null) return;
    const confirmation = confirmationFor({ gate, binding, by, replyOf });
    if (confirmation === null) return proceed(option);
    // Ask "are you sure" only once what the option needs is filled in.
    const missing = missingFields(gate, option, { reply: replyOf(option), instructions: '' }, false);
    showErrors(option, missing);
    if (Object.keys(missing).length === 0) setConfirming(confirmation);
  };

  const proceed = (option: GateOption) => {
    setConfirming(null);
    setGeneral(null);
    if (needsInstructions(option)) {
      setErrors({});
      setForm({ kind: 'instructions', option });
      // The form renders first; focus its field on the next frame.
      requestAnimationFrame(() => instructionsRef.current?.focus());
    } else if (option.id === 'approve_always') {
      setErrors({});
      setForm({ kind: 'always', option });
    } else if (whitelistsFinding(gate, option)) {
      // The person chooses and sees the entry's scope before anything is sent.
      setErrors({});
      setForm({ kind: 'whitelist', option });
    } else {
      void send(option, {});
    }
  };

  useOptionShortcuts(gate, !busy && confirming === null && !helpOpen, {
    onChoose: (binding) => choose(binding, 'key'),
    onHelp: () => setHelpOpen(true),
  });

  const submitSteer = (option: GateOption) => {
    const other = splitPaths(steer.otherPaths);
    const bad = other.find((path) => !isWorkspacePath(path));
    if (bad !== undefined) {
      setErrors({ artifacts: `"${bad}" is not a relative path inside the workspace.` });
      return;
    }
    const paths = [...new Set([...steer.artifacts, ...other])];
    // Instructions go to the agent exactly as typed.
    void send(option, {
      instructions: steer.instructions,
      ...(paths.length > 0 ? { affectedArtifacts: paths } : {}),
    });
  };

  const submitAlways = (option: GateOption, match: StandingScope) => {
    const remember = {
      scope: always.scope,
      match,
      ...(always.ttlSeconds > 0 ? { ttlSeconds: always.ttlSeconds } : {}),
    };
    void send(option, { remember });
  };
  // The gate offers "approve always" but the server would refuse it: say why instead of offering it.
  const alwaysWithheld = gate.options.some((option) => option.id === 'approve_always')
    ? alwaysRefusal(gate)
    : null;

  const disabled = blocked !== null || busy;
  const asking = confirming && confirmationText(confirming);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl+Enter in the steer, always and edit forms sends them
    <div className="decision-panel" onKeyDown={submitFormOnCtrlEnter}>
      {blocked && (
        <p className="notice warn" id="decision-blocked">
          {blocked}
        </p>
      )}
      {signing && <SigningPanel signing={signing} disabled={disabled} error={errors.signature ?? null} />}
      <DecisionOptions
        bindings={bindings}
        disabled={busy}
        blocked={blocked !== null}
        blockedBy={blocked ? 'decision-blocked' : null}
        optionBlock={(option) => optionBlock(gate, option, who)}
        onChoose={(binding) => choose(binding, 'click')}
        open={form?.option.id ?? null}
        reply={(option) => (
          <OptionReply
            gate={gate}
            option={option}
            values={replyOf(option)}
            onChange={(values) => {
              setReplies((all) => ({ ...all, [option.id]: values }));
              if (errorsFor === option.id) setErrors({});
            }}
            errors={errorsFor === option.id ? errors : {}}
            agents={agents}
            disabled={disabled}
            register={(key, element) => {
              if (element) inputs.current.set(key, element);
              else inputs.current.delete(key);
            }}
            onSend={() => {
              const binding = bindings.find((one) => one.option.id === option.id);
              if (binding) choose(binding, 'click');
            }}
          />
        )}
      />
      {alwaysWithheld && (
        <p className="muted small always-withheld">
          “Approve always” is not offered for this call: {alwaysWithheld}. Approve it once instead.
        </p>
      )}
      {gate.editable && approveOption && form?.kind !== 'edit' && (
        <button
          type="button"
          className="edit-approve"
          disabled={disabled || optionBlock(gate, approveOption, who) !== null}
          onClick={() => {
            setErrors({});
            setForm({ kind: 'edit', option: approveOption });
          }}
        >
          Edit &amp; approve
        </button>
      )}
      {form?.kind === 'edit' && (
        <EditArgsForm
          gate={gate}
          busy={busy}
          serverError={errors.editedArgs ?? null}
          onSubmit={(editedArgs) => void send(form.option, { editedArgs })}
          onCancel={() => setForm(null)}
        />
      )}
      {form?.kind === 'instructions' && (
        <SteerForm
          option={form.option}
          values={steer}
          onChange={(values) => {
            setSteer(values);
            setErrors(({ instructions: _, artifacts: __, ...rest }) => rest);
          }}
          choices={props.artifactChoices}
          errors={errors}
          busy={busy}
          onSubmit={() => submitSteer(form.option)}
          onCancel={() => setForm(null)}
          instructionsRef={instructionsRef}
        />
      )}
      {form?.kind === 'always' && (
        <AlwaysForm
          option={form.option}
          gate={gate}
          canGlobal={props.canGlobalRule}
          values={always}
          onChange={setAlways}
          error={errors.remember}
          busy={busy}
          onSubmit={(match) => submitAlways(form.option, match)}
          onCancel={() => setForm(null)}
        />
      )}
      {form?.kind === 'whitelist' && (
        <WhitelistScopeForm
          gate={gate}
          signed={gate.signatureRequired}
          option={form.option}
          values={whitelistScope}
          onChange={(values) => {
            setWhitelistScope(values);
            setErrors(({ whitelist: _, ...rest }) => rest);
          }}
          error={errors.whitelist}
          busy={busy}
          onSubmit={(whitelist) => void send(form.option, { whitelist })}
          onCancel={() => setForm(null)}
        />
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={asking?.title ?? ''}
        confirmLabel={asking?.confirmLabel ?? ''}
        danger={asking?.danger ?? false}
        focusConfirm={asking?.focusConfirm ?? false}
        busy={busy}
        onConfirm={() => confirming && proceed(confirming.option)}
        onCancel={() => setConfirming(null)}
      >
        {asking?.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </ConfirmDialog>
      <KeyHelpDialog gate={gate} open={helpOpen} onClose={() => setHelpOpen(false)} />
      {busy && <p className="muted">Sending…</p>}
      {general && (
        <p className="notice error" role="alert">
          {general}
        </p>
      )}
    </div>
  );
}
