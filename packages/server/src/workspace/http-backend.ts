import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { gitEnvironment } from './git.js';

/** What `git http-backend` serves: the ref advertisement or one of the two services. */
export type BackendPath = 'info/refs' | 'git-upload-pack' | 'git-receive-pack';

/** One smart-HTTP request, with every value already checked by the caller. */
export interface BackendRequest {
  /** GIT_PROJECT_ROOT: the folder holding every run's repository. */
  reposDir: string;
  /** The repository's folder name inside `reposDir`, e.g. `run_abc.git`. */
  repo: string;
  path: BackendPath;
  method: 'GET' | 'POST';
  /** `service=git-upload-pack` for `info/refs`, else empty. */
  query: string;
  contentType: string | undefined;
  /** The client's `Git-Protocol` header (`version=2`), passed on as GIT_PROTOCOL. */
  gitProtocol: string | undefined;
  /** Who the server authenticated, for git's REMOTE_USER. */
  remoteUser: string;
  remoteAddr: string;
  /** The request body, already decompressed. */
  body: Readable | null;
  /** Configuration for this command only (`receive.maxInputSize`, …), passed as GIT_CONFIG_* variables. */
  config?: Record<string, string>;
}

/** The CGI's answer: its status and headers, then its output as it comes. */
export interface BackendResponse {
  status: number;
  headers: Record<string, string>;
  body: Readable;
  /** Settles once git has exited: its exit code and the end of what it printed on stderr. */
  exited: Promise<{ code: number; stderr: string }>;
}

const MAX_HEADER_BYTES = 64 * 1024;
/** The `Git-Protocol` values git sends: `version=2`, colon-separated `key=value` pairs. */
const GIT_PROTOCOL = /^[A-Za-z0-9=:._-]{1,256}$/;

function configEnv(config: Record<string, string> = {}): Record<string, string> {
  const entries = Object.entries(config);
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/** The CGI environment of RFC 3875 that `git http-backend` reads, and nothing from the server's own. */
export function backendEnvironment(request: BackendRequest): NodeJS.ProcessEnv {
  const env: Record<string, string> = {
    GIT_PROJECT_ROOT: request.reposDir,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: `/${request.repo}/${request.path}`,
    QUERY_STRING: request.query,
    REQUEST_METHOD: request.method,
    REMOTE_USER: request.remoteUser,
    REMOTE_ADDR: request.remoteAddr,
    GATEWAY_INTERFACE: 'CGI/1.1',
    ...configEnv(request.config),
  };
  if (request.contentType !== undefined) env.CONTENT_TYPE = request.contentType;
  if (request.gitProtocol !== undefined && GIT_PROTOCOL.test(request.gitProtocol)) {
    env.GIT_PROTOCOL = request.gitProtocol;
  }
  return gitEnvironment(env);
}

/** Splits CGI output at the blank line ending its headers; null while the headers are incomplete. */
export function splitCgiHeaders(
  output: Buffer,
): { status: number; headers: Record<string, string>; rest: Buffer } | null {
  const crlf = output.indexOf('\r\n\r\n');
  const lf = output.indexOf('\n\n');
  const end = crlf !== -1 && (lf === -1 || crlf < lf) ? crlf + 4 : lf !== -1 ? lf + 2 : -1;
  if (end === -1) return null;
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of output.toString('latin1', 0, end).split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  return { status, headers, rest: output.subarray(end) };
}

/**
 * Runs `git http-backend` for one request: the body goes to its stdin as it arrives, its headers
 * are parsed and the rest of its output streams back unbuffered.
 */
export function runHttpBackend(request: BackendRequest): Promise<BackendResponse> {
  const child = spawn('git', ['http-backend'], {
    cwd: request.reposDir,
    env: backendEnvironment(request),
    stdio: 'pipe',
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 16_384) stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code: code ?? -1, stderr: stderr.trim() }));
    child.on('error', (error) => resolve({ code: -1, stderr: error.message }));
  });
  child.stdin.on('error', () => undefined);
  if (request.body === null) child.stdin.end();
  else {
    request.body.on('error', () => child.kill('SIGTERM'));
    request.body.pipe(child.stdin);
  }
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const parsed = splitCgiHeaders(head);
      if (parsed === null) {
        if (head.length > MAX_HEADER_BYTES) child.kill('SIGTERM');
        return;
      }
      child.stdout.off('data', onData);
      child.stdout.off('end', onEnd);
      const body = new PassThrough();
      body.write(parsed.rest);
      child.stdout.pipe(body);
      // A client that went away stops git rather than leaving it writing to nobody.
      body.on('close', () => {
        if (!body.readableEnded && child.exitCode === null) child.kill('SIGTERM');
      });
      resolve({ status: parsed.status, headers: parsed.headers, body, exited });
    };
    const onEnd = () => {
      void exited.then(({ code, stderr: message }) =>
        reject(new Error(`git http-backend ended without an answer (exit ${code}): ${message}`)),
      );
    };
    child.stdout.on('data', onData);
    child.stdout.on('end', onEnd);
  });
}

/** Smart-HTTP paths of a run's repository: the only URLs where HTTP Basic carries a token. */
const GIT_HTTP_PATH = /^\/v1\/runs\/[^/?]+\/workspace\.git\//;

/**
 * The password of an HTTP Basic `authorization` header on a git URL (git's credential helpers send
 * the token that way; the user name is ignored), else null. Elsewhere Basic is never accepted: a
 * browser would replay it on cross-site requests like a cookie.
 */
export function gitBasicPassword(authorization: string, url: string): string | null {
  if (!authorization.startsWith('Basic ') || !GIT_HTTP_PATH.test(url)) return null;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 || colon === decoded.length - 1 ? null : decoded.slice(colon + 1);
}
