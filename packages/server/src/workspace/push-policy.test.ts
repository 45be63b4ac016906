import { ZERO_OBJECT_ID as ZERO_ID } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { canReport, FLUSH_PKT, parsePushCommands, pktLine, refusalReport } from './push-policy.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
describe('receive-pack commands', () => {
  const first = pktLine(
    `${ZERO_ID} ${B} refs/heads/phase-1-strategic\0report-status side-band-64k agent=git/2.39\n`,
  );
  const second = pktLine(`${A} ${B} refs/heads/main\n`);

  it('reads the ref updates and capabilities up to the flush, and where the pack starts', () => {
    const body = Buffer.concat([first, second, FLUSH_PKT, Buffer.from('PACK…')]);
    const parsed = parsePushCommands(body);
    expect(parsed).toEqual({
      commands: {
        updates: [
          { old: ZERO_ID, new: B, ref: 'refs/heads/phase-1-strategic' },
          { old: A, new: B, ref: 'refs/heads/main' },
        ],
        capabilities: ['report-status', 'side-band-64k', 'agent=git/2.39'],
      },
      length: first.length + second.length + 4,
    });
  });

  it('waits for more bytes while the commands are incomplete', () => {
    expect(parsePushCommands(first.subarray(0, 30))).toBeNull();
    expect(parsePushCommands(Buffer.concat([first, second]))).toBeNull();
  });

  it('skips shallow lines and refuses what is not a command', () => {
    const shallow = pktLine(`shallow ${A}\n`);
    const parsed = parsePushCommands(Buffer.concat([shallow, first, FLUSH_PKT]));
    expect(parsed && 'commands' in parsed ? parsed.commands.updates.length : -1).toBe(1);
    expect(parsePushCommands(Buffer.concat([pktLine('hello\n'), FLUSH_PKT]))).toEqual({
      error: 'the push has a command that is not `<old> <new> <ref>`',
    });
    expect(parsePushCommands(Buffer.from('zzzz'))).toEqual({
      error: 'the push does not start with ref-update commands',
    });
    expect(parsePushCommands(FLUSH_PKT)).toEqual({ error: 'the push names no refs' });
  });

  it('answers a refusal as a status report, in side band 1 when asked, with a message on band 2', () => {
    const parsed = parsePushCommands(Buffer.concat([first, FLUSH_PKT]));
    if (parsed === null || 'error' in parsed) throw new Error('not parsed');
    const reasons = new Map([['refs/heads/phase-1-strategic', 'too big']]);
    const banded = refusalReport(parsed.commands, reasons, { unpack: 'too big', message: 'hello' });
    const status = Buffer.concat([
      pktLine('unpack too big\n'),
      pktLine('ng refs/heads/phase-1-strategic too big\n'),
      FLUSH_PKT,
    ]);
    expect(banded).toEqual(
      Buffer.concat([
        pktLine('\u0002hello\n'),
        pktLine(Buffer.concat([Buffer.from([1]), status])),
        FLUSH_PKT,
      ]),
    );
    const plain = refusalReport({ ...parsed.commands, capabilities: ['report-status'] }, reasons, {
      unpack: 'too big',
    });
    expect(plain).toEqual(status);
    expect(canReport(parsed.commands)).toBe(true);
    expect(canReport({ ...parsed.commands, capabilities: ['side-band-64k'] })).toBe(false);
  });
});
