import { Readable } from 'node:stream';
import { runCli } from '../cli.js';
import type { Io } from '../command.js';
import type { CliResult } from './cli-process.js';

/** No credentials and an address nothing listens on: a call to a server fails loudly. */
const NO_SERVER = { XDG_CONFIG_HOME: '/nonexistent-gatehouse-config', GATEHOUSE_URL: 'http://127.0.0.1:9' };

/**
 * Runs `gatehouse …args` in this process, for what needs no server or terminal (help, usage errors,
 * local commands): a process start per case would cost more than the case. `env` replaces the default.
 */
export async function runCliInProcess(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<CliResult & { code: number }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([Buffer.from(options.stdin ?? '')]) as unknown as NodeJS.ReadStream,
    env: options.env ?? NO_SERVER,
    now: () => 0,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}
