// Runs where only gatehouse-hitl-testing is installed: starts the kit's in-process server, asks as an
// agent over HTTP, lets a scripted reviewer approve, moves the clock past a second gate's timeout.
import { startTestGatehouse } from 'gatehouse-hitl-testing';

const env = await startTestGatehouse();
try {
  const agent = await env.agent('pack-check');
  const reviewer = await env.reviewer('pat', (gate) =>
    gate.title?.includes('approve me') ? { option: 'approve' } : null,
  );
  const ask = async (title, extra = {}) => {
    const response = await fetch(`${env.url}/v1/gates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'delete_file', args: { path: title }, title, ...extra }),
    });
    if (!response.ok) throw new Error(`POST /v1/gates: ${response.status} ${await response.text()}`);
    return (await response.json()).gateId;
  };
  const approved = await ask('approve me');
  const deadline = Date.now() + 10_000;
  while (!reviewer.decisions.some((decision) => decision.gateId === approved)) {
    if (Date.now() > deadline) throw new Error('the scripted reviewer never decided');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const timed = await ask('wait for the clock', { timeoutSeconds: 60, timeoutAction: 'deny' });
  await env.advance(61_000);
  const pending = await env.pendingGate(() => true, 200).catch(() => null);
  if (pending?.id === timed) throw new Error('the timeout did not fire when the clock moved past it');
  console.log(`testing kit: ${approved} approved by ${reviewer.name}, ${timed} timed out`);
} finally {
  await env.close();
}
