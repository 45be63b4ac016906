import { spawn } from 'node:child_process';

/** What an example printed and how it ended. */
export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an example script with `node` and the given arguments; resolves when it exits. */
export function runExample(script: string, args: string[], timeoutMs = 30_000): Promise<ExampleRun> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
