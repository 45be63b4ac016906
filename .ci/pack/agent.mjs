// An agent that installed only gatehouse-hitl-sdk: it asks before a destructive step and goes on
// once a person answers. Run from the scratch project, so the SDK resolves from its node_modules.
import { Gatehouse } from 'gatehouse-hitl-sdk';

const [title] = process.argv.slice(2);
const gate = new Gatehouse({ url: process.env.GATEHOUSE_URL, token: process.env.GATEHOUSE_TOKEN });
// No run: a run at the default autonomy would first hold its work for an approved plan (Gate 0).
const answer = await gate.request({
  tool: 'shell_execute',
  args: { command: 'rm -rf build' },
  title,
  onGate: (gateId) => console.log(`gate ${gateId} is waiting for a person`),
});
console.log(`answer: ${answer.outcome} by ${answer.decidedBy}`);
if (answer.outcome !== 'approved') process.exit(1);
console.log('the agent goes on with its step');
