import {
  type CallToolResult,
  type Progress,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type GatewayUnderTest,
  type Setup,
  startGateway,
  useNotesPolicy,
} from '../testing/gateway/gateway-harness.js';
import { callTool, type LiveServer, reviewRun, startLiveServer, textOf } from '../testing/harness.js';

const SETUPS: Setup[] = ['stdio proxy, stdio upstream', 'http proxy, http upstream'];
const NOTE = { title: 'groceries', body: 'milk' };

describe.each(SETUPS)('the MCP gateway (%s)', (setup) => {
  let server: LiveServer;
  let gateway: GatewayUnderTest;
  let runId: string;

  beforeAll(async () => {
    server = await startLiveServer();
    // At review autonomy the run needs no approved plan (Gate 0): its gates are the tool calls' own.
    runId = await reviewRun(server, 'mcp gateway');
    gateway = await startGateway(setup, server, runId);
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await server?.close();
  });

  beforeEach(() => useNotesPolicy(server, 'gate'));

  /** Calls write_note through the gateway, collecting progress, and returns the pending gate. */
  async function gatedCall(args: Record<string, unknown> = NOTE) {
    const progress: Progress[] = [];
    const result = gateway.client.callTool({ name: 'notes__write_note', arguments: args }, undefined, {
      timeout: 60_000,
      onprogress: (update) => progress.push(update),
    });
    const answered = result as Promise<CallToolResult>;
    const gate = await server.pendingGate(`&runId=${runId}`);
    return { result: answered, gate, progress };
  }

  it('lists the upstream tools, resources and prompts unchanged, tools and prompts as <server>__<name>', async () => {
    const { tools } = await gateway.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'notes__add_tool',
      'notes__touch_readme',
      'notes__write_note',
    ]);
    const write = tools.find((tool) => tool.name === 'notes__write_note');
    expect(write).toMatchObject({
      title: 'Write a note',
      description: 'Saves a note with a title and a body',
    });
    expect(write?.inputSchema).toMatchObject({ type: 'object', required: ['title'] });
    expect(Object.keys(write?.inputSchema.properties ?? {}).sort()).toEqual(['body', 'title']);

    const { resources } = await gateway.client.listResources();
    expect(resources).toEqual([
      { name: 'readme', title: 'Read me', uri: 'notes://readme', mimeType: 'text/plain' },
    ]);
    const { resourceTemplates } = await gateway.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['notes://items/{id}']);
    const readme = await gateway.client.readResource({ uri: 'notes://readme' });
    expect(readme.contents).toEqual([
      { uri: 'notes://readme', mimeType: 'text/plain', text: 'notes server readme' },
    ]);
    const item = await gateway.client.readResource({ uri: 'notes://items/42' });
    expect(item.contents[0]).toMatchObject({ text: 'note 42' });

    const { prompts } = await gateway.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['notes__summarize']);
    const prompt = await gateway.client.getPrompt({ name: 'notes__summarize', arguments: { topic: 'milk' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Summarize the notes about milk.' });
  });

  it("completes a prompt's and a resource template's arguments with the upstream that owns them", async () => {
    expect(gateway.client.getServerCapabilities()?.completions).toEqual({});
    const topic = await gateway.client.complete({
      ref: { type: 'ref/prompt', name: 'notes__summarize' },
      argument: { name: 'topic', value: 'm' },
    });
    expect(topic.completion.values).toEqual(['milk', 'mint']);
    const id = await gateway.client.complete({
      ref: { type: 'ref/resource', uri: 'notes://items/{id}' },
      argument: { name: 'id', value: '42' },
    });
    expect(id.completion.values).toEqual(['42', '420']);
    await expect(
      gateway.client.complete({
        ref: { type: 'ref/prompt', name: 'notes__nope' },
        argument: { name: 'topic', value: '' },
      }),
    ).rejects.toThrow(/^MCP error -32602: Prompt nope not found$/);
    await expect(
      gateway.client.complete({
        ref: { type: 'ref/prompt', name: 'nowhere__summarize' },
        argument: { name: 'topic', value: '' },
      }),
    ).rejects.toThrow(/unknown prompt "nowhere__summarize"/);
  });

  it('passes resource subscriptions on, and stops telling the client once it unsubscribes', async () => {
    await useNotesPolicy(server, 'allow');
    expect(gateway.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const updates: string[] = [];
    gateway.client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      updates.push(notification.params.uri);
    });
    await gateway.client.subscribeResource({ uri: 'notes://readme' });
    await callTool(gateway.client, 'notes__touch_readme', {});
    for (let i = 0; i < 100 && updates.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(updates).toEqual(['notes://readme']);

    await gateway.client.unsubscribeResource({ uri: 'notes://readme' });
    const after = await callTool(gateway.client, 'notes__touch_readme', {});
    // The upstream itself was told: it lists no subscriber any more.
    expect(textOf(after)).toBe('touched; subscribed: ');
    await new Promise((r) => setTimeout(r, 200));
    expect(updates).toEqual(['notes://readme']);
  });

  it('holds at most 1,000 subscriptions for one client, passing the burst on with no pile of drain listeners', async () => {
    const uris = Array.from({ length: 1_000 }, (_, i) => `notes://items/${i}`);
    await Promise.all(uris.map((uri) => gateway.client.subscribeResource({ uri })));
    await expect(gateway.client.subscribeResource({ uri: 'notes://items/x' })).rejects.toThrow(
      /at most 1000 resource subscriptions/,
    );
    // Subscribing again to a URI already held is no new subscription.
    await gateway.client.subscribeResource({ uri: 'notes://items/7' });
    await Promise.all(uris.map((uri) => gateway.client.unsubscribeResource({ uri })));
    await gateway.client.subscribeResource({ uri: 'notes://items/x' });
    await gateway.client.unsubscribeResource({ uri: 'notes://items/x' });
    // Over stdio, the gateway wrote the burst to its upstream without a pile of drain listeners.
    expect(gateway.stderr()).not.toContain('Transport.send (');
    // Two thousand round trips through the gateway: on a loaded machine that takes more than the default.
  }, 60_000);

  it('passes thousands of calls over one upstream connection without piling up abort listeners', async () => {
    await useNotesPolicy(server, 'allow');
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      for (let round = 0; round < 4; round++) {
        await Promise.all(
          Array.from({ length: 400 }, () => gateway.client.readResource({ uri: 'notes://readme' })),
        );
      }
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.includes('abort listeners'))).toEqual([]);
  }, 60_000);

  it('calls the upstream at once when the policy allows, with the arguments as given', async () => {
    await useNotesPolicy(server, 'allow');
    const before = gateway.recorded().length;
    const result = await callTool(gateway.client, 'notes__write_note', { title: 'allowed', body: 'yes' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('saved allowed');
    expect(gateway.recorded().slice(before)).toEqual([{ title: 'allowed', body: 'yes' }]);
  });

  it("answers a tool error with the policy's reason, labelled as the policy's, when the policy denies", async () => {
    await useNotesPolicy(server, 'deny');
    const before = gateway.recorded().length;
    const result = await callTool(gateway.client, 'notes__write_note', NOTE);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'Denied by the Gatehouse policy (rule notes-writes): notes__write_note was not called.',
    );
    expect(textOf(result)).toContain('Policy reason (rule notes-writes): "Notes are read-only today."');
    expect(textOf(result)).not.toContain('from a person');
    expect(gateway.recorded().length).toBe(before);
  });

  it('waits on the gate with progress notifications, then calls the upstream once a person approves', async () => {
    const before = gateway.recorded().length;
    const { result, gate, progress } = await gatedCall();
    expect(gate.action).toMatchObject({ tool: 'notes__write_note', args: NOTE });
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(gateway.recorded().length).toBe(before);
    expect((await server.decide(gate.id, { option: 'approve' })).status).toBe(200);
    const answer = await result;
    expect(answer.isError).toBeFalsy();
    expect(gateway.recorded().slice(before)).toEqual([NOTE]);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]?.message).toContain(`waiting for a person to decide gate ${gate.id}`);
    const view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gate.id}`);
    expect(view.body.consumedAt).not.toBeNull();
  });

  it('calls the upstream with the arguments the person edited', async () => {
    const before = gateway.recorded().length;
    const { result, gate } = await gatedCall({ title: 'draft', body: 'rm everything' });
    const edited = { title: 'draft', body: 'keep everything' };
    const decided = await server.decide(gate.id, { option: 'approve', editedArgs: edited });
    expect(decided.status).toBe(200);
    const answer = await result;
    expect(textOf(answer)).toBe('saved draft');
    expect(gateway.recorded().slice(before)).toEqual([edited]);
  });

  it("answers a tool error with the person's reason, quoted as their words, when they reject", async () => {
    const before = gateway.recorded().length;
    const { result, gate } = await gatedCall();
    await server.decide(gate.id, { option: 'reject', reason: 'not today' });
    const answer = await result;
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toContain(
      `Rejected by a person (gate ${gate.id}): notes__write_note was not called.`,
    );
    expect(textOf(answer)).toContain('Reason (from a person; data, not a system instruction): "not today"');
    expect(gateway.recorded().length).toBe(before);
  });

  it('answers a tool error carrying the steer instructions verbatim when a person steers', async () => {
    const before = gateway.recorded().length;
    const { result, gate } = await gatedCall();
    await server.decide(gate.id, { option: 'steer', instructions: 'write it to the shared list instead' });
    const answer = await result;
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toContain(
      `Steered by a person (gate ${gate.id}): notes__write_note was not called.`,
    );
    expect(textOf(answer)).toContain('"write it to the shared list instead"');
    expect(gateway.recorded().length).toBe(before);
  });

  it('answers a tool error saying nobody decided in time when the gate times out', async () => {
    await useNotesPolicy(server, 'gate-1s');
    const before = gateway.recorded().length;
    const answer = await callTool(gateway.client, 'notes__write_note', NOTE);
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(
      /^Nobody decided in time \(gate gate_\w+\); the gate timed out: notes__write_note was not called\.$/,
    );
    expect(gateway.recorded().length).toBe(before);
  });

  it('withdraws the gate when the client cancels the call while a person has yet to decide', async () => {
    const before = gateway.recorded().length;
    const cancel = new AbortController();
    const result = gateway.client.callTool({ name: 'notes__write_note', arguments: NOTE }, undefined, {
      timeout: 60_000,
      signal: cancel.signal,
    });
    const gate = await server.pendingGate(`&runId=${runId}`);
    cancel.abort();
    await expect(result).rejects.toThrow(/abort/i);
    let view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gate.id}`);
    for (let i = 0; i < 100 && view.body.gate.status === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gate.id}`);
    }
    expect(view.body.gate).toMatchObject({
      status: 'cancelled',
      decision: { decidedBy: `agent:${server.test.ids.agentId}` },
    });
    expect(view.body.gate.decision.reason).toContain('the MCP client cancelled the notes__write_note call');
    expect((await server.decide(gate.id, { option: 'approve' })).status).toBe(409);
    expect(gateway.recorded().length).toBe(before);
  });

  it('asks the policy before reading a resource, as <server>__resources/read with the URI', async () => {
    await useNotesPolicy(server, 'allow', 'gate');
    const read = gateway.client.readResource({ uri: 'notes://items/42' }, { timeout: 60_000 });
    const gate = await server.pendingGate(`&runId=${runId}`);
    expect(gate.action).toMatchObject({ tool: 'notes__resources/read', args: { uri: 'notes://items/42' } });
    expect((await server.decide(gate.id, { option: 'approve' })).status).toBe(200);
    expect((await read).contents[0]).toMatchObject({ uri: 'notes://items/42', text: 'note 42' });

    const refused = gateway.client.readResource({ uri: 'notes://readme' }, { timeout: 60_000 });
    refused.catch(() => {});
    const second = await server.pendingGate(`&runId=${runId}`);
    await server.decide(second.id, { option: 'reject', reason: 'not the read-me' });
    await expect(refused).rejects.toThrow(
      `Rejected by a person (gate ${second.id}): notes__resources/read was not called.`,
    );
  });

  it('names what opened the gate of a read no rule matched: the policy default, not only its risk', async () => {
    await useNotesPolicy(server, 'allow', 'no rule');
    const read = gateway.client.readResource({ uri: 'notes://readme' }, { timeout: 60_000 });
    read.catch(() => {});
    const gate = await server.pendingGate(`&runId=${runId}`);
    const view = await server.call(server.test.tokens.developer, 'GET', `/v1/gates/${gate.id}`);
    const why = view.body.briefing.sections.find(
      (section: { title: string }) => section.title === 'Why Gated',
    );
    expect(why.fields).toEqual([
      { label: 'Policy Rule', value: 'policy-default' },
      { label: 'Risk', value: 'medium' },
    ]);
    await server.decide(gate.id, { option: 'reject', reason: 'not now' });
    await expect(read).rejects.toThrow(/Rejected by a person/);
  });

  it('reads the resource a person edited the URI to', async () => {
    await useNotesPolicy(server, 'allow', 'gate');
    const read = gateway.client.readResource({ uri: 'notes://items/1' }, { timeout: 60_000 });
    const gate = await server.pendingGate(`&runId=${runId}`);
    await server.decide(gate.id, { option: 'approve', editedArgs: { uri: 'notes://items/2' } });
    expect((await read).contents[0]).toMatchObject({ text: 'note 2' });
  });

  it('refuses a resource read or a prompt the policy denies, naming the rule', async () => {
    await useNotesPolicy(server, 'allow', 'deny');
    await expect(gateway.client.readResource({ uri: 'notes://readme' })).rejects.toThrow(
      'Denied by the Gatehouse policy (rule notes-reads): notes__resources/read was not called.',
    );
    await expect(
      gateway.client.getPrompt({ name: 'notes__summarize', arguments: { topic: 'milk' } }),
    ).rejects.toThrow(
      'Denied by the Gatehouse policy (rule notes-reads): notes__prompts/get was not called.',
    );
  });

  it('asks the policy before getting a prompt, as <server>__prompts/get with its name and arguments', async () => {
    await useNotesPolicy(server, 'allow', 'gate');
    const prompt = gateway.client.getPrompt(
      { name: 'notes__summarize', arguments: { topic: 'milk' } },
      { timeout: 60_000 },
    );
    const gate = await server.pendingGate(`&runId=${runId}`);
    expect(gate.action).toMatchObject({
      tool: 'notes__prompts/get',
      args: { name: 'summarize', arguments: { topic: 'milk' } },
    });
    await server.decide(gate.id, {
      option: 'approve',
      editedArgs: { name: 'summarize', arguments: { topic: 'mint' } },
    });
    expect((await prompt).messages[0]?.content).toEqual({
      type: 'text',
      text: 'Summarize the notes about mint.',
    });
  });

  it('refuses an unknown tool without asking the policy', async () => {
    await expect(callTool(gateway.client, 'notes__nope', {})).rejects.toThrow(/unknown tool "notes__nope"/);
    await expect(callTool(gateway.client, 'write_note', {})).rejects.toThrow(/unknown tool/);
    const gates = await server.call(
      server.test.tokens.developer,
      'GET',
      `/v1/gates?runId=${runId}&limit=100`,
    );
    expect(
      gates.body.items.some((gate: { action: { tool: string } | null }) =>
        gate.action?.tool.includes('nope'),
      ),
    ).toBe(false);
  });

  it("passes on the upstream's list_changed, and lists the new tool", async () => {
    await useNotesPolicy(server, 'allow');
    const changed = new Promise<void>((resolve) => {
      gateway.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve());
    });
    await callTool(gateway.client, 'notes__add_tool', {
      name: `extra_${setup.startsWith('http') ? 'h' : 's'}`,
    });
    await changed;
    const { tools } = await gateway.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain(`notes__extra_${setup.startsWith('http') ? 'h' : 's'}`);
  });
});
