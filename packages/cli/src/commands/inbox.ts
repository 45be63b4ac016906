import { stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { readSigningKey } from '../decide.js';
import { loadGateDisplay } from '../gate-view.js';
import { fetchPendingGates } from '../inbox-data.js';
import { printJson } from '../output.js';

async function inbox(context: ActionContext): Promise<number> {
  const { io } = context;
  const keyFile = stringOption(context.values, 'sign-key');
  const signingKey = keyFile === undefined ? null : readSigningKey(keyFile);
  const client = context.client();
  const gates = await fetchPendingGates(client);
  if (context.json) {
    printJson(io, { items: gates });
    return 0;
  }
  const display = await loadGateDisplay();
  if (!io.stdin.isTTY || !io.stdout.isTTY) {
    // Scripts and pipes get the pending gates once, as the interactive inbox would show them.
    const now = io.now();
    const displays = gates.map((gate) =>
      display.render(gate, { width: io.stdout.columns, now, headline: gate.headline }),
    );
    const header =
      gates.length === 0
        ? 'no pending gates'
        : `${gates.length} pending gate${gates.length === 1 ? '' : 's'}`;
    io.stdout.write(`${[header, ...displays].join('\n\n')}\n`);
    return 0;
  }
  const { InboxSession } = await import('../inbox-session.js');
  return new InboxSession({ io, client, initial: gates, signingKey, display }).run();
}

/** `gatehouse inbox`: answer pending gates from the terminal, one key per answer. */
export const inboxCommand: Command = {
  name: 'inbox',
  summary: 'Answer pending gates interactively, one key per answer, with live updates',
  actions: [
    {
      name: '',
      summary: 'Show each pending gate (box-drawn) and answer it with a single key',
      options: {
        'sign-key': {
          type: 'string',
          value: '<file>',
          description: 'Ed25519 private key (PEM) to sign decisions on gates that need a signature',
        },
      },
      details:
        'Keys: the option keys shown on each gate (e.g. a approve, r reject, s steer); → or n next gate,\n' +
        '← or p previous gate (arrows only where the gate uses n or p); r refresh; q or Ctrl-C quit.\n' +
        'Steer asks for instructions (required) and optional affected artifacts. Reject asks for a reason\n' +
        '(what is typed then is the reason, never keys) and sends after a y; approving a high or critical\n' +
        'gate also waits for a y. Keys typed while a decision is sent are dropped. New gates appear and\n' +
        'decided ones vanish as they happen. When stdin is not a terminal, the pending gates are\n' +
        'printed once and the command exits (--json prints them as JSON).',
      run: inbox,
    },
  ],
};
