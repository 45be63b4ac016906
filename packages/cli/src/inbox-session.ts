import type { KeyObject } from 'node:crypto';
import {
  type Gate as CoreGate,
  type GateOption,
  type KeyBinding,
  keyNeedsConfirmation,
} from 'gatehouse-hitl-core';
import { gateRoutes } from 'gatehouse-hitl-protocol';
import type { Io } from './command.js';
import {
  type DecisionBody,
  describeDecision,
  lostRaceMessage,
  postDecision,
  signDecision,
  whoAmI,
} from './decide.js';
import { ApiError } from './errors.js';
import type { GateDisplay } from './gate-view.js';
import type { ApiClient } from './http.js';
import { fetchPausedRunIds, fetchPendingGates } from './inbox-data.js';
import { argsDiff, type EditResult, editArgs, editedPayloadHash, editorCommand } from './inbox-edit.js';
import { watchInbox } from './inbox-events.js';
import { EDIT_KEY, FIELD_LABELS, HELP_KEY, NEXT_KEYS, PREVIOUS_KEYS, QUIT_KEYS } from './inbox-keys.js';
import { terminalSafe, terminalSafeBlock } from './output.js';
import { type Key, SCREEN, TerminalInput } from './terminal.js';
import { createViewReporter } from './view-report.js';

const REFRESH_DEBOUNCE_MS = 50;
const PAUSED_RUN_NOTE = 'Run paused: the agent goes ahead only when the run is resumed.';

/** A pending gate as the list gives it, with the headline its page leads with. */
type Gate = CoreGate & { headline: string };

export interface InboxOptions {
  io: Io;
  client: ApiClient;
  initial: Gate[];
  signingKey: KeyObject | null;
  display: GateDisplay;
}

/** The interactive inbox: one pending gate at a time, single-key answers, live updates. */
export class InboxSession {
  readonly #io: Io;
  readonly #client: ApiClient;
  readonly #reportShown: (gate: Gate) => Promise<void>;
  readonly #signingKey: KeyObject | null;
  readonly #display: GateDisplay;
  readonly #abort = new AbortController();
  #input: TerminalInput | null = null;
  #gates: Gate[];
  #pausedRuns: ReadonlySet<string> = new Set();
  #currentId: string | null;
  #message = '';
  #detail: string | null = null;
  #live = 'connecting';
  #prompting = false;
  #refreshTimer: NodeJS.Timeout | null = null;
  readonly #myId: Promise<string | null>;

  constructor(options: InboxOptions) {
    this.#io = options.io;
    this.#client = options.client;
    this.#reportShown = createViewReporter(options.client);
    this.#signingKey = options.signingKey;
    this.#display = options.display;
    this.#myId = whoAmI(options.client);
    this.#gates = options.initial;
    this.#currentId = options.initial[0]?.id ?? null;
  }

  /** Runs until the person quits; the terminal is restored whatever happens. */
  async run(): Promise<number> {
    const out = this.#io.stdout;
    this.#input = new TerminalInput(this.#io.stdin);
    out.write(SCREEN.enter);
    const tick = setInterval(() => this.#render(), 1000);
    const onResize = () => this.#render();
    const resizable = out as unknown as NodeJS.EventEmitter;
    resizable.on?.('resize', onResize);
    const onTerm = () => this.#abort.abort();
    process.once('SIGTERM', onTerm);
    const watching = watchInbox(this.#client, {
      signal: this.#abort.signal,
      onEvent: () => this.#scheduleRefresh(),
      onStatus: (error) => this.#setLive(error),
    });
    try {
      this.#render();
      await this.#loop();
    } finally {
      this.#abort.abort();
      clearInterval(tick);
      if (this.#refreshTimer) clearTimeout(this.#refreshTimer);
      resizable.off?.('resize', onResize);
      process.off('SIGTERM', onTerm);
      this.#input.close();
      out.write(SCREEN.leave);
      await watching;
    }
    return 0;
  }

  get #current(): Gate | null {
    return this.#gates.find((gate) => gate.id === this.#currentId) ?? null;
  }

  async #loop(): Promise<void> {
    const input = this.#input as TerminalInput;
    const aborted = new Promise<'abort'>((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve('abort'), { once: true }),
    );
    for (;;) {
      const key = await Promise.race([input.readKey(), aborted]);
      if (key === 'abort') return;
      if (this.#detail !== null) {
        this.#detail = null;
        this.#render();
        continue;
      }
      if (!(await this.#handleKey(key))) return;
      this.#render();
    }
  }

  /** Returns false when the person quits. */
  async #handleKey(key: Key): Promise<boolean> {
    const gate = this.#current;
    if (key === HELP_KEY) {
      this.#detail = this.#helpText(gate);
      return true;
    }
    const binding = gate && key.length === 1 ? this.#display.bindingForKey(gate, key) : null;
    if (gate && binding) {
      await this.#choose(gate, binding);
      return true;
    }
    if (gate?.editable && key === EDIT_KEY) {
      await this.#editAndApprove(gate);
      return true;
    }
    if (QUIT_KEYS.has(key)) return false;
    if (NEXT_KEYS.has(key)) this.#move(1);
    else if (PREVIOUS_KEYS.has(key)) this.#move(-1);
    else if (key === 'r') await this.#refresh();
    else this.#message = gate ? `no option on the key ${terminalSafe(key)}` : '';
    return true;
  }

  #move(step: number): void {
    if (this.#gates.length === 0) return;
    const index = this.#gates.findIndex((gate) => gate.id === this.#currentId);
    const next = (Math.max(index, 0) + step + this.#gates.length) % this.#gates.length;
    this.#currentId = this.#gates[next]?.id ?? null;
    this.#message = '';
  }

  #helpText(gate: Gate | null): string {
    const keys = gate ? this.#display.helpLines(gate) : [`${HELP_KEY}  These keys`];
    if (gate?.editable) keys.unshift(`${EDIT_KEY}  Edit the arguments in $EDITOR, then approve`);
    const moving = [
      'n  Next gate (also →, ↓, Tab, j)',
      'p  Previous gate (also ←, ↑, k)',
      'q  Quit (also Ctrl-C)',
    ];
    return ['Keys', '', ...keys, ...moving, '', '(any key to go back)'].join('\n');
  }

  async #choose(gate: Gate, binding: KeyBinding): Promise<void> {
    const { option } = binding;
    // A key that only shows more never ends the gate.
    if (!binding.ends) {
      await this.#showMore(gate, option);
      return;
    }
    if (binding.confirm && !(await this.#confirm(option))) {
      this.#message = 'cancelled; nothing was sent';
      return;
    }
    if (gate.signatureRequired && !this.#signingKey) {
      this.#message = 'this gate needs a signed decision: restart with `gatehouse inbox --sign-key <file>`';
      return;
    }
    const body = await this.#collect(gate, option);
    if (body === null || !(binding.confirm || (await this.#confirmDecision(gate, option, body)))) {
      this.#message = 'cancelled; nothing was sent';
      return;
    }
    if (gate.signatureRequired && this.#signingKey) {
      body.signature = await signDecision(this.#signingKey, gate, body);
    }
    await this.#send(gate, body);
  }

  /**
   * A refusal (after its reason was asked) and an approval of a high or critical gate are sent only
   * after a `y`: a single key is too easy to press by mistake for them.
   */
  async #confirmDecision(gate: Gate, option: GateOption, body: DecisionBody): Promise<boolean> {
    const label = terminalSafe(option.label);
    const id = terminalSafe(gate.id);
    let question: string;
    if (option.outcome === 'rejected') {
      const reason = body.reason ? ` with the reason “${terminalSafe(body.reason)}”` : ' without a reason';
      question = `${label} ${id}${reason}? Press y to send, any other key cancels.`;
    } else if (option.outcome === 'approved' && keyNeedsConfirmation(gate.risk)) {
      question = `${label} ${id} (${gate.risk} risk)? Press y to approve, any other key cancels.`;
    } else return true;
    return this.#askYes(question);
  }

  /** Opens $VISUAL/$EDITOR on the arguments, shows what changed and approves the edit after a `y`. */
  async #editAndApprove(gate: Gate): Promise<void> {
    const editor = editorCommand(process.env);
    if (editor === null) {
      this.#message = 'set EDITOR (or VISUAL) to edit the arguments';
      return;
    }
    if (gate.signatureRequired && !this.#signingKey) {
      this.#message = 'this gate needs a signed decision: restart with `gatehouse inbox --sign-key <file>`';
      return;
    }
    const input = this.#input as TerminalInput;
    const original = gate.action?.args ?? {};
    this.#prompting = true;
    input.suspend();
    this.#io.stdout.write(SCREEN.leave);
    let edit: EditResult;
    try {
      edit = editArgs(editor, original);
    } finally {
      this.#io.stdout.write(SCREEN.enter);
      input.resume();
      this.#prompting = false;
    }
    if (edit.kind !== 'edited') {
      this.#message =
        edit.kind === 'unchanged' ? 'the arguments are unchanged; nothing was sent' : edit.message;
      return;
    }
    const diff = argsDiff(original, edit.args).join('\n');
    this.#prompting = true;
    this.#io.stdout.write(
      `${SCREEN.home}${SCREEN.clearBelow}Edited arguments of ${terminalSafe(gate.id)}:\n${diff}\n\nPress y to approve the edited action, any other key cancels.\n`,
    );
    const confirmed = (await input.readKey()) === 'y';
    this.#prompting = false;
    if (!confirmed) {
      this.#message = 'cancelled; nothing was sent';
      return;
    }
    const body: DecisionBody = { option: 'approve', editedArgs: edit.args };
    if (gate.signatureRequired && this.#signingKey) {
      const signed = { ...gate, payloadHash: editedPayloadHash(gate, edit.args) };
      body.signature = await signDecision(this.#signingKey, signed, body);
    }
    await this.#send(gate, body);
  }

  async #send(gate: Gate, body: DecisionBody): Promise<void> {
    try {
      const response = await postDecision(this.#client, gate.id, body);
      const held = response.gate.status === 'approved' && this.#isRunPaused(gate);
      this.#message = `${describeDecision(response)}${held ? '; the run is paused: the agent goes ahead only when it is resumed' : ''}`;
    } catch (error) {
      const lost = lostRaceMessage(error, await this.#myId);
      if (lost !== null) this.#message = lost;
      else if (error instanceof ApiError)
        this.#message = `error ${error.code}: ${terminalSafe(error.message)}`;
      else this.#message = `error: ${terminalSafe((error as Error).message)}`;
    }
    await this.#refresh();
    // Keys typed while the decision was on its way were meant for a screen not shown yet.
    this.#input?.discardTyped();
  }

  /** Asks for what the option needs (steer instructions, a reason, feedback); null when cancelled. */
  async #collect(gate: Gate, option: GateOption): Promise<DecisionBody | null> {
    const body: DecisionBody = { option: option.id };
    const ask = async (label: string, required: boolean): Promise<string | null> => {
      for (;;) {
        const line = await this.#prompt(`${label}${required ? '' : ' (optional)'}: `);
        if (line === null) return null;
        if (line.trim() !== '' || !required) return line.trim();
        this.#io.stdout.write('  this cannot be empty (Esc cancels)\n');
      }
    };
    this.#startPrompt(`${option.label} ${gate.id}`);
    try {
      for (const field of option.requires) {
        const label = FIELD_LABELS[field] ?? field;
        const value = await ask(label, true);
        if (value === null) return null;
        if (field === 'newLimit') body.newLimit = Number(value);
        else body[field] = value;
      }
      // A refusal always asks why, so the keys typed after `r` are its reason, never commands.
      if (option.outcome === 'rejected' && !option.requires.includes('reason')) {
        const reason = await ask(FIELD_LABELS.reason as string, false);
        if (reason === null) return null;
        if (reason !== '') body.reason = reason;
      }
      if (option.requires.includes('instructions')) {
        const artifacts = await ask('Affected artifacts, comma-separated', false);
        if (artifacts === null) return null;
        const paths = artifacts
          .split(',')
          .map((path) => path.trim())
          .filter(Boolean);
        if (paths.length > 0) body.affectedArtifacts = paths;
      }
      return body;
    } finally {
      this.#endPrompt();
    }
  }

  /** Options that end the agent's task are sent only after a `y`. */
  #confirm(option: GateOption): Promise<boolean> {
    const label = terminalSafe(option.label);
    return this.#askYes(`${label} ends the agent's task. Press y to confirm, any other key cancels.`);
  }

  async #askYes(question: string): Promise<boolean> {
    this.#prompting = true;
    this.#io.stdout.write(`${SCREEN.clearBelow}\n${question}\n`);
    try {
      return (await (this.#input as TerminalInput).readKey()) === 'y';
    } finally {
      this.#prompting = false;
    }
  }

  #startPrompt(title: string): void {
    this.#prompting = true;
    this.#io.stdout.write(
      `${SCREEN.clearBelow}\n${terminalSafe(title)} (Enter to send, Esc to cancel)\n${SCREEN.showCursor}`,
    );
  }

  #endPrompt(): void {
    this.#prompting = false;
    this.#io.stdout.write(SCREEN.hideCursor);
  }

  #prompt(label: string): Promise<string | null> {
    return (this.#input as TerminalInput).readLine(this.#io.stdout, label);
  }

  async #showMore(gate: Gate, option: GateOption): Promise<void> {
    try {
      const body = await this.#client.call(gateRoutes.get, { params: { id: gate.id } });
      const more = {
        briefing: body.briefing,
        context: body.gate.context,
        action: body.gate.action,
        artifacts: body.gate.artifacts,
      };
      this.#detail = `${option.label}: ${gate.id}\n${JSON.stringify(more, null, 2)}\n\n(any key to go back)`;
    } catch (error) {
      this.#message = `error: ${terminalSafe((error as Error).message)}`;
    }
  }

  #setLive(error: unknown): void {
    this.#live =
      error === null ? 'live' : `reconnecting (${terminalSafe((error as Error).message ?? error)})`;
    // While the stream is down, each retry also reloads the list, so the inbox keeps up by polling.
    if (error !== null) this.#scheduleRefresh();
    this.#render();
  }

  #scheduleRefresh(): void {
    if (this.#refreshTimer) return;
    this.#refreshTimer = setTimeout(() => {
      this.#refreshTimer = null;
      void this.#refresh().then(() => this.#render());
    }, REFRESH_DEBOUNCE_MS);
  }

  /** Reads the pending gates again from the server (never from a cache) and keeps the selection. */
  async #refresh(): Promise<void> {
    try {
      const [gates, paused] = await Promise.all([
        fetchPendingGates(this.#client),
        // Without it the gates still show, only without the pause.
        fetchPausedRunIds(this.#client).catch(() => this.#pausedRuns),
      ]);
      this.#pausedRuns = paused;
      const index = this.#gates.findIndex((gate) => gate.id === this.#currentId);
      this.#gates = gates;
      if (!gates.some((gate) => gate.id === this.#currentId)) {
        const fallback = gates[Math.min(Math.max(index, 0), gates.length - 1)];
        this.#currentId = fallback?.id ?? null;
      }
    } catch (error) {
      this.#message = `could not refresh: ${terminalSafe((error as Error).message)}`;
    }
  }

  #render(): void {
    if (this.#prompting || this.#abort.signal.aborted) return;
    const out = this.#io.stdout;
    const width = out.columns || 80;
    const gate = this.#current;
    const position = gate
      ? `gate ${this.#gates.findIndex((g) => g.id === gate.id) + 1} of ${this.#gates.length}`
      : 'no pending gates';
    const lines = [`Gatehouse inbox · ${this.#client.url} · ${position} · ${this.#live}`, ''];
    if (this.#detail !== null) lines.push(...terminalSafeBlock(this.#detail).split('\n'));
    else if (gate) {
      if (this.#isRunPaused(gate)) lines.push(PAUSED_RUN_NOTE, '');
      const shown = this.#display.render(gate, { width, now: this.#io.now(), headline: gate.headline });
      lines.push(...shown.split('\n'));
      void this.#reportShown(gate);
    } else lines.push('Nothing is waiting for you. New gates appear here as agents ask.');
    lines.push('', this.#footer(gate), this.#message);
    out.write(`${SCREEN.home}${lines.join(`${SCREEN.clearLine}\n`)}${SCREEN.clearLine}${SCREEN.clearBelow}`);
  }

  #isRunPaused(gate: Gate): boolean {
    return gate.runId !== null && this.#pausedRuns.has(gate.runId);
  }

  #footer(gate: Gate | null): string {
    const taken = (key: string) => gate !== null && this.#display.bindingForKey(gate, key) !== null;
    const parts = [
      `→${taken('n') ? '' : '/n'} next`,
      `←${taken('p') ? '' : '/p'} previous`,
      ...(taken('r') ? [] : ['r refresh']),
      `${taken('q') ? 'Ctrl-C' : 'q'} quit`,
    ];
    const help = `${HELP_KEY} keys`;
    return gate
      ? `Answer with the option keys above · ${help} · ${parts.join(' · ')}`
      : [...parts, help].join(' · ');
  }
}
