import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { oneSendAtATime } from './one-send-at-a-time.js';

const MESSAGES = 200;

// A peer that reads nothing for its first 300 ms, so the pipe fills, then reads every message and
// reports how many came and whether they came in order.
const SLOW_READER = `
let buffer = '';
let count = 0;
let ordered = true;
setTimeout(() => {
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (message.params.index !== count) ordered = false;
      count += 1;
      if (count === ${MESSAGES}) {
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'done', params: { count, ordered } }) + '\\n');
      }
    }
  });
}, 300);
`;

describe('oneSendAtATime', () => {
  it('sends a burst to a peer that reads late in order, with no pile of drain listeners', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const transport = oneSendAtATime(
      new StdioClientTransport({ command: process.execPath, args: ['-e', SLOW_READER], stderr: 'inherit' }),
    );
    const report = new Promise<JSONRPCMessage>((resolve) => {
      transport.onmessage = resolve;
    });
    try {
      await transport.start();
      const padding = 'x'.repeat(20_000);
      await Promise.all(
        Array.from({ length: MESSAGES }, (_, index) =>
          transport.send({ jsonrpc: '2.0', method: 'note', params: { index, padding } }),
        ),
      );
      expect(await report).toEqual({
        jsonrpc: '2.0',
        method: 'done',
        params: { count: MESSAGES, ordered: true },
      });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
      await transport.close();
    }
    expect(warnings.filter((warning) => warning.includes('drain listeners'))).toEqual([]);
  });

  it('goes on with the next message when one fails to send', async () => {
    const sent: unknown[] = [];
    const transport = oneSendAtATime({
      start: async () => {},
      close: async () => {},
      send: async (message: JSONRPCMessage) => {
        if ('id' in message && message.id === 1) throw new Error('refused');
        sent.push(message);
      },
    });
    const first = transport.send({ jsonrpc: '2.0', id: 1, method: 'a' });
    const second = transport.send({ jsonrpc: '2.0', id: 2, method: 'b' });
    await expect(first).rejects.toThrow('refused');
    await second;
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 2, method: 'b' }]);
  });
});
