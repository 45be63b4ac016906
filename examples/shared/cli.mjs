// Command-line options and output shared by the framework examples.
import { parseArgs } from 'node:util';

const COMMON_OPTIONS = `Options:
  --url URL      the Gatehouse server (env GATEHOUSE_URL, default http://127.0.0.1:7300)
  --token TOKEN  an agent token, gha_... (env GATEHOUSE_TOKEN; create one with \`gatehouse agents create\`)
  --path PATH    the folder the agent asks to delete (default build/; nothing is really deleted)
  -h, --help     show this help`;

/** Reads --url, --token and --path (or prints the help and exits). */
export function readOptions(help) {
  const usage = (message) => {
    process.stderr.write(`${message}\n\n${help}\n\n${COMMON_OPTIONS}\n`);
    process.exit(2);
  };
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        path: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    usage(error.message);
  }
  if (values.help) {
    process.stdout.write(`${help}\n\n${COMMON_OPTIONS}\n`);
    process.exit(0);
  }
  const token = values.token ?? process.env.GATEHOUSE_TOKEN;
  if (!token) usage('an agent token is required: --token gha_... or GATEHOUSE_TOKEN');
  return {
    url: values.url ?? process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:7300',
    token,
    path: values.path ?? 'build/',
  };
}

/** Prints one line of the example's story. */
export function say(line) {
  process.stdout.write(`${line}\n`);
}

/** Tells the person how to answer a gate. */
export function sayWaiting(gateId, toolName) {
  say(`${toolName}: waiting for a person on gate ${gateId}`);
  say(`  answer it in \`npx gatehouse inbox\`, or: npx gatehouse gates decide ${gateId} --option approve`);
}

/** One line for a decision: outcome, who decided, and the reason or instructions. */
export function describeDecision(toolName, decision) {
  const by = decision.decidedBy ? ` by ${decision.decidedBy}` : '';
  const why = decision.instructions ?? decision.reason;
  return `${toolName}: ${decision.outcome}${by}${why ? ` (${why})` : ''}`;
}

/** Runs `main`, printing a failure on one line with exit status 1. */
export function runMain(main) {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`example failed: ${error?.message ?? error}\n`);
      process.exit(1);
    },
  );
}
