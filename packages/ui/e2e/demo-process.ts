import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built CLI (`npx tsc -b packages/cli` makes it), as `npm start` runs it. */
export const CLI_MAIN = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));

/** This process's environment without Gatehouse settings, so only what the test passes applies. */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('GATEHOUSE_')) env[key] = value;
  }
  return { ...env, NO_COLOR: '1', GATEHOUSE_NODE_CHECK: 'off', ...extra };
}

/**
 * `gatehouse serve --demo --port 0 --data-dir <dataDir>`, the command `npm start` runs: the server
 * and its scripted demo agent in one child process, ended by its pid only.
 */
export class DemoServeProcess {
  readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly printed: { text: string },
    readonly url: string,
    readonly loginLink: string,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Starts it and waits for its address and first-start login link (20 s at most). */
  static start(dataDir: string, env: Record<string, string>): Promise<DemoServeProcess> {
    if (!existsSync(CLI_MAIN))
      throw new Error(`${CLI_MAIN} is missing: run \`npx tsc -b packages/cli\` first`);
    const args = [CLI_MAIN, 'serve', '--demo', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'];
    const child = spawn(process.execPath, args, { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    const printed = { text: '' };
    const keep = (chunk: string) => {
      printed.text += chunk;
    };
    child.stdout?.setEncoding('utf8').on('data', keep);
    child.stderr?.setEncoding('utf8').on('data', keep);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`gatehouse serve --demo did not start:\n${printed.text}`));
      }, 20_000);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`gatehouse serve --demo exited with ${code}:\n${printed.text}`));
      };
      const onData = () => {
        const url = /Gatehouse is listening on (\S+)/.exec(printed.text)?.[1];
        const link = /Open (\S+\/login#token=\S+)/.exec(printed.text)?.[1];
        if (url === undefined || link === undefined || !/gatehouse login .*\n/.test(printed.text)) return;
        clearTimeout(timer);
        child.off('exit', onExit);
        child.stdout?.off('data', onData);
        resolve(new DemoServeProcess(child, printed, url, link));
      };
      child.once('exit', onExit);
      child.stdout?.on('data', onData);
    });
  }

  /** Everything the server and its demo agent printed so far. */
  output(): string {
    return this.printed.text;
  }

  /** SIGTERM to this child only (SIGKILL after 10 s); its exit code. */
  async stop(): Promise<number | null> {
    const pid = this.child.pid;
    if (pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => {
        if (this.child.exitCode === null && this.child.signalCode === null) process.kill(pid, 'SIGKILL');
      }, 10_000);
      await this.exited;
      clearTimeout(timer);
    }
    return this.child.exitCode;
  }
}
