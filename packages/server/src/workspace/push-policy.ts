import type { RefUpdate } from 'gatehouse-hitl-core';

/** Longest command section read before the pack: thousands of refs, never a whole pack. */
export const MAX_COMMANDS_BYTES = 1024 * 1024;

/** The ref updates at the start of a receive-pack request, and the capabilities the client asked for. */
export interface PushCommands {
  updates: RefUpdate[];
  capabilities: string[];
}

/** One pkt-line holding `payload`. */
export function pktLine(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0'), 'ascii'), body]);
}

export const FLUSH_PKT = Buffer.from('0000', 'ascii');

type Parsed = { commands: PushCommands; length: number } | { error: string } | null;

const COMMAND = /^([0-9a-f]{40}) ([0-9a-f]{40}) (\S+)$/;

/**
 * Reads the command section of a receive-pack request (pkt-lines `<old> <new> <ref>[\0caps]` up to a
 * flush): its ref updates and how many bytes it took; null while more bytes are needed.
 */
export function parsePushCommands(buffer: Buffer): Parsed {
  const updates: RefUpdate[] = [];
  let capabilities: string[] = [];
  let offset = 0;
  while (offset + 4 <= buffer.length) {
    const size = Number.parseInt(buffer.toString('ascii', offset, offset + 4), 16);
    if (!/^[0-9a-f]{4}$/.test(buffer.toString('ascii', offset, offset + 4)) || (size > 0 && size < 5)) {
      return { error: 'the push does not start with ref-update commands' };
    }
    if (size === 0) {
      if (updates.length === 0) return { error: 'the push names no refs' };
      return { commands: { updates, capabilities }, length: offset + 4 };
    }
    if (offset + size > buffer.length) return null;
    const line = buffer.toString('utf8', offset + 4, offset + size).replace(/\n$/, '');
    offset += size;
    const [command = '', caps] = line.split('\0');
    if (caps !== undefined) capabilities = caps.split(' ').filter((cap) => cap !== '');
    if (command.startsWith('shallow ')) continue;
    const match = COMMAND.exec(command);
    if (!match) return { error: 'the push has a command that is not `<old> <new> <ref>`' };
    updates.push({ old: match[1] ?? '', new: match[2] ?? '', ref: match[3] ?? '' });
  }
  return buffer.length > MAX_COMMANDS_BYTES ? { error: 'the push names too many refs' } : null;
}

/**
 * A receive-pack answer refusing every update with its reason, as git prints it
 * (` ! [remote rejected] main -> main (agents may push phase branches only)`); wrapped in side
 * band 1 when the client asked for it, with `message` on band 2 so it shows as `remote: …`.
 */
export function refusalReport(
  commands: PushCommands,
  reasons: ReadonlyMap<string, string>,
  options: { unpack?: string; message?: string } = {},
): Buffer {
  const status = [
    pktLine(`unpack ${options.unpack ?? 'ok'}\n`),
    ...commands.updates.map((update) =>
      pktLine(`ng ${update.ref} ${reasons.get(update.ref) ?? 'refused'}\n`),
    ),
    FLUSH_PKT,
  ];
  const caps = commands.capabilities;
  const band = caps.includes('side-band-64k') ? 65_515 : caps.includes('side-band') ? 995 : 0;
  if (band === 0) return Buffer.concat(status);
  const payload = Buffer.concat(status);
  const packets: Buffer[] = [];
  if (options.message) packets.push(pktLine(Buffer.from(`\u0002${options.message}\n`, 'utf8')));
  for (let at = 0; at < payload.length; at += band) {
    packets.push(pktLine(Buffer.concat([Buffer.from([1]), payload.subarray(at, at + band)])));
  }
  packets.push(FLUSH_PKT);
  return Buffer.concat(packets);
}

/** Whether the client can read a receive-pack status report (every git since 1.6 asks for one). */
export function canReport(commands: PushCommands): boolean {
  return commands.capabilities.some((cap) => cap === 'report-status' || cap === 'report-status-v2');
}
