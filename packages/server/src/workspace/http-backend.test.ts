import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backendEnvironment, gitBasicPassword, runHttpBackend, splitCgiHeaders } from './http-backend.js';
import { ensureRepo } from './repos.js';

const reposDir = mkdtempSync(join(tmpdir(), 'gatehouse-backend-'));
afterAll(() => rmSync(reposDir, { recursive: true, force: true }));

const request = {
  reposDir,
  repo: 'run_a.git',
  path: 'info/refs',
  method: 'GET',
  query: 'service=git-upload-pack',
  contentType: undefined,
  gitProtocol: 'version=2',
  remoteUser: 'agent:agent_a',
  remoteAddr: '127.0.0.1',
  body: null,
  config: { 'receive.maxInputSize': '1024' },
} as const;

describe('git http-backend as a CGI', () => {
  it('builds the CGI environment from checked values only, none of the server’s own', () => {
    process.env.GATEHOUSE_SECRET_FOR_TEST = 'x';
    const env = backendEnvironment({ ...request, gitProtocol: 'version=2\nX=1' });
    delete process.env.GATEHOUSE_SECRET_FOR_TEST;
    expect(env).toMatchObject({
      GIT_PROJECT_ROOT: reposDir,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: '/run_a.git/info/refs',
      QUERY_STRING: 'service=git-upload-pack',
      REQUEST_METHOD: 'GET',
      REMOTE_USER: 'agent:agent_a',
      REMOTE_ADDR: '127.0.0.1',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'receive.maxInputSize',
      GIT_CONFIG_VALUE_0: '1024',
      GIT_CONFIG_NOSYSTEM: '1',
    });
    expect(env.GIT_PROTOCOL).toBeUndefined();
    expect(env.GATEHOUSE_SECRET_FOR_TEST).toBeUndefined();
    expect(backendEnvironment(request).GIT_PROTOCOL).toBe('version=2');
  });

  it('splits CGI headers from the body, status included', () => {
    const output = Buffer.from('Status: 403 Forbidden\r\nContent-Type: text/plain\r\n\r\nno\r\n\r\nmore');
    expect(splitCgiHeaders(output)).toEqual({
      status: 403,
      headers: { 'content-type': 'text/plain' },
      rest: Buffer.from('no\r\n\r\nmore'),
    });
    expect(splitCgiHeaders(Buffer.from('Content-Type: x\n\nbody'))?.status).toBe(200);
    expect(splitCgiHeaders(Buffer.from('Content-Type: x\r\n'))).toBeNull();
  });

  it('serves the ref advertisement of a repository', async () => {
    await ensureRepo(reposDir, 'run_a');
    const response = await runHttpBackend({ ...request, gitProtocol: undefined });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-git-upload-pack-advertisement');
    let text = '';
    for await (const chunk of response.body) text += String(chunk);
    expect(text.startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
    expect(text).toContain('refs/heads/main');
    expect((await response.exited).code).toBe(0);
  });

  it('answers 404 for a repository that is not there', async () => {
    const response = await runHttpBackend({ ...request, repo: 'run_missing.git' });
    expect(response.status).toBe(404);
    response.body.resume();
  });
});

describe('HTTP Basic on git URLs', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
  const gitUrl = '/v1/runs/run_a/workspace.git/info/refs?service=git-upload-pack';

  it('takes the password as the token, whatever the user name', () => {
    expect(gitBasicPassword(basic('x-token:gha_secret'), gitUrl)).toBe('gha_secret');
    expect(gitBasicPassword(basic(':gha:with:colons'), gitUrl)).toBe('gha:with:colons');
  });

  it('ignores Basic anywhere else and without a password', () => {
    expect(gitBasicPassword(basic('x:gha_secret'), '/v1/runs')).toBeNull();
    expect(gitBasicPassword(basic('x:gha_secret'), '/v1/runs/run_a/workspace')).toBeNull();
    expect(gitBasicPassword(basic('x:'), gitUrl)).toBeNull();
    expect(gitBasicPassword(basic('nocolon'), gitUrl)).toBeNull();
    expect(gitBasicPassword('Bearer gha_secret', gitUrl)).toBeNull();
  });
});
