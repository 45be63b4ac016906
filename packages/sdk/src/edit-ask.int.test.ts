import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gatehouse } from './client.js';
import { ApprovalDenied, isGatehouseApiError } from './errors.js';
import { payloadHash } from './payload.js';
import { type LiveServer, startLiveServer } from './testing/live-server.js';

let server: LiveServer;
let gate: Gatehouse;

beforeEach(async () => {
  server = await startLiveServer();
  gate = new Gatehouse({
    url: server.url,
    token: server.test.tokens.agent,
    retry: { initialDelayMs: 20, maxDelayMs: 200 },
  });
});

afterEach(async () => {
  await server.close();
});

const proposed = { path: 'src/app.ts', content: 'export const a = 1;\n' };
const edited = { path: 'src/app.ts', content: 'export const a = 2;\n' };

async function approveWithEdit(editedArgs: Record<string, unknown>) {
  const open = await server.pendingGate();
  expect(open.editable).toBe(true);
  const decided = await server.decide(open.id, { option: 'approve', editedArgs });
  expect(decided.status).toBe(200);
  return open;
}

describe('edited approvals', () => {
  it('returns the edited arguments, bound to their hash', async () => {
    const pending = gate.request({ tool: 'write_file', args: proposed });
    await approveWithEdit(edited);
    const answer = await pending;
    expect(answer).toMatchObject({ outcome: 'approved', edited: true, args: edited, answer: null });
    expect(answer.payloadHash).toBe(await payloadHash({ tool: 'write_file', args: edited }));
  });

  it('returns the agent’s own arguments when nobody edited them', async () => {
    const pending = gate.request({ tool: 'write_file', args: proposed });
    await server.decide((await server.pendingGate()).id, { option: 'approve' });
    expect(await pending).toMatchObject({ edited: false, args: proposed });
  });

  it('withApproval runs the tool with the edited arguments and uses the approval once', async () => {
    const written: unknown[] = [];
    const write = gate.withApproval((file: typeof proposed) => written.push(file), { tool: 'write_file' });
    const running = write(proposed);
    const open = await approveWithEdit(edited);
    await running;
    expect(written).toEqual([edited]);
    const again = await server.call(server.test.tokens.agent, 'POST', `/v1/gates/${open.id}/consume`, {
      payloadHash: await payloadHash({ tool: 'write_file', args: edited }),
    });
    expect(again.body.error.code).toBe('APPROVAL_USED');
  });

  it('withApproval with its own argument mapping runs edits only through fromArgs', async () => {
    const written: string[] = [];
    const spec = { tool: 'write_file', args: (path: string, content: string) => ({ path, content }) };
    const unmapped = gate.withApproval((path: string, _content: string) => written.push(path), spec);
    const refused = unmapped(proposed.path, proposed.content).catch((error: unknown) => error);
    await approveWithEdit(edited);
    const error = await refused;
    expect(isGatehouseApiError(error) && error.details.field).toBe('fromArgs');
    expect(written).toEqual([]);

    const mapped = gate.withApproval((_path: string, content: string) => written.push(content), {
      ...spec,
      fromArgs: (args) => [String(args.path), String(args.content)] as [string, string],
    });
    const running = mapped(proposed.path, proposed.content);
    await approveWithEdit(edited);
    await running;
    expect(written).toEqual([edited.content]);
  });
});

describe('the README’s first example', () => {
  it('runs a person’s edited path through its fromArgs, and refuses an edit the function cannot take', async () => {
    const deleted: string[] = [];
    const deleteFile = async (path: string) => {
      deleted.push(path);
    };
    // As the README wraps it.
    const safeDelete = gate.withApproval(deleteFile, {
      tool: 'delete_file',
      args: (path: string) => ({ path }),
      fromArgs: (edited) => [String(edited.path)] as [string],
    });
    const running = safeDelete('build/');
    await approveWithEdit({ path: 'build/cache/' });
    await running;
    expect(deleted).toEqual(['build/cache/']);

    const widened = safeDelete('build/').catch((error: unknown) => error);
    await approveWithEdit({ path: 'build/', recursive: true });
    expect(isGatehouseApiError(await widened, 'PAYLOAD_MISMATCH')).toBe(true);
    expect(deleted).toEqual(['build/cache/']);
  });
});

describe('ask', () => {
  it('returns the person’s answer', async () => {
    const asking = gate.ask('Which region should the bucket live in?');
    const open = await server.pendingGate();
    expect(open).toMatchObject({ type: 'question', title: 'Which region should the bucket live in?' });
    await server.decide(open.id, { option: 'answer', answer: 'eu-west-1' });
    expect(await asking).toBe('eu-west-1');
  });

  it('throws ApprovalDenied with the reason when the person declines', async () => {
    const asking = gate.ask('May I email the customer?').catch((error: unknown) => error);
    await server.decide((await server.pendingGate()).id, {
      option: 'reject',
      reason: 'ask the account lead',
    });
    const error = await asking;
    expect(error).toBeInstanceOf(ApprovalDenied);
    expect((error as ApprovalDenied).result.reason).toBe('ask the account lead');
  });

  it('refuses an empty question before asking', async () => {
    await expect(gate.ask('  ')).rejects.toThrowError(/must not be empty/);
  });
});
