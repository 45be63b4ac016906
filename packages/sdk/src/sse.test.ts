import { describe, expect, it } from 'vitest';
import { readSse, SseParser } from './sse.js';

function streamOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function collect(chunks: (string | Uint8Array)[]) {
  const messages = [];
  for await (const message of readSse(streamOf(chunks))) messages.push(message);
  return messages;
}

describe('SseParser', () => {
  it('parses event, id and multi-line data into one message', () => {
    const parser = new SseParser();
    const messages = parser.push('id: 7\nevent: intervention\ndata: {"a":\ndata: 1}\n\n');
    expect(messages).toEqual([{ event: 'intervention', data: '{"a":\n1}', id: '7' }]);
  });

  it('names messages without an event field "message" and keeps the last id across messages', () => {
    const parser = new SseParser();
    const messages = parser.push('id: 1\ndata: a\n\ndata: b\n\n');
    expect(messages.map((m) => [m.event, m.data, m.id])).toEqual([
      ['message', 'a', '1'],
      ['message', 'b', '1'],
    ]);
  });

  it('ignores comments, unknown fields and blocks without data', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\n\nevent: x\n\nfoo: bar\ndata: y\n\n')).toEqual([
      { event: 'message', data: 'y', id: null },
    ]);
  });

  it('accepts CRLF, CR and LF line ends, also when a CRLF is split across chunks', () => {
    const parser = new SseParser();
    const out = [...parser.push('data: a\r'), ...parser.push('\n\r\ndata: b\r\rdata: c\n\n')];
    expect(out.map((m) => m.data)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a message split at any point until its blank line arrives', () => {
    const text = 'id: 42\nevent: gate.decided\ndata: {"gateId":"gate_1"}\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new SseParser();
      const messages = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(messages).toEqual([{ event: 'gate.decided', data: '{"gateId":"gate_1"}', id: '42' }]);
    }
  });

  it('takes the value after one optional space and keeps an empty id as a reset', () => {
    const parser = new SseParser();
    const [first, second] = parser.push('id: 3\ndata:  two spaces\n\nid\ndata\n\n');
    expect(first).toEqual({ event: 'message', data: ' two spaces', id: '3' });
    expect(second).toEqual({ event: 'message', data: '', id: '' });
  });

  it('records the retry delay and ignores ids containing NUL', () => {
    const parser = new SseParser();
    parser.push('retry: 2500\nid: a\0b\ndata: x\n\nretry: soon\n\n');
    expect(parser.retryMs).toBe(2500);
    expect(parser.lastEventId).toBeNull();
  });

  it('strips a leading byte order mark', () => {
    expect(new SseParser().push('\uFEFFdata: x\n\n')).toEqual([{ event: 'message', data: 'x', id: null }]);
  });
});

describe('readSse', () => {
  it('decodes UTF-8 split inside a character and drops an unfinished last message', async () => {
    const bytes = new TextEncoder().encode('data: ünïcode ✓\n\ndata: cut');
    const messages = await collect([bytes.slice(0, 8), bytes.slice(8, 17), bytes.slice(17)]);
    expect(messages.map((m) => m.data)).toEqual(['ünïcode ✓']);
  });
});
