#!/usr/bin/env node
// Runs sample agent requests through the default policy and prints the gate each one would open.
import {
  compilePolicy,
  createGateCatalog,
  DEFAULT_POLICY,
  evaluatePolicy,
  formatGateDisplay,
  openGate,
} from 'gatehouse-hitl-core';

const HELP = `Usage: node examples/policy-demo/demo.mjs [--width N]

Sends sample agent requests through Gatehouse's default policy and prints, for each one,
what the policy decides (allow, deny or gate) with the deciding rule, and the box-drawn
terminal display of every gate it would open.

  --width N   display width in columns (default: the terminal's, or 80)
  --help      show this help`;

const SAMPLES = [
  { title: 'Read a source file', tool: 'read_file', args: { path: 'src/app.ts' } },
  { title: 'Call an external API', tool: 'web_fetch', args: { url: 'https://example.com/status' } },
  { title: 'Write a file', tool: 'write_file', args: { path: 'src/auth/login.ts' } },
  { title: 'Run the tests', tool: 'shell_execute', args: { command: 'npm test' } },
  { title: 'Remove the build folder', tool: 'shell_execute', args: { command: 'rm -rf build' } },
  { title: 'Edit the production config', tool: 'edit_file', args: { path: 'config/production.yaml' } },
  { title: 'Delete a test file', tool: 'delete_file', args: { path: 'test/auth.test.ts' } },
  {
    title: 'Planning done: approve the intent',
    event: 'planning_complete',
    context: {
      epic: 'JWT login',
      design: 'Stateless tokens signed with RS256',
      stories: 4,
      tasks: 9,
      estimatedHours: 14,
    },
    artifacts: [
      '.workitems/P01-F01-login/design.md',
      '.workitems/P01-F01-login/user_stories.md',
      '.workitems/P01-F01-login/tasks.md',
    ],
  },
  {
    title: 'Recovery attempts exhausted',
    event: 'recovery',
    confidence: 0.45,
    context: {
      task_description: 'Implement JWT authentication',
      pattern_type: 'hardcoded_test_bypass',
      severity: 'CRITICAL',
      recovery_attempts: 3,
      files: ['src/auth/login.ts'],
      original_error: "jwt.verify() throws 'invalid signature'",
      recovery_history: [
        'Removed bypass, added NODE_ENV check',
        'Removed NODE_ENV, added JWT_SECRET check',
        'Fixed token format, hit algorithm error',
      ],
    },
  },
];

function parseWidth(argv) {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    process.exit(0);
  }
  const at = argv.indexOf('--width');
  if (at === -1) return Math.max(40, Math.min(process.stdout.columns ?? 80, 120));
  const width = Number(argv[at + 1]);
  if (!Number.isInteger(width) || width < 40 || width > 400) {
    console.error('--width must be a whole number between 40 and 400');
    process.exit(2);
  }
  return width;
}

const width = parseWidth(process.argv.slice(2));
const policy = compilePolicy(DEFAULT_POLICY);
const catalog = createGateCatalog();
const now = Date.now();
let gates = 0;

for (const [index, sample] of SAMPLES.entries()) {
  const request = {
    event: sample.event ?? 'tool_call',
    tool: sample.tool,
    args: sample.args ?? {},
    confidence: sample.confidence,
    agent: { id: 'demo-agent', profile: 'coder' },
  };
  const decision = evaluatePolicy(policy, request);
  console.log(
    `\n${index + 1}. ${sample.title}: ${decision.action.toUpperCase()} (rule ${decision.ruleId ?? 'default'})`,
  );
  console.log(`   ${decision.reason}`);
  if (decision.action !== 'gate' || !decision.gate) continue;
  const { type, timeoutSeconds, ...settings } = decision.gate;
  const gate = openGate(
    {
      ...settings,
      type,
      title: sample.title,
      timeoutMs: timeoutSeconds === undefined ? null : timeoutSeconds * 1000,
      action: sample.tool ? { tool: sample.tool, args: sample.args ?? {} } : null,
      context: { ...sample.context, reason: decision.reason },
      artifacts: sample.artifacts ?? [],
      confidence: sample.confidence ?? null,
      agentId: 'demo-agent',
      policyRuleId: decision.ruleId,
    },
    { now, id: `gate_demo_${index + 1}`, catalog },
  );
  gates += 1;
  console.log(formatGateDisplay(gate, { width, now }));
}
console.log(`\n${SAMPLES.length} requests, ${gates} gates opened.`);
