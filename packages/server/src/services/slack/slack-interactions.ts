import {
  authorizeDecision,
  type Gate,
  type GateCatalog,
  GatehouseError,
  isGatehouseError,
} from 'gatehouse-hitl-core';
import type { SlackInteractionResponse } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { checkDecisionTexts } from '../gates/decision-texts.js';
import { delegateChoices } from '../gates/gate-delegate.js';
import { briefingOf } from '../gates/gate-headline.js';
import type { DecideInput, GateService } from '../types.js';
import type { SlackApi } from './slack-api.js';
import { DECIDE_ACTION, EDIT_ACTION, MODAL_ACTION } from './slack-message.js';
import {
  DECIDE_MODAL,
  DELEGATE_BLOCK,
  decisionModal,
  EDITED_ARGS_BLOCK,
  NEW_LIMIT_BLOCK,
  requiredOf,
  submittedBlocks,
  submittedChoice,
  submittedText,
} from './slack-modal.js';
import {
  type BlockActions,
  buttonValueSchema,
  modalMetadataSchema,
  parseJsonAs,
  slackInteractionSchema,
  type ViewSubmission,
} from './slack-payload.js';

type Person = Extract<Principal, { kind: 'user' }>;

export interface SlackInteractionDeps {
  ctx: AppContext;
  gates: GateService;
  /** The gate types whose own briefings name a gate, so a form leads with the gate's headline. */
  catalog: GateCatalog;
  api: SlackApi;
  /** The web app's page of a gate, for "decide it there" answers. */
  gateUrl(gateId: string): string;
}

/** Why a Slack user may not act, in words they can act on. */
class Refusal extends Error {}

function messageOf(error: unknown): string {
  if (error instanceof Refusal || isGatehouseError(error)) return error.message;
  return 'Gatehouse could not record this; nothing was decided. Try again or use the web app.';
}

async function personOf(ctx: AppContext, slackUserId: string): Promise<Person> {
  const person = await ctx.store.read(async (tx) => {
    const link = await tx.getSlackUserBySlackId(slackUserId);
    return link === null ? null : tx.getUser(link.userId);
  });
  if (person === null) {
    throw new Refusal(
      `Your Slack user (${slackUserId}) is not linked to a Gatehouse person, so nothing was decided. Ask an admin to run: gatehouse users slack <your name> ${slackUserId}`,
    );
  }
  if (person.disabled) throw new Refusal('Your Gatehouse account is disabled, so nothing was decided.');
  return { kind: 'user', id: person.id, name: person.name, role: person.role };
}

/** Loads the gate and refuses, before any modal opens, what the decide path would refuse anyway. */
async function decidableGate(deps: SlackInteractionDeps, person: Person, gateId: string): Promise<Gate> {
  const gate = await deps.gates.get(person, gateId);
  if (gate.signatureRequired) {
    throw new Refusal(
      `This gate needs a signed decision, which Slack cannot make; nothing was decided. Decide it in the web app: ${deps.gateUrl(gate.id)}`,
    );
  }
  if (gate.status !== 'pending')
    throw new Refusal(`This gate is already ${gate.status}; nothing was decided.`);
  authorizeDecision(gate, { kind: 'user', id: person.id, role: person.role });
  return gate;
}

async function tell(
  deps: SlackInteractionDeps,
  responseUrl: string | undefined,
  text: string,
): Promise<void> {
  if (responseUrl === undefined) return;
  try {
    await deps.api.respond(responseUrl, { response_type: 'ephemeral', replace_original: false, text });
  } catch (error) {
    deps.ctx.log.warn({ err: error }, 'slack response_url could not be reached');
  }
}

async function onBlockAction(deps: SlackInteractionDeps, payload: BlockActions): Promise<void> {
  const action = payload.actions[0];
  const [kind] = (action?.action_id ?? '').split(':');
  if (kind !== DECIDE_ACTION && kind !== MODAL_ACTION && kind !== EDIT_ACTION) return;
  try {
    const button = parseJsonAs(buttonValueSchema, action?.value);
    if (button === null) throw new Refusal('This button carries no gate; nothing was decided.');
    const person = await personOf(deps.ctx, payload.user.id);
    const gate = await decidableGate(deps, person, button.gateId);
    if (kind === DECIDE_ACTION) {
      await deps.gates.decide(person, gate.id, { option: button.option, channel: 'slack' });
      return;
    }
    const edit = kind === EDIT_ACTION;
    const agents =
      !edit && requiredOf(gate, button.option).includes(DELEGATE_BLOCK)
        ? await delegateChoices(deps.ctx.store, gate)
        : [];
    const { headline } = await briefingOf(deps.ctx, deps.catalog, gate);
    const metadata = { gateId: gate.id, option: button.option, edit };
    const view = decisionModal({ gate, headline }, metadata, agents);
    const opened = await deps.api.call('views.open', { trigger_id: payload.trigger_id, view });
    if (!opened.ok)
      throw new Refusal(`Slack could not open the form (${opened.error}); nothing was decided.`);
  } catch (error) {
    if (!(error instanceof Refusal) && !isGatehouseError(error))
      deps.ctx.log.error({ err: error }, 'slack action failed');
    await tell(deps, payload.response_url, messageOf(error));
  }
}

function editedArgsOf(text: string | undefined): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '');
  } catch {
    throw new FieldError(EDITED_ARGS_BLOCK, 'must be valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FieldError(EDITED_ARGS_BLOCK, 'must be a JSON object of arguments');
  }
  return parsed as Record<string, unknown>;
}

class FieldError extends Error {
  constructor(
    readonly block: string,
    message: string,
  ) {
    super(message);
  }
}

function decideInputOf(view: ViewSubmission['view'], option: string, edit: boolean): DecideInput {
  const text = (block: string) => submittedText(view, block);
  const input: DecideInput = {
    option,
    channel: 'slack',
    reason: text('reason'),
    feedback: text('feedback'),
    instructions: text('instructions'),
  };
  const answer = text('answer');
  if (answer !== undefined) input.answer = answer;
  const delegateTo = submittedChoice(view, DELEGATE_BLOCK);
  if (delegateTo !== undefined) input.delegateTo = delegateTo;
  const newLimit = text(NEW_LIMIT_BLOCK);
  if (newLimit !== undefined) input.newLimit = Number(newLimit);
  if (edit) input.editedArgs = editedArgsOf(text(EDITED_ARGS_BLOCK));
  return input;
}

/** Where on the modal an error belongs: the field it names, else the first field. */
function errorsFor(view: ViewSubmission['view'], error: unknown): SlackInteractionResponse {
  const blocks = submittedBlocks(view);
  if (error instanceof FieldError)
    return { response_action: 'errors', errors: { [error.block]: error.message } };
  const field = isGatehouseError(error) ? error.details.field : undefined;
  const block = typeof field === 'string' && blocks.includes(field) ? field : (blocks[0] ?? 'reason');
  return { response_action: 'errors', errors: { [block]: messageOf(error) } };
}

async function onViewSubmission(
  deps: SlackInteractionDeps,
  payload: ViewSubmission,
): Promise<SlackInteractionResponse> {
  const { view } = payload;
  if (view.callback_id !== DECIDE_MODAL) return {};
  try {
    const metadata = parseJsonAs(modalMetadataSchema, view.private_metadata);
    if (metadata === null) throw new Refusal('This form carries no gate; nothing was decided.');
    const person = await personOf(deps.ctx, payload.user.id);
    const gate = await decidableGate(deps, person, metadata.gateId);
    const decision = decideInputOf(view, metadata.option, metadata.edit);
    checkDecisionTexts(decision);
    await deps.gates.decide(person, gate.id, decision);
    return {};
  } catch (error) {
    if (!(error instanceof Refusal) && !(error instanceof FieldError) && !isGatehouseError(error)) {
      deps.ctx.log.error({ err: error }, 'slack form failed');
    }
    return errorsFor(view, error);
  }
}

/** Answers one verified interaction: a button click, or a modal's submission. */
function invalidPayload(expected: string): GatehouseError {
  return new GatehouseError('VALIDATION_FAILED', `payload must be ${expected}`, { field: 'payload' });
}

export async function handleSlackInteraction(
  deps: SlackInteractionDeps,
  raw: unknown,
): Promise<SlackInteractionResponse> {
  const type =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? Reflect.get(raw, 'type') : null;
  if (typeof type !== 'string') throw invalidPayload('an object with a type');
  // Other types (view_closed, shortcuts) are acknowledged and ignored, as Slack expects.
  if (type !== 'block_actions' && type !== 'view_submission') return {};
  const parsed = slackInteractionSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidPayload(`a ${type} interaction (${issue?.path.join('.') || 'payload'}: ${issue?.message})`);
  }
  if (parsed.data.type === 'view_submission') return onViewSubmission(deps, parsed.data);
  await onBlockAction(deps, parsed.data);
  return {};
}
